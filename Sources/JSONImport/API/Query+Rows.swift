/// Running a query: the row ids it selects, read by the store's ``RecordReader``.
extension Query {
    /// The entity and the ids of its rows that the query selects, in order; `reversed` turns
    /// the order around (for ``last()``), `ids` narrows to primary keys.
    func rowIDs(
        in store: Store, reversed: Bool = false, limit: Int? = nil, ids: [[StoredValue]]? = nil
    ) throws -> (entity: EntityPlan, rows: [Int64]) {
        let (entity, selection) = try self.selection(in: store, reversed: reversed, limit: limit, ids: ids)
        return (entity, try Self.readingFilter { try store.reader.rowIDs(entity, selection) })
    }

    /// How many rows the query selects (within its limit and offset).
    func count(in store: Store) throws -> Int {
        let (entity, selection) = try self.selection(in: store)
        return try Self.readingFilter { try store.reader.count(entity, selection) }
    }

    /// The store's query of the row ids the query selects, for a deletion to mark them, and the
    /// primary keys it is narrowed to, if any.
    func compiledQuery(
        in store: Store, ids: [[StoredValue]]? = nil
    ) throws -> (entity: EntityPlan, query: CompiledQuery, keys: [[StoredValue]]?) {
        let (entity, selection) = try self.selection(in: store, ids: ids)
        return (entity, try Self.readingFilter { try store.reader.compiledQuery(entity, selection) }, selection.ids)
    }

    /// Runs `body`, turning a filter the store cannot compile into a ``QueryError``.
    private static func readingFilter<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FilterError {
            throw QueryError(error)
        }
    }

    /// The entity and the selection of its rows the query reads.
    private func selection(
        in store: Store, reversed: Bool = false, limit: Int? = nil, ids: [[StoredValue]]? = nil
    ) throws -> (entity: EntityPlan, selection: RecordReader.Selection) {
        let entity = try store.entityPlan(self.entity)
        var selection = RecordReader.Selection()
        selection.ids = try keys(in: store, of: entity, narrowing: ids)
        selection.excludesStubs = !includesStubs
        var expressions: [FilterExpression] = []
        for filter in filters { expressions.append(try filter.expression.get()) }
        if !expressions.isEmpty { selection.filter = expressions.count == 1 ? expressions[0] : .and(expressions) }
        for order in ordering {
            try store.checkOrder(by: order.field, of: entity)
            selection.order.append((order.field, order.isDescending != reversed))
        }
        if reversed {
            let key = entity.spec.isOwned ? [entity.spec.rowIDColumn] : entity.spec.primaryKey
            selection.order += key.map { ($0, true) }
        }
        // As `query --limit` and `--offset` refuse them, rather than reading a negative one as
        // none, as SQLite does. (`last()` reads one record, whatever the limit.)
        selection.limit = limit ?? limitCount
        selection.offset = offsetCount
        if let limit = selection.limit, limit < 0 { throw QueryError("the limit must be 0 or more, not \(limit)") }
        if let offset = selection.offset, offset < 0 { throw QueryError("the offset must be 0 or more, not \(offset)") }
        return (entity, selection)
    }

    /// The primary keys the query's ``keys(_:)`` lists and `ids` all hold, in the order of the
    /// first list; `nil` when neither narrows.
    private func keys(
        in store: Store, of entity: EntityPlan, narrowing ids: [[StoredValue]]?
    ) throws -> [[StoredValue]]? {
        var lists = try keyLists.map { list in
            try list.map { key in
                switch key {
                case .value(let value): try store.storedKey(of: entity, from: value.get())
                case .text(let text): try store.key(of: entity, from: text)
                }
            }
        }
        if let ids { lists.append(ids) }
        guard var result = lists.first else { return nil }
        for list in lists.dropFirst() {
            let kept = Set(list)
            result.removeAll { !kept.contains($0) }
        }
        return result
    }

    /// Throws unless every name is an attribute or relationship of `entity`; messages call
    /// them `noun`s.
    static func check(_ properties: [String], of entity: EntityPlan, noun: String = "property") throws {
        let names = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
        for property in properties where !names.contains(property) {
            throw QueryError(.unknownField, "\(entity.spec.name) has no \(noun) '\(property)'\(Suggestion.hint(for: property, among: names))")
        }
    }
}

/// A primary key given to ``Query/keys(_:)``: a Swift value, encoded when given, or the text
/// form of the command line.
enum KeyInput: Sendable {
    case value(Result<PropertyValue, any Error>)
    case text(String)
}

/// One sort key of a query: a field or path, and its direction.
struct SortKey: Sendable, Hashable {
    var field: String
    var isDescending: Bool
}
