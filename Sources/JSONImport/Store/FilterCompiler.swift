/// Turns a filter expression into an SQL condition over one entity's table, with every value
/// bound as a `?` parameter and every name checked against the mappings (SPEC 4.3), in the
/// dialect `Syntax` spells. The names are checked, and the values converted, before anything
/// is spelled: a filter is refused the same way whatever the store.
struct FilterCompiler<Syntax: FilterSyntax> {
    let plan: ImportPlan
    private(set) var parameters: [StoredValue] = []
    private var aliasCount = 0

    /// The most relationships one path follows: its joins stay within SQLite's 64 tables.
    static var maximumRelationships: Int { 32 }

    init(plan: ImportPlan) { self.plan = plan }

    /// The condition for rows of `entity` in table alias `alias`, for `expression` once it is
    /// normalized and checked against the limits (``FilterExpression/normalized()``).
    mutating func compile(_ expression: FilterExpression, on entity: EntityPlan, alias: String) throws(FilterError) -> String {
        try condition(expression.normalized(), on: entity, alias: alias)
    }

    /// The condition for rows of `entity` in table alias `alias`.
    private mutating func condition(_ expression: FilterExpression, on entity: EntityPlan, alias: String) throws(FilterError) -> String {
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
            return Syntax.isNotTrue(try condition(inner, on: entity, alias: alias))
        case .compare(let path, let op, let value):
            return try leaf(path, on: entity, alias: alias) { compiler, column, attribute throws(FilterError) in
                let bound = try compiler.bind(value, for: attribute, applyingTransforms: op == .equal || op == .notEqual)
                let column = Syntax.compared(column, attribute)
                switch op {
                case .equal: return Syntax.isNotDistinct(column, from: bound, valueIsNull: compiler.parameters.last == .null)
                case .notEqual: return Syntax.isDistinct(column, from: bound)
                default: return "\(column) \(op.rawValue) \(bound)"
                }
            }
        case .isIn(let path, let values):
            return try leaf(path, on: entity, alias: alias) { compiler, column, attribute throws(FilterError) in
                var stored: [StoredValue] = []
                for value in values { stored.append(try Self.stored(value, for: attribute, applyingTransforms: true)) }
                let (sql, parameters) = Syntax.isIn(Syntax.compared(column, attribute), stored, attribute)
                compiler.parameters += parameters
                return sql
            }
        case .isNull(let path, let negated):
            return try leaf(path, on: entity, alias: alias) { _, column, _ in
                "\(column) IS \(negated ? "NOT " : "")NULL"
            }
        case .contains(let path, let value):
            return try leaf(path, on: entity, alias: alias) { compiler, column, attribute throws(FilterError) in
                guard case .array(let element) = attribute.type else {
                    throw FilterError(message: "CONTAINS applies to array attributes ('\(attribute.name)' is \(attribute.type))", column: nil)
                }
                guard value != .null else {
                    throw FilterError(message: "CONTAINS takes an element value, not null ('\(attribute.name)' holds no null)", column: nil)
                }
                let elementAttribute = AttributeSpec(
                    name: attribute.name, type: .scalar(element), key: attribute.key, dateFormat: attribute.dateFormat,
                    transforms: attribute.transforms, location: attribute.location)
                let stored = try Self.stored(value, for: elementAttribute, applyingTransforms: true)
                let (sql, parameters) = Syntax.contains(column, stored, of: element)
                compiler.parameters += parameters
                return sql
            }
        case .like(let path, let pattern):
            return try leaf(path, on: entity, alias: alias) { compiler, column, attribute in
                compiler.parameters.append(.text(pattern))
                return Syntax.like(column, attribute)
            }
        }
    }

    /// The condition on the attribute at the end of `path`. A path through relationships is one
    /// EXISTS subquery joining a table per step (and the link table of a `many` step), so it
    /// holds when any chain of linked rows ends in a match.
    ///
    /// For `followers.repos.name` on `User`, in SQLite's SQL:
    ///
    /// ```sql
    /// EXISTS (SELECT 1 FROM "User_followers" l1 JOIN "User" t1 ON t1."id" = l1."target"
    ///   JOIN "Repo" t2 ON t2."owner" = t1."id" WHERE l1."source" = r."id" AND t2."name" IS ?)
    /// ```
    ///
    /// A step through a relationship to a union (SPEC 1.4) is one condition per concrete entity
    /// that has the rest of the path, joined by OR; `pinned` holds, by step, the concrete
    /// entity's relationship each of them follows. After such a step, `entity` is the concrete
    /// entity's name.
    private mutating func leaf(
        _ path: [String], on entity: EntityPlan, alias: String, pinned: [Int: Int] = [:],
        _ make: (inout FilterCompiler, String, AttributeSpec) throws(FilterError) -> String
    ) throws(FilterError) -> String {
        var (current, currentAlias, rest) = (entity, alias, path[...])
        var tables: [(table: String, on: String)] = []
        var steps = 0
        var unionStep = false
        func condition(_ body: String) -> String {
            guard let first = tables.first else { return body }
            let joins = tables.dropFirst().map { " JOIN \($0.table) ON \($0.on)" }.joined()
            return "EXISTS (SELECT 1 FROM \(first.table)\(joins) WHERE \(first.on) AND \(body))"
        }
        while true {
            let step = path.count - rest.count
            let name = rest.removeFirst()
            if rest.isEmpty, unionStep, name == "entity" {
                // The concrete entity's name, as a text value of its own.
                let entityName = AttributeSpec(name: name, type: .scalar(.string), key: JSONKeyPath(segments: [name]), location: current.spec.location)
                return condition(try make(&self, Syntax.textLiteral(current.spec.name), entityName))
            }
            if rest.isEmpty, let attribute = current.spec.attribute(named: name) {
                return condition(try make(&self, "\(currentAlias).\(quote(attribute.name))", attribute))
            }
            let candidates = current.relationships.indices.filter { current.relationships[$0].spec.name == name }
            guard let first = candidates.first else {
                let names = current.spec.attributes.map(\.name) + current.spec.relationships.map(\.name)
                throw FilterError(
                    message: "\(current.spec.name) has no field '\(name)'\(Suggestion.hint(for: name, among: names))", column: nil)
            }
            if let union = current.relationships[first].union, pinned[step] == nil {
                var parts: [String] = []
                for candidate in candidates {
                    // The entities that have the next field (or, compared by itself, a single key).
                    let target = current.relationships[candidate].targetPlan.spec
                    let hasField = rest.first.map { next in
                        next == "entity" || target.attribute(named: next) != nil || target.relationship(named: next) != nil
                    } ?? (target.primaryKey.count == 1)
                    guard hasField else { continue }
                    parts.append(try leaf(path, on: entity, alias: alias, pinned: pinned.merging([step: candidate]) { $1 }, make))
                }
                guard !parts.isEmpty else {
                    let field = rest.first.map { "field '\($0)'" } ?? "single key to compare"
                    throw FilterError(
                        message: "no entity of union \(union.spec.name) (\(union.spec.entities.joined(separator: ", "))) has \(field)", column: nil)
                }
                return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " OR ") + ")"
            }
            let relationship = current.relationships[pinned[step] ?? first]
            unionStep = relationship.union != nil
            let target = plan.entities[relationship.target]
            if rest.isEmpty {
                // A relationship compared by itself stands for its target's key.
                guard target.spec.primaryKey.count == 1 else {
                    throw FilterError(message: "'\(name)' links to \(target.spec.name), which has no single key to compare; name one of its fields", column: nil)
                }
                rest = target.spec.primaryKey[...]
            }
            steps += 1
            guard steps <= Self.maximumRelationships else {
                throw FilterError(
                    message: "a path may follow at most \(Self.maximumRelationships) relationships", column: nil)
            }
            aliasCount += 1
            let (inner, link) = ("t\(aliasCount)", "l\(aliasCount)")
            switch relationship.storage {
            case .selfColumn(let column, _):
                tables.append(("\(target.table) \(inner)", "\(inner).\(target.rowID) = \(currentAlias).\(quote(column))"))
            case .otherColumn(let column):
                tables.append(("\(target.table) \(inner)", "\(inner).\(quote(column)) = \(currentAlias).\(current.rowID)"))
            case .linkTable(let table, let selfIsSource):
                let mine = selfIsSource ? "\"source\"" : "\"target\""
                let theirs = selfIsSource ? "\"target\"" : "\"source\""
                tables.append(("\(quote(table)) \(link)", "\(link).\(mine) = \(currentAlias).\(current.rowID)"))
                tables.append(("\(target.table) \(inner)", "\(inner).\(target.rowID) = \(link).\(theirs)"))
            }
            (current, currentAlias) = (target, inner)
        }
    }

    /// A parameter placeholder for `value` converted to `attribute`'s stored form, as compared
    /// with the attribute's column.
    private mutating func bind(_ value: FilterExpression.Literal, for attribute: AttributeSpec, applyingTransforms: Bool) throws(FilterError) -> String {
        parameters.append(try Self.stored(value, for: attribute, applyingTransforms: applyingTransforms))
        return Syntax.comparedValue("?", attribute)
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
            return .real(DateCoding.roundedToMicroseconds(seconds))
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
