extension Mapper {
    /// The records `query` selects, as JSON-shaped objects (SPEC 4.2 `query --format json`).
    ///
    /// - Throws: ``QueryError`` for names the mappings do not have, a malformed filter or a key
    ///   that does not convert; ``StoreError`` for store failures.
    public func records(_ query: RecordQuery) throws -> [RecordObject] {
        try store.withReader { store in
            let entity = try store.entityPlan(query.entity)
            var selection = RecordReader.Selection()
            selection.ids = try query.ids.map { try store.key(of: entity, from: $0) }
            if let filter = query.filter {
                do throws(FilterError) {
                    selection.filter = try FilterParser.parse(filter)
                } catch {
                    throw QueryError(error)
                }
            }
            for order in query.order {
                try store.checkOrder(by: order.field, of: entity)
                selection.order.append((order.field, order.isDescending))
            }
            if let fields = query.fields {
                let names = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
                for field in fields where !names.contains(field) {
                    throw QueryError(.unknownField, "\(entity.spec.name) has no field '\(field)'\(Suggestion.hint(for: field, among: names))")
                }
            }
            selection.limit = query.limit
            selection.offset = query.offset
            let reader = store.reader
            // One read transaction: the rows and their links come from one committed state.
            return try store.transaction(.read) {
                let rows: [Int64]
                do {
                    rows = try reader.rowIDs(entity, selection)
                } catch let error as FilterError {
                    throw QueryError(error)
                }
                return try reader.records(entity, rows: rows, fields: query.fields, meta: query.includesMeta)
            }
        }
    }

    /// Row counts per entity, stubs per entity and links per forward relationship (SPEC 4.1
    /// `stats`).
    public func statistics() throws -> StoreStatistics {
        try store.withReader { store in
            // One read transaction: every count comes from the same committed state.
            try store.transaction(.read) { try store.statistics() }
        }
    }
}
