/// Running a query: the row ids it selects, through ``RecordReader`` and ``FilterCompiler``.
extension Query {
    /// The entity and the ids of its rows that the query selects, in order; `reversed` turns
    /// the order around (for ``last()``), `ids` narrows to primary keys.
    func rowIDs(
        in store: Store, reversed: Bool = false, limit: Int? = nil, ids: [[StoredValue]] = []
    ) throws -> (entity: EntityPlan, rows: [Int64]) {
        let (entity, sql, parameters) = try statement(in: store, reversed: reversed, limit: limit, ids: ids)
        let rows = try store.connection.rows(sql, parameters).compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { return id }
            return nil
        }
        return (entity, rows)
    }

    /// The `SELECT` of the row ids the query selects, with its parameters, built by
    /// ``RecordReader`` and ``FilterCompiler``.
    func statement(
        in store: Store, reversed: Bool = false, limit: Int? = nil, ids: [[StoredValue]] = []
    ) throws -> (entity: EntityPlan, sql: String, parameters: [StoredValue]) {
        let entity = try store.entityPlan(self.entity)
        var selection = RecordReader.Selection()
        selection.ids = ids
        selection.excludesStubs = !includesStubs
        var expressions: [FilterExpression] = []
        for filter in filters { expressions.append(try filter.expression.get()) }
        if !expressions.isEmpty { selection.filter = expressions.count == 1 ? expressions[0] : .and(expressions) }
        for order in ordering {
            guard entity.spec.attribute(named: order.field) != nil else {
                let names = entity.spec.attributes.map(\.name)
                throw QueryError(
                    "cannot order by '\(order.field)': \(entity.spec.name) has no such attribute\(Suggestion.hint(for: order.field, among: names))")
            }
            selection.order.append((order.field, order.isDescending != reversed))
        }
        if reversed {
            let key = entity.spec.isOwned ? [entity.spec.rowIDColumn] : entity.spec.primaryKey
            selection.order += key.map { ($0, true) }
        }
        selection.limit = limit ?? limitCount
        selection.offset = offsetCount
        let reader = RecordReader(connection: store.connection, plan: store.plan)
        do {
            let (sql, parameters) = try reader.rowIDQuery(entity, selection)
            return (entity, sql, parameters)
        } catch let error as FilterError {
            throw QueryError(error.description)
        }
    }

    /// Throws unless every name is an attribute or relationship of `entity`.
    static func check(_ properties: [String], of entity: EntityPlan) throws {
        let names = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
        for property in properties where !names.contains(property) {
            throw QueryError("\(entity.spec.name) has no property '\(property)'\(Suggestion.hint(for: property, among: names))")
        }
    }
}
