/// The reads that build records, in SQLite's SQL: row-id queries compiled from a selection,
/// and rows and links read a page at a time.
///
/// A page picks its rows by range when their ids are dense (rows imported together have
/// neighbouring ids), skipping the few in the range it did not ask for, and by an id list
/// otherwise.
extension SQLiteEngine {
    func rowIDs(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> [Int64] {
        let (sql, parameters) = try rowIDQuery(entity, selection, plan: plan)
        return try connection.rows(sql, parameters).compactMap {
            if case .integer(let id) = $0[0] { return id }
            return nil
        }
    }

    func count(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> Int {
        let (sql, parameters) = try rowIDQuery(entity, selection, plan: plan)
        return Int(try connection.rows("SELECT count(*) FROM (\(sql))", parameters).first?.first?.integer ?? 0)
    }

    func compiledQuery(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> CompiledQuery {
        let (sql, parameters) = try rowIDQuery(entity, selection, plan: plan)
        return CompiledQuery(text: sql, parameters: parameters)
    }

    /// The `SELECT` of the row ids matching `selection`, in order, and its parameters.
    private func rowIDQuery(
        _ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan
    ) throws -> (sql: String, parameters: [StoredValue]) {
        var compiler = SQLiteFilterCompiler(plan: plan)
        var conditions: [String] = []
        var parameters: [StoredValue] = []
        if let filter = selection.filter {
            conditions.append(try compiler.compile(filter, on: entity, alias: "r"))
            parameters += compiler.parameters
        }
        if let ids = selection.ids {
            let (condition, keys) = Self.keyCondition(entity, keys: ids)
            conditions.append(condition)
            parameters.append(keys)
        }
        if selection.excludesStubs && !entity.spec.isOwned { conditions.append("r.\"_stub\" = 0") }
        var sql = "SELECT r.\(entity.rowID) FROM \(entity.table) r"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        // Each field once keeps ORDER BY within SQLite's 2000 terms however often it is named.
        sql += " ORDER BY " + SQLiteFilterSyntax.orderTerms(selection.order, of: entity).joined(separator: ", ")
        if selection.limit != nil || selection.offset != nil {
            sql += " LIMIT \(selection.limit ?? -1) OFFSET \(selection.offset ?? 0)"
        }
        return (sql, parameters)
    }

    /// The condition selecting the rows of `entity` (alias `r`) whose primary key is one of
    /// `keys`, and its one parameter: the keys as a JSON array, read with `json_each`, so any
    /// number of keys is one bound value.
    ///
    /// ```sql
    /// r."id" IN (SELECT value FROM json_each(?))                            -- [1,2,3]
    /// (r."team", r."user") IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
    ///                          FROM json_each(?))                           -- [["a",1],["b",2]]
    /// ```
    static func keyCondition(_ entity: EntityPlan, keys: [[StoredValue]]) -> (sql: String, parameter: StoredValue) {
        let columns = entity.spec.primaryKey.map { "r.\(quote($0))" }
        let isComposite = columns.count > 1
        var array = JSONTextWriter()
        array.append("[")
        for (i, key) in keys.enumerated() {
            if i > 0 { array.append(",") }
            if isComposite { array.append("[") }
            for (j, value) in key.enumerated() {
                if j > 0 { array.append(",") }
                array.append(value)
            }
            if isComposite { array.append("]") }
        }
        array.append("]")
        guard isComposite else {
            return ("\(columns[0]) IN (SELECT value FROM json_each(?))", .text(array.text))
        }
        let parts = columns.indices.map { "json_extract(value, '$[\($0)]')" }.joined(separator: ", ")
        return ("(\(columns.joined(separator: ", "))) IN (SELECT \(parts) FROM json_each(?))", .text(array.text))
    }

    // MARK: Rows

    func storedRows(_ entity: EntityPlan, rows: [Int64]) throws -> [Int64: RecordReader.StoredRow] {
        let spec = entity.spec
        let columns = [entity.rowID] + spec.attributes.map { quote($0.name) } + [spec.isOwned ? "0" : "\"_stub\""]
        var result: [Int64: RecordReader.StoredRow] = [:]
        guard columns.count <= EntitySpec.maximumColumns else {
            for row in rows { result[row] = try storedRow(entity, row: row) }
            return result
        }
        let statement = try connection.statement(
            "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE \(entity.rowID) IN (SELECT value FROM json_each(?))")
        defer { statement.reset() }
        for page in Store.pages(of: rows) {
            statement.reset()
            statement.bind(Store.idList(page), at: 1)
            while try statement.step() {
                let values = spec.attributes.indices.map { statement.value(at: $0 + 1) }
                result[statement.int64(at: 0)] = RecordReader.StoredRow(
                    values: values, isStub: statement.int64(at: spec.attributes.count + 1) != 0)
            }
        }
        return result
    }

    /// The attribute values and stub mark of `row`, read alone (for an entity too wide to
    /// read its row id beside its columns).
    private func storedRow(_ entity: EntityPlan, row: Int64) throws -> RecordReader.StoredRow? {
        let spec = entity.spec
        let columns = spec.attributes.map { quote($0.name) } + [spec.isOwned ? "0" : "\"_stub\""]
        let statement = try connection.statement(
            "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE \(entity.rowID) = ?")
        statement.bind(row, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let values = spec.attributes.indices.map { statement.value(at: $0) }
        return RecordReader.StoredRow(values: values, isStub: statement.int64(at: spec.attributes.count) != 0)
    }

    func attributeRows(_ entity: EntityPlan, rows: [Int64], meta: Bool) throws(StoreError) -> [Int64: [StoredValue]] {
        let spec = entity.spec
        var columns = spec.attributes.map { quote($0.name) }
        if meta {
            columns += spec.hasTimestamps ? ["\"_created_at\"", "\"_updated_at\"", "\"_seen_at\""] : ["NULL", "NULL", "NULL"]
            columns.append(spec.isOwned ? "0" : "\"_stub\"")
        }
        var stored: [Int64: [StoredValue]] = [:]
        if columns.count < EntitySpec.maximumColumns {
            let statement = try connection.statement(
                "SELECT \(entity.rowID), \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE \(entity.rowID) IN (SELECT value FROM json_each(?))")
            defer { statement.reset() }
            statement.bind(Store.idList(Array(Set(rows))), at: 1)
            while try statement.step() { stored[statement.int64(at: 0)] = columns.indices.map { statement.value(at: $0 + 1) } }
        } else {
            // The row id beside every column would pass the most a result holds: row by row.
            let statement = try connection.statement(
                "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE \(entity.rowID) = ?")
            defer { statement.reset() }
            for row in Set(rows) {
                statement.reset()
                statement.bind(row, at: 1)
                if try statement.step() { stored[row] = columns.indices.map { statement.value(at: $0) } }
            }
        }
        return stored
    }

    func readRows(of entity: EntityPlan, _ rows: [Int64], into values: inout [StoredValue]) throws(StoreError) -> [Int64] {
        let selection = RowSelection(rows)
        guard !selection.rows.isEmpty else { return [] }
        let columns = entity.spec.attributes.map { quote($0.name) }
            + entity.selfColumns.map { quote(entity.relationships[$0].columnName!) }
        let statement = try connection.statement(
            "SELECT \(entity.rowID), \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE \(selection.condition(on: entity.rowID))")
        defer { statement.reset() }
        selection.bind(to: statement)
        var found: [Int64] = []
        found.reserveCapacity(selection.rows.count)
        var filter = selection.filter
        while try statement.step() {
            let row = statement.int64(at: 0)
            guard filter.wants(row) else { continue }
            found.append(row)
            for column in 1...columns.count { values.append(statement.value(at: column)) }
        }
        return found
    }

    func forEachLink(
        _ relationship: RelationshipPlan, of entity: EntityPlan, rows: [Int64], plan: ImportPlan,
        _ body: (Int64, Int64) -> Void
    ) throws(StoreError) {
        let selection = RowSelection(rows)
        guard !selection.rows.isEmpty else { return }
        let target = plan.entities[relationship.target]
        let sql: String
        switch relationship.storage {
        case .selfColumn(let column, _):
            sql = "SELECT \(entity.rowID), \(quote(column)) FROM \(entity.table) WHERE \(selection.condition(on: entity.rowID)) AND \(quote(column)) IS NOT NULL"
        case .otherColumn(let column):
            sql = "SELECT \(quote(column)), \(target.rowID) FROM \(target.table) WHERE \(selection.condition(on: quote(column))) ORDER BY 1, 2"
        case .linkTable(let name, true):
            // In key order (source, target), which needs no sort; each source's links are put in
            // position order here.
            sql = "SELECT \"source\", \"target\", \"position\" FROM \(quote(name)) WHERE \(selection.condition(on: "\"source\"")) ORDER BY \"source\", \"target\""
        case .linkTable(let name, false):
            sql = "SELECT \"target\", \"source\" FROM \(quote(name)) WHERE \(selection.condition(on: "\"target\"")) ORDER BY \"target\", \"source\""
        }
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        selection.bind(to: statement)
        var filter = selection.filter
        guard case .linkTable(_, true) = relationship.storage else {
            while try statement.step() {
                let source = statement.int64(at: 0)
                if filter.wants(source) { body(source, statement.int64(at: 1)) }
            }
            return
        }
        var source: Int64 = 0
        var links = PositionedLinks()
        func flush() {
            for target in links.inLinkOrder { body(source, target) }
            links.removeAll()
        }
        while try statement.step() {
            let next = statement.int64(at: 0)
            guard filter.wants(next) else { continue }
            if next != source { flush() }
            source = next
            links.append(statement.int64(at: 1), at: statement.int64(at: 2))
        }
        flush()
    }

    func keyValues(of entity: EntityPlan, rows: [Int64]) throws(StoreError) -> [(Int64, [StoredValue])] {
        let columns = ([entity.rowID] + entity.spec.keyAttributes.map { quote($0.name) }).joined(separator: ", ")
        var result: [(Int64, [StoredValue])] = []
        try SQLiteConnection.forEachIDList(rows) { (ids) throws(StoreError) in
            let found = try connection.rows(
                "SELECT \(columns) FROM \(entity.table) WHERE \(entity.rowID) IN (SELECT value FROM json_each(?))", [ids])
            for values in found {
                guard case .integer(let row) = values[0] else { continue }
                result.append((row, Array(values.dropFirst())))
            }
        }
        return result
    }

    /// For `User` with a filter, a page after the key 42 is
    ///
    /// ```sql
    /// SELECT r."id", r."id" FROM "User" r
    /// WHERE (r."score" > ?) AND r."_stub" = 0 AND (r."id") > (?)
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
            var compiler = SQLiteFilterCompiler(plan: plan)
            conditions.append(try compiler.compile(filter, on: entity, alias: "r"))
            parameters += compiler.parameters
        }
        if !keys.isEmpty {
            let (condition, list) = Self.keyCondition(entity, keys: keys)
            conditions.append(condition)
            parameters.append(list)
        }
        if !spec.isOwned { conditions.append("r.\"_stub\" = 0") }
        let orderColumns = (spec.isOwned ? [spec.rowIDColumn] : spec.primaryKey).map { "r.\(quote($0))" }
        if key != nil {
            conditions.append("(\(orderColumns.joined(separator: ", "))) > (\(orderColumns.map { _ in "?" }.joined(separator: ", ")))")
        }
        var sql = "SELECT r.\(entity.rowID), \(orderColumns.joined(separator: ", ")) FROM \(entity.table) r"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY \(orderColumns.joined(separator: ", ")) LIMIT \(limit)"
        let rows = try connection.rows(sql, parameters + (key ?? []))
        let ids = rows.compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { return id }
            return nil
        }
        return KeyOrderPages.Page(rows: ids, lastKey: rows.last.map { Array($0.dropFirst()) })
    }
}
