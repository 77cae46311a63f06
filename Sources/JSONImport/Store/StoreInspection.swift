/// Reading what a store holds by the names of the mappings (entity, attribute and relationship
/// names), not by tables and columns, so that a check of import semantics reads every store the
/// same way; and, to make rows look older, rewriting their timestamps. Not public: the library's
/// own tests use it.
///
/// The fields of an entity's rows are its attributes, the relationships stored on its rows
/// (the linked row's id), and the bookkeeping fields `_id` (the row id), `_stub`, `_created_at`,
/// `_updated_at` and `_seen_at`.
extension Store {
    /// A name the mappings do not declare, or a link that is not a pair of row ids.
    struct InspectionError: Error, CustomStringConvertible {
        let description: String
    }

    /// The fields every row of `entity` stores, in storage order: `_id` when the row id is not
    /// the key, the attributes, the relationships stored on the rows, then the bookkeeping.
    func storedFields(of entity: String) throws -> [String] {
        let plan = try entityPlan(entity)
        return StorageSchema(spec: spec, dialect: engine.dialect).columns(of: plan.spec).map(\.name)
    }

    /// The `fields` of every row of `entity`, ordered by `orderedBy` (fields of the entity;
    /// nulls first), else in no particular order.
    func storedRows(of entity: String, fields: [String], orderedBy: [String] = []) throws -> [[StoredValue]] {
        let plan = try entityPlan(entity)
        let columns = try fields.map { try column(of: plan, field: $0) }.joined(separator: ", ")
        var sql = "SELECT \(columns) FROM \(plan.table)"
        if !orderedBy.isEmpty {
            sql += " ORDER BY " + (try orderedBy.map { try column(of: plan, field: $0) }.joined(separator: ", "))
        }
        return try engine.rows(sql, [])
    }

    /// How many rows `entity` has, stubs included.
    func rowCount(of entity: String) throws -> Int {
        let plan = try entityPlan(entity)
        guard case .integer(let count)? = try engine.rows("SELECT count(*) FROM \(plan.table)", []).first?.first
        else { return 0 }
        return Int(count)
    }

    /// The links of `relationship` (`"Entity.name"`, either side) as row-id pairs, this side's
    /// row first, in link order: by row, then in the order of the relationship's list.
    func storedLinks(of relationship: String) throws -> [(row: Int64, linked: Int64)] {
        let parts = relationship.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw InspectionError(description: "'\(relationship)' is not Entity.relationship") }
        let entity = try entityPlan(parts[0])
        guard let link = entity.relationships.first(where: { $0.spec.name == parts[1] }) else {
            throw InspectionError(description: "\(parts[0]) has no relationship '\(parts[1])'")
        }
        let target = plan.entities[link.target]
        let sql: String
        switch link.storage {
        case .selfColumn(let column, _):
            sql = "SELECT \(entity.rowID), \(quote(column)) FROM \(entity.table) WHERE \(quote(column)) IS NOT NULL ORDER BY 1"
        case .otherColumn(let column):
            sql = "SELECT \(quote(column)), \(target.rowID) FROM \(target.table) WHERE \(quote(column)) IS NOT NULL ORDER BY 1, 2"
        case .linkTable(let name, true):
            sql = "SELECT \"source\", \"target\" FROM \(quote(name)) ORDER BY \"source\", \"position\""
        case .linkTable(let name, false):
            sql = "SELECT \"target\", \"source\" FROM \(quote(name)) ORDER BY \"target\", \"source\""
        }
        return try engine.rows(sql, []).map { row in
            guard case .integer(let from) = row[0], case .integer(let to) = row[1] else {
                throw InspectionError(description: "\(relationship) holds a link that is not a pair of row ids")
            }
            return (from, to)
        }
    }

    /// Every stored link that points at a row that does not exist, as
    /// `Entity.relationship: row → linked (missing Entity)`; empty when all links are intact.
    /// One anti-join per link and end, each link checked under its forward relationship.
    func integrityViolations() throws -> [String] {
        var violations: [String] = []
        for entity in plan.entities {
            for relationship in entity.relationships where relationship.spec.isForward {
                let target = plan.entities[relationship.target]
                // Per end of the link that may point at a missing row: the table holding the link,
                // the pair it reads (this side first), the entity that end points into, its column.
                var checks: [(from: String, pair: String, missing: EntityPlan, end: String)] = []
                switch relationship.storage {
                case .selfColumn(let column, _):
                    checks = [(entity.table, "l.\(entity.rowID), l.\(quote(column))", target, "l.\(quote(column))")]
                case .otherColumn(let column):
                    checks = [(target.table, "l.\(quote(column)), l.\(target.rowID)", entity, "l.\(quote(column))")]
                case .linkTable(let name, _):
                    checks = [
                        (quote(name), "l.\"source\", l.\"target\"", entity, "l.\"source\""),
                        (quote(name), "l.\"source\", l.\"target\"", target, "l.\"target\""),
                    ]
                }
                let name = "\(entity.spec.name).\(relationship.spec.name)"
                for check in checks {
                    let sql = "SELECT \(check.pair) FROM \(check.from) l WHERE \(check.end) IS NOT NULL "
                        + "AND NOT EXISTS (SELECT 1 FROM \(check.missing.table) m WHERE m.\(check.missing.rowID) = \(check.end)) "
                        + "ORDER BY 1, 2"
                    for row in try engine.rows(sql, []) {
                        violations.append("\(name): \(row[0]) → \(row[1]) (missing \(check.missing.spec.name))")
                    }
                }
            }
        }
        return violations
    }

    /// A change to a timestamp field (`_created_at`, `_updated_at`, `_seen_at`): set to a time
    /// (seconds since 1970), or moved back by some seconds.
    enum TimestampChange {
        case set(Double)
        case movedBack(Double)
    }

    /// Rewrites timestamp `field` of `entity`'s row `row` (a row id), or of every row when `nil`.
    func rewriteTimestamp(_ field: String, of entity: String, row: Int64? = nil, _ change: TimestampChange) throws {
        let plan = try entityPlan(entity)
        guard plan.spec.hasTimestamps, ["_created_at", "_updated_at", "_seen_at"].contains(field) else {
            throw InspectionError(description: "\(entity) has no timestamp '\(field)'")
        }
        let column = quote(field)
        var sql: String
        var values: [StoredValue]
        switch change {
        case .set(let time): (sql, values) = ("UPDATE \(plan.table) SET \(column) = ?", [.real(time)])
        case .movedBack(let seconds):
            let interval = engine.dialect == .postgres ? "? * interval '1 second'" : "?"
            (sql, values) = ("UPDATE \(plan.table) SET \(column) = \(column) - \(interval)", [.real(seconds)])
        }
        if let row {
            sql += " WHERE \(plan.rowID) = ?"
            values.append(.integer(row))
        }
        // PostgreSQL keeps later sightings in the seen table and in a mark for the whole table:
        // they go into the column of every row first.
        if field == "_seen_at" && engine.dialect == .postgres {
            try engine.run("UPDATE \(plan.table) SET \"_seen_at\" = \(PostgresEngine.seenAt(plan.spec, alias: plan.table))", [])
            try engine.run("DELETE FROM \(quote(StorageSchema.seenTable(of: plan.spec.table)))", [])
            try engine.run(
                "DELETE FROM \(quote(StorageSchema.metadataTable)) WHERE \"key\" = ?", [.text(PostgresEngine.seenMarkKey(plan.spec))])
        }
        try engine.run(sql, values)
    }

    /// The quoted column of `field`, one of the fields ``storedFields(of:)`` lists, or `_id`.
    private func column(of entity: EntityPlan, field: String) throws -> String {
        if field == "_id" { return entity.rowID }
        if field == "_seen_at" && engine.dialect == .postgres && entity.spec.hasTimestamps {
            return PostgresEngine.seenAt(entity.spec, alias: entity.table)
        }
        if let relationship = entity.relationships.first(where: { $0.spec.name == field }), let column = relationship.columnName {
            return quote(column)
        }
        guard StorageSchema(spec: spec, dialect: engine.dialect).columns(of: entity.spec).contains(where: { $0.name == field }) else {
            throw InspectionError(description: "\(entity.spec.name) stores no field '\(field)'")
        }
        return quote(field)
    }
}
