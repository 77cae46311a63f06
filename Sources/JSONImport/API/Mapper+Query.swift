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
                    throw QueryError(error.description)
                }
            }
            for order in query.order {
                guard entity.spec.attribute(named: order.field) != nil else {
                    throw QueryError("cannot order by '\(order.field)': \(entity.spec.name) has no such attribute\(Suggestion.hint(for: order.field, among: entity.spec.attributes.map(\.name)))")
                }
                selection.order.append((order.field, order.isDescending))
            }
            if let fields = query.fields {
                let names = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
                for field in fields where !names.contains(field) {
                    throw QueryError("\(entity.spec.name) has no field '\(field)'\(Suggestion.hint(for: field, among: names))")
                }
            }
            selection.limit = query.limit
            selection.offset = query.offset
            let reader = RecordReader(connection: store.connection, plan: store.plan)
            // One read transaction: the rows and their links come from one committed state.
            return try store.connection.transaction(.read) {
                let rows: [Int64]
                do {
                    rows = try reader.rowIDs(entity, selection)
                } catch let error as FilterError {
                    throw QueryError(error.description)
                }
                return try rows.map { try reader.record(entity, row: $0, fields: query.fields, meta: query.includesMeta) }
            }
        }
    }

    /// Row counts per entity, stubs per entity and links per forward relationship (SPEC 4.1
    /// `stats`).
    public func statistics() throws -> StoreStatistics {
        try store.withReader { store in
            // One read transaction: every count comes from the same committed state.
            try store.connection.transaction(.read) { try Self.statistics(of: store) }
        }
    }

    private static func statistics(of store: Store) throws -> StoreStatistics {
        var stats = StoreStatistics()
        for entity in store.plan.entities {
            let count = try store.connection.rows("SELECT count(*) FROM \(entity.table)")
            stats.entities.append((entity.spec.name, count.first?.first?.integer ?? 0))
            let stubs = entity.spec.isOwned ? 0 : try store.connection.rows(
                "SELECT count(*) FROM \(entity.table) WHERE \"_stub\" = 1").first?.first?.integer ?? 0
            stats.stubs.append((entity.spec.name, stubs))
        }
        for link in store.spec.links {
            let sql: String
            switch link.storage {
            case .foreignKey(let table, let column, _, _):
                sql = "SELECT count(*) FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL"
            case .linkTable(let name):
                sql = "SELECT count(*) FROM \(quote(name))"
            }
            stats.links.append((link.qualifiedName, try store.connection.rows(sql).first?.first?.integer ?? 0))
        }
        return stats
    }
}
