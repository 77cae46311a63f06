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

extension Store {
    /// The stored primary key of `entity` for a key given as a Swift value: a single value, or
    /// an array of values in key order for a composite key.
    func storedKey(of entity: EntityPlan, from value: PropertyValue) throws -> [StoredValue] {
        guard !entity.spec.isOwned else { throw QueryError("\(entity.spec.name) has no primary key") }
        let keys = entity.spec.keyAttributes
        var parts = [value]
        if keys.count > 1 {
            guard case .array(let items) = value, items.count == keys.count else {
                throw QueryError(
                    "the key of \(entity.spec.name) has \(keys.count) values (\(entity.spec.primaryKey.joined(separator: ", "))): give them as an array, got \(value.summary)")
            }
            parts = items
        }
        var values: [StoredValue] = []
        for (part, attribute) in zip(parts, keys) {
            guard case .scalar(let type) = attribute.type, let literal = part.literal,
                case .success(let converted) = ValueConversion.convert(literal.literalValue, to: type, format: attribute.dateFormat),
                converted != .null
            else {
                throw QueryError("\(part.summary) is not a valid \(attribute.type) for \(entity.spec.name).\(attribute.name)")
            }
            values.append(ValueConversion.applying(attribute.transforms, to: converted))
        }
        return values
    }
}
