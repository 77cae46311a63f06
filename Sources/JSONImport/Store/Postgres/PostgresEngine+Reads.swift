/// The reads that build records, in PostgreSQL's SQL: row-id queries compiled from a selection
/// (``PostgresFilterCompiler``), and rows and links read by id list or id range. They return
/// what the SQLite store's return for the same stored data: the same rows in the same order,
/// the same values.
///
/// A selection is compiled before anything runs, so a filter naming what the mappings lack
/// fails as it does on SQLite; then the row path hands over the writes it holds, so the read
/// sees them.
extension PostgresEngine {
    func rowIDs(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> [Int64] {
        let query = try rowIDQuery(entity, selection, plan: plan)
        try handOverPendingWrites()
        return try connection.rows(query.text, query.parameters).compactMap {
            if case .integer(let id) = $0[0] { return id }
            return nil
        }
    }

    func count(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> Int {
        let query = try rowIDQuery(entity, selection, plan: plan)
        try handOverPendingWrites()
        let rows = try connection.rows("SELECT count(*) FROM (\(query.text)) q", query.parameters)
        return Int(rows.first?.first?.integer ?? 0)
    }

    /// The `SELECT` of the row ids, with `$1`, `$2`, … numbered from 1 in its own text.
    func compiledQuery(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> CompiledQuery {
        let query = try rowIDQuery(entity, selection, plan: plan)
        try handOverPendingWrites()
        return query
    }

    /// The `SELECT` of the row ids matching `selection`, in order, and its parameters.
    ///
    /// ```sql
    /// SELECT r."id" FROM "User" r WHERE (r."score" > $1) AND NOT r."_stub"
    /// ORDER BY r."login" DESC NULLS LAST, r."id" LIMIT ALL OFFSET 20
    /// ```
    private func rowIDQuery(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> CompiledQuery {
        var conditions: [String] = []
        var parameters: [StoredValue] = []
        if let filter = selection.filter {
            var compiler = PostgresFilterCompiler(plan: plan)
            conditions.append(try compiler.compile(filter, on: entity, alias: "r"))
            parameters += compiler.parameters
        }
        if let ids = selection.ids {
            let (condition, arrays) = Self.keyCondition(entity, keys: ids)
            conditions.append(condition)
            parameters += arrays
        }
        if selection.excludesStubs && !entity.spec.isOwned { conditions.append("NOT r.\"_stub\"") }
        var sql = "SELECT r.\(entity.rowID) FROM \(entity.table) r"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY " + PostgresFilterSyntax.orderTerms(selection.order, of: entity).joined(separator: ", ")
        if selection.limit != nil || selection.offset != nil {
            // The API refuses a negative limit or offset; should one come, it reads as SQLite
            // reads it: no limit, no offset.
            let limit = selection.limit.flatMap { $0 < 0 ? nil : String($0) } ?? "ALL"
            sql += " LIMIT \(limit) OFFSET \(max(selection.offset ?? 0, 0))"
        }
        return CompiledQuery(text: PostgresSQL.numbered(sql), parameters: parameters)
    }

    /// The condition selecting the rows of `entity` (alias `r`) whose primary key is one of
    /// `keys`, with `?` placeholders, and its parameters: one array per key attribute, of the
    /// attribute's type (keys are never dates, JSON or arrays), read with `unnest`, so any
    /// number of keys is one bound value per key attribute.
    ///
    /// ```sql
    /// r."id" IN (SELECT k.k1 FROM unnest(?::int8[]) AS k(k1))                    -- {1,2,3}
    /// (r."team", r."user") IN (SELECT k.k1, k.k2 FROM unnest(?::text[], ?::int8[]) AS k(k1, k2))
    /// ```
    static func keyCondition(_ entity: EntityPlan, keys: [[StoredValue]]) -> (sql: String, parameters: [StoredValue]) {
        let attributes = entity.spec.keyAttributes
        let columns = attributes.map { "r.\(quote($0.name))" }
        let names = attributes.indices.map { "k\($0 + 1)" }
        var arrays: [StoredValue] = []
        var types: [String] = []
        for (i, attribute) in attributes.enumerated() {
            types.append("?::\(arrayType(of: attribute.type))[]")
            arrays.append(.text("{" + keys.map { arrayElement(i < $0.count ? $0[i] : .null) }.joined(separator: ",") + "}"))
        }
        let tuple = columns.count == 1 ? columns[0] : "(\(columns.joined(separator: ", ")))"
        let sql = "\(tuple) IN (SELECT \(names.map { "k.\($0)" }.joined(separator: ", ")) FROM unnest(\(types.joined(separator: ", "))) "
            + "AS k(\(names.joined(separator: ", "))))"
        return (sql, arrays)
    }

    /// The element type of an array of key values of `type`.
    static func arrayType(of type: AttributeType) -> String {
        switch type {
        case .scalar(.int): return "int8"
        case .scalar(.double): return "float8"
        case .scalar(.bool): return "bool"
        case .scalar(.uuid): return "uuid"
        default: return "text"
        }
    }

    /// `value` as an element of an array's text form: a number as Swift prints it (a double
    /// in as few digits as read back the same), text in double quotes with `"` and `\`
    /// escaped, `NULL` for NULL.
    static func arrayElement(_ value: StoredValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let text):
            var quoted = "\""
            for character in text {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\""
        }
    }

    // MARK: Rows

    func storedRows(_ entity: EntityPlan, rows: [Int64]) throws -> [Int64: RecordReader.StoredRow] {
        try handOverPendingWrites()
        let spec = entity.spec
        let columns = [entity.rowID] + spec.attributes.map { quote($0.name) } + [spec.isOwned ? "false" : "\"_stub\""]
        var result: [Int64: RecordReader.StoredRow] = [:]
        guard !rows.isEmpty else { return result }
        let found = try connection.rows(
            "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE \(entity.rowID) = ANY($1::int8[])",
            [Self.array(rows)])
        for values in found {
            guard case .integer(let row) = values[0] else { continue }
            result[row] = RecordReader.StoredRow(
                values: Array(values[1..<values.count - 1]), isStub: values[values.count - 1] == .integer(1))
        }
        return result
    }

    func attributeRows(_ entity: EntityPlan, rows: [Int64], meta: Bool) throws(StoreError) -> [Int64: [StoredValue]] {
        try handOverPendingWrites()
        let spec = entity.spec
        var columns = spec.attributes.map { "r.\(quote($0.name))" }
        if meta {
            columns += spec.hasTimestamps
                ? ["r.\"_created_at\"", "r.\"_updated_at\"", Self.seenAt(spec, alias: "r")] : ["NULL", "NULL", "NULL"]
            // `_stub` is a bool, read as 0 or 1; an owned row is never a stub.
            columns.append(spec.isOwned ? "0" : "r.\"_stub\"")
        }
        var stored: [Int64: [StoredValue]] = [:]
        guard !rows.isEmpty else { return stored }
        let found = try connection.rows(
            "SELECT r.\(entity.rowID), \(columns.joined(separator: ", ")) FROM \(entity.table) AS r WHERE r.\(entity.rowID) = ANY($1::int8[])",
            [Self.array(rows)])
        for values in found {
            guard case .integer(let row) = values[0] else { continue }
            stored[row] = Array(values.dropFirst())
        }
        return stored
    }

    func readRows(of entity: EntityPlan, _ rows: [Int64], into values: inout [StoredValue]) throws(StoreError) -> [Int64] {
        try handOverPendingWrites()
        let selection = RowSelection(rows)
        guard !selection.rows.isEmpty else { return [] }
        let columns = entity.spec.attributes.map { quote($0.name) }
            + entity.selfColumns.map { quote(entity.relationships[$0].columnName!) }
        let found = try connection.rows(
            "SELECT \(entity.rowID), \(columns.joined(separator: ", ")) FROM \(entity.table) "
                + "WHERE \(selection.postgresCondition(on: entity.rowID)) ORDER BY \(entity.rowID)",
            selection.postgresParameters)
        var rowsFound: [Int64] = []
        rowsFound.reserveCapacity(selection.rows.count)
        var filter = selection.filter
        for row in found {
            guard case .integer(let id) = row[0], filter.wants(id) else { continue }
            rowsFound.append(id)
            values += row.dropFirst()
        }
        return rowsFound
    }

    /// Reads the links of a link table from the source side in position order, from the
    /// target side in source order, and those of a link column in the order of the rows that
    /// hold them, as the SQLite store gives them.
    func forEachLink(
        _ relationship: RelationshipPlan, of entity: EntityPlan, rows: [Int64], plan: ImportPlan,
        _ body: (Int64, Int64) -> Void
    ) throws(StoreError) {
        try handOverPendingWrites()
        let selection = RowSelection(rows)
        guard !selection.rows.isEmpty else { return }
        let target = plan.entities[relationship.target]
        let sql: String
        switch relationship.storage {
        case .selfColumn(let column, _):
            sql = "SELECT \(entity.rowID), \(quote(column)) FROM \(entity.table) "
                + "WHERE \(selection.postgresCondition(on: entity.rowID)) AND \(quote(column)) IS NOT NULL ORDER BY 1"
        case .otherColumn(let column):
            sql = "SELECT \(quote(column)), \(target.rowID) FROM \(target.table) "
                + "WHERE \(selection.postgresCondition(on: quote(column))) ORDER BY 1, 2"
        case .linkTable(let name, true):
            // Links of equal positions (none are written) in target order, as SQLite's stable sort leaves them.
            sql = "SELECT \"source\", \"target\" FROM \(quote(name)) "
                + "WHERE \(selection.postgresCondition(on: "\"source\"")) ORDER BY \"source\", \"position\", \"target\""
        case .linkTable(let name, false):
            sql = "SELECT \"target\", \"source\" FROM \(quote(name)) "
                + "WHERE \(selection.postgresCondition(on: "\"target\"")) ORDER BY \"target\", \"source\""
        }
        var filter = selection.filter
        for link in try connection.rows(sql, selection.postgresParameters) {
            guard case .integer(let source) = link[0], case .integer(let linked) = link[1], filter.wants(source) else { continue }
            body(source, linked)
        }
    }

    func keyValues(of entity: EntityPlan, rows: [Int64]) throws(StoreError) -> [(Int64, [StoredValue])] {
        try handOverPendingWrites()
        guard !rows.isEmpty else { return [] }
        let columns = ([entity.rowID] + entity.spec.keyAttributes.map { quote($0.name) }).joined(separator: ", ")
        let found = try connection.rows(
            "SELECT \(columns) FROM \(entity.table) WHERE \(entity.rowID) = ANY($1::int8[]) ORDER BY 1", [Self.array(rows)])
        return found.compactMap { values in
            guard case .integer(let row) = values[0] else { return nil }
            return (row, Array(values.dropFirst()))
        }
    }

    /// For `User` with a filter, a page after the key 42 is
    ///
    /// ```sql
    /// SELECT r."id", r."id" FROM "User" r
    /// WHERE (r."score" > $1) AND NOT r."_stub" AND (r."id") > ($2)
    /// ORDER BY r."id" LIMIT 256
    /// ```
    func keyOrderPage(
        _ entity: EntityPlan, filter: FilterExpression?, keys: [[StoredValue]], after key: [StoredValue]?, limit: Int,
        plan: ImportPlan
    ) throws -> KeyOrderPages.Page {
        let spec = entity.spec
        var conditions: [String] = []
        var parameters: [StoredValue] = []
        if let filter {
            var compiler = PostgresFilterCompiler(plan: plan)
            conditions.append(try compiler.compile(filter, on: entity, alias: "r"))
            parameters += compiler.parameters
        }
        if !keys.isEmpty {
            let (condition, arrays) = Self.keyCondition(entity, keys: keys)
            conditions.append(condition)
            parameters += arrays
        }
        if !spec.isOwned { conditions.append("NOT r.\"_stub\"") }
        let orderColumns = (spec.isOwned ? [spec.rowIDColumn] : spec.primaryKey).map { "r.\(quote($0))" }
        if key != nil {
            conditions.append("(\(orderColumns.joined(separator: ", "))) > (\(orderColumns.map { _ in "?" }.joined(separator: ", ")))")
        }
        var sql = "SELECT r.\(entity.rowID), \(orderColumns.joined(separator: ", ")) FROM \(entity.table) r"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY \(orderColumns.joined(separator: ", ")) LIMIT \(limit < 0 ? "ALL" : String(limit))"
        try handOverPendingWrites()
        let rows = try connection.rows(PostgresSQL.numbered(sql), parameters + (key ?? []))
        let ids = rows.compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { return id }
            return nil
        }
        return KeyOrderPages.Page(rows: ids, lastKey: rows.last.map { Array($0.dropFirst()) })
    }
}
