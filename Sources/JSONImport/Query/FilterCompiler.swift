/// Turns a filter expression into an SQL condition over one entity's table, with every value
/// bound as a parameter and every name checked against the mappings (SPEC 4.3).
struct FilterCompiler {
    let plan: ImportPlan
    private(set) var parameters: [StoredValue] = []
    private var aliasCount = 0

    init(plan: ImportPlan) { self.plan = plan }

    /// The condition for rows of `entity` in table alias `alias`.
    mutating func condition(_ expression: FilterExpression, on entity: EntityPlan, alias: String) throws(FilterError) -> String {
        switch expression {
        case .or(let parts):
            var sql: [String] = []
            for part in parts { sql.append(try condition(part, on: entity, alias: alias)) }
            return "(" + sql.joined(separator: " OR ") + ")"
        case .and(let parts):
            var sql: [String] = []
            for part in parts { sql.append(try condition(part, on: entity, alias: alias)) }
            return "(" + sql.joined(separator: " AND ") + ")"
        case .not(let inner):
            // Two-valued logic: a comparison with NULL does not hold, so its negation does.
            return "NOT coalesce(" + (try condition(inner, on: entity, alias: alias)) + ", 0)"
        case .compare(let path, let op, let value):
            return try leaf(path, on: entity, alias: alias) { compiler, column, attribute throws(FilterError) in
                let bound = try compiler.bind(value, for: attribute, applyingTransforms: op == .equal || op == .notEqual)
                let column = Self.compared(column, attribute)
                switch op {
                case .equal: return "\(column) IS \(bound)"
                case .notEqual: return "\(column) IS NOT \(bound)"
                default: return "\(column) \(op.rawValue) \(bound)"
                }
            }
        case .isIn(let path, let values):
            return try leaf(path, on: entity, alias: alias) { compiler, column, attribute throws(FilterError) in
                var bound: [String] = []
                for value in values { bound.append(try compiler.bind(value, for: attribute, applyingTransforms: true)) }
                return "\(Self.compared(column, attribute)) IN (\(bound.joined(separator: ", ")))"
            }
        case .isNull(let path, let negated):
            return try leaf(path, on: entity, alias: alias) { _, column, _ in
                "\(column) IS \(negated ? "NOT " : "")NULL"
            }
        case .like(let path, let pattern):
            return try leaf(path, on: entity, alias: alias) { compiler, column, _ in
                compiler.parameters.append(.text(pattern))
                return "\(column) LIKE ?"
            }
        }
    }

    /// The condition on the attribute at the end of `path`, through relationships as EXISTS
    /// subqueries (a path through a `many` relationship holds when any linked row matches).
    private mutating func leaf(
        _ path: [String], on entity: EntityPlan, alias: String,
        _ make: (inout FilterCompiler, String, AttributeSpec) throws(FilterError) -> String
    ) throws(FilterError) -> String {
        let name = path[0]
        if path.count == 1, let attribute = entity.spec.attribute(named: name) {
            return try make(&self, "\(alias).\(quote(attribute.name))", attribute)
        }
        guard let r = entity.relationships.firstIndex(where: { $0.spec.name == name }) else {
            let names = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
            throw FilterError(
                message: "\(entity.spec.name) has no field '\(name)'\(Suggestion.hint(for: name, among: names))", column: nil)
        }
        let relationship = entity.relationships[r]
        let target = plan.entities[relationship.target]
        var rest = Array(path.dropFirst())
        if rest.isEmpty {
            // A relationship compared by itself stands for its target's key.
            guard target.spec.primaryKey.count == 1 else {
                throw FilterError(message: "'\(name)' links to \(target.spec.name), which has no single key to compare; name one of its fields", column: nil)
            }
            rest = target.spec.primaryKey
        }
        aliasCount += 1
        let inner = "t\(aliasCount)"
        let body = try leaf(rest, on: target, alias: inner, make)
        switch relationship.storage {
        case .selfColumn(let column, _):
            return "EXISTS (SELECT 1 FROM \(target.table) \(inner) WHERE \(inner).\(target.rowID) = \(alias).\(quote(column)) AND \(body))"
        case .otherColumn(let column):
            return "EXISTS (SELECT 1 FROM \(target.table) \(inner) WHERE \(inner).\(quote(column)) = \(alias).\(entity.rowID) AND \(body))"
        case .linkTable(let table, let selfIsSource):
            let mine = selfIsSource ? "\"source\"" : "\"target\""
            let theirs = selfIsSource ? "\"target\"" : "\"source\""
            return "EXISTS (SELECT 1 FROM \(quote(table)) l\(aliasCount) JOIN \(target.table) \(inner) ON \(inner).\(target.rowID) = l\(aliasCount).\(theirs) WHERE l\(aliasCount).\(mine) = \(alias).\(entity.rowID) AND \(body))"
        }
    }

    /// `column` as comparisons and orderings read it: decimals by numeric value, whatever digits
    /// their text spells them with (`10.5` = `10.50`).
    static func compared(_ column: String, _ attribute: AttributeSpec) -> String {
        attribute.type == .decimal ? "\(column) COLLATE \(SQLiteConnection.decimalCollation)" : column
    }

    /// A parameter placeholder for `value` converted to `attribute`'s stored form.
    private mutating func bind(_ value: FilterExpression.Literal, for attribute: AttributeSpec, applyingTransforms: Bool) throws(FilterError) -> String {
        parameters.append(try Self.stored(value, for: attribute, applyingTransforms: applyingTransforms))
        return "?"
    }

    /// `value` as the store holds values of `attribute`: dates as instants (ISO 8601 literals,
    /// a date alone is midnight UTC), Booleans as 0/1, and so on.
    static func stored(_ value: FilterExpression.Literal, for attribute: AttributeSpec, applyingTransforms: Bool) throws(FilterError) -> StoredValue {
        if value == .null { return .null }
        let converted: StoredValue
        switch attribute.type {
        case .scalar(.date):
            guard case .string(let text) = value,
                let seconds = DateCoding.parse(text, format: .iso8601) ?? DateCoding.parse(text + "T00:00:00Z", format: .iso8601)
            else {
                throw FilterError(message: "'\(attribute.name)' is a date: compare it with an ISO 8601 string such as '2024-01-01'", column: nil)
            }
            return .real(seconds)
        case .scalar(let scalar) where scalar != .json:
            switch ValueConversion.convert(value.literalValue, to: scalar, format: attribute.dateFormat) {
            case .success(let v): converted = v
            case .failure(let failure):
                throw FilterError(message: "value for '\(attribute.name)': \(failure)", column: nil)
            }
        default:
            switch value {
            case .string(let s), .number(let s): converted = .text(s)
            case .bool(let b): converted = .text(b ? "true" : "false")
            case .null: converted = .null
            }
        }
        return applyingTransforms ? ValueConversion.applying(attribute.transforms, to: converted) : converted
    }
}
