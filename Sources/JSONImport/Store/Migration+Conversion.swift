import Foundation

extension Migration {
    /// Applies `plan` to `engine` in the open write transaction: its statements in order, the
    /// values of each ``Conversion`` made just before the statement that copies them. A
    /// constraint the copied rows break fails in the same words on every store.
    static func apply(_ plan: MigrationPlan, spec: MappingSpec, on engine: any StoreEngine) throws {
        try checkConversions(plan.conversions, spec: spec)
        do {
            var done = 0
            for conversion in plan.conversions {
                try engine.executeMigration(Array(plan.statements[done..<conversion.before]))
                done = conversion.before
                try convert(conversion, spec: spec, on: engine)
            }
            try engine.executeMigration(Array(plan.statements[done...]))
        } catch let error as StoreError where error.code == .constraint {
            guard let sql = error.sql else { throw error }
            // Two converted keys that became one: the table's key, or the unique index that
            // keeps a key that is not the row id.
            let retyped = plan.conversions.first {
                sql.hasPrefix("INSERT INTO \(quote(rebuilding($0.table))) ") || sql.hasPrefix("CREATE UNIQUE INDEX \(quote($0.table + "_key")) ")
            }
            if let table = retyped?.table, isUniqueViolation(error) {
                throw StoreError(.constraint, "rows of \(table) hold the same key once their values take the types the mappings now give them")
            }
            if sql.hasPrefix("CREATE UNIQUE INDEX") {
                throw StoreError(.constraint, "rows hold the same value where the mappings now want it unique", sql: sql)
            }
            throw error
        }
    }

    /// Whether `error` is a unique index's refusal, in SQLite's words or PostgreSQL's.
    private static func isUniqueViolation(_ error: StoreError) -> Bool {
        error.message.contains("UNIQUE constraint failed") || error.message.contains("duplicate key value")
    }

    /// Refuses, before anything is applied, a conversion no store can make alike: of a type read
    /// off a column's SQL type (a store recorded before attribute types were, where SQLite keeps
    /// `int` and `bool` alike, `double` and `date` alike), or of a distributed entity's tenant,
    /// which its link tables and seen marks hold too.
    private static func checkConversions(_ conversions: [Conversion], spec: MappingSpec) throws {
        for conversion in conversions {
            let entity = spec.entities.first { $0.table == conversion.table }
            let name = "\(entity?.name ?? conversion.table).\(conversion.column)"
            guard conversion.isRecorded else {
                throw StoreError(
                    .constraint,
                    "the type of \(name) cannot change: the store does not record its attributes' types (an earlier version made it); "
                        + "open it once with the mappings it was made with, which records them, then migrate")
            }
            if let entity, entity.tenantAttribute == conversion.column {
                throw StoreError(
                    .constraint,
                    "the type of \(name) cannot change: it is the tenant of the distributed entity \(entity.name), which its links hold too")
            }
        }
    }

    /// Makes the temporary table of `conversion`: each row's value of the column converted as an
    /// import converts its JSON form (the form `export` writes), with the attribute's `format`
    /// for dates. A value that does not convert is left out, so the row's value becomes `null`;
    /// in a key or `required` attribute, which cannot be `null`, it fails the migration instead.
    private static func convert(_ conversion: Conversion, spec: MappingSpec, on engine: any StoreEngine) throws {
        let entity = spec.entities.first { $0.table == conversion.table }
        let attribute = entity?.attribute(named: conversion.column)
        let values = quote(conversion.values)
        let rowType = engine.dialect.typeName(of: .int)
        try engine.run(
            "CREATE TEMP TABLE \(values) (\"row\" \(rowType) PRIMARY KEY, \"value\" \(engine.dialect.typeName(of: conversion.to)))", [])
        let column = quote(conversion.column), rowID = quote(conversion.rowID)
        let parser = JSONParser()
        // In pages by row id, so that a large table's values are never all in memory at once.
        var after = Int64.min
        while true {
            let rows = try engine.rows(
                "SELECT \(rowID), \(column) FROM \(quote(conversion.table)) WHERE \(column) IS NOT NULL AND \(rowID) > ? "
                    + "ORDER BY \(rowID) LIMIT \(Self.conversionPage)", [.integer(after)])
            guard case .integer(let last)? = rows.last?.first else { return }
            after = last
            var converted: [StoredValue] = []
            converted.reserveCapacity(2 * rows.count)
            for row in rows {
                guard let value = try convertedValue(row[1], conversion, entity: entity, attribute: attribute, parser: parser) else { continue }
                converted += [row[0], value]
            }
            // A few hundred rows a statement: the parameters of one stay well within both stores' limits.
            let pairs = 400
            for start in stride(from: 0, to: converted.count, by: 2 * pairs) {
                let part = Array(converted[start..<min(start + 2 * pairs, converted.count)])
                let tuples = repeatElement("(?, ?)", count: part.count / 2).joined(separator: ", ")
                try engine.run("INSERT INTO \(values) (\"row\", \"value\") VALUES \(tuples)", part)
            }
            if rows.count < Self.conversionPage { return }
        }
    }

    /// Rows a conversion reads at a time.
    static let conversionPage = 10_000

    /// `stored`, a value of `conversion`'s column, in its new type; `nil` when it does not convert
    /// (the row's value becomes `null`).
    /// - Throws: ``StoreError`` (`constraint`) when it does not convert and the attribute is part
    ///   of the key or `required`.
    private static func convertedValue(
        _ stored: StoredValue, _ conversion: Conversion, entity: EntitySpec?, attribute: AttributeSpec?, parser: JSONParser
    ) throws -> StoredValue? {
        let form = RecordReader.jsonValue(stored, of: conversion.from)
        let document = try parser.parse(JSONInput(form.jsonText))
        let failure: String
        switch document.root.converted(to: conversion.to, format: attribute?.dateFormat ?? .iso8601) {
        case .success(let value) where !value.isNull: return value.stored
        case .success: failure = "found null"
        case .failure(let issue): failure = issue.description
        }
        let isKey = entity?.primaryKey.contains(conversion.column) == true
        guard isKey || attribute?.isRequired == true else { return nil }
        throw StoreError(
            .constraint,
            "a value of \(entity?.name ?? conversion.table).\(conversion.column) does not take its new type (\(failure)), "
                + "and \(conversion.column) \(isKey ? "is part of the key" : "is required")")
    }
}
