/// Reads stored rows back as JSON-shaped records (SPEC 4.2): attributes in their JSON form,
/// relationships as primary keys in link order, owned targets nested.
struct RecordReader {
    let store: Store
    var connection: SQLiteConnection { store.connection }
    var plan: ImportPlan { store.plan }

    /// Options of one read.
    struct Selection {
        /// Primary keys to narrow to; every row when `nil`.
        var ids: [[StoredValue]]?
        var filter: FilterExpression?
        var order: [(field: String, descending: Bool)] = []
        var limit: Int?
        var offset: Int?
        var fields: [String]?
        var meta = false
        /// Leave out stub rows (the Swift API reads records, and a stub is only a key).
        var excludesStubs = false
    }

    /// The row ids matching `selection`, in order.
    func rowIDs(_ entity: EntityPlan, _ selection: Selection) throws -> [Int64] {
        let (sql, parameters) = try rowIDQuery(entity, selection)
        return try connection.rows(sql, parameters).compactMap {
            if case .integer(let id) = $0[0] { return id }
            return nil
        }
    }

    /// How many rows match `selection` (within its limit and offset).
    func count(_ entity: EntityPlan, _ selection: Selection) throws -> Int {
        let (sql, parameters) = try rowIDQuery(entity, selection)
        return Int(try connection.rows("SELECT count(*) FROM (\(sql))", parameters).first?.first?.integer ?? 0)
    }

    /// A row's attribute values in declaration order, and its stub mark.
    struct StoredRow {
        let values: [StoredValue]
        let isStub: Bool
    }

    /// The attribute values and stub mark of those of `rows` that exist, by row: one statement
    /// per 500 rows (row by row for an entity too wide to read its row id beside its columns).
    func storedRows(_ entity: EntityPlan, rows: [Int64]) throws -> [Int64: StoredRow] {
        let spec = entity.spec
        let columns = [entity.rowID] + spec.attributes.map { quote($0.name) } + [spec.isOwned ? "0" : "\"_stub\""]
        var result: [Int64: StoredRow] = [:]
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
                result[statement.int64(at: 0)] = StoredRow(values: values, isStub: statement.int64(at: spec.attributes.count + 1) != 0)
            }
        }
        return result
    }

    /// The attribute values and stub mark of `row`, which something links to.
    /// - Throws: ``StoreError`` (`corrupt`) when the row does not exist.
    func storedRow(_ entity: EntityPlan, row: Int64) throws -> StoredRow {
        let spec = entity.spec
        let columns = spec.attributes.map { quote($0.name) } + [spec.isOwned ? "0" : "\"_stub\""]
        let statement = try connection.statement(
            "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE \(entity.rowID) = ?")
        statement.bind(row, at: 1)
        defer { statement.reset() }
        guard try statement.step() else {
            throw StoreError(.corrupt, "row \(row) of \(spec.name) is linked to but does not exist")
        }
        let values = spec.attributes.indices.map { statement.value(at: $0) }
        return StoredRow(values: values, isStub: statement.int64(at: spec.attributes.count) != 0)
    }

    /// The row ids matching `selection`, in order, as a query a later stage hands back to the
    /// store (a deletion marks them).
    func compiledQuery(_ entity: EntityPlan, _ selection: Selection) throws -> CompiledQuery {
        let (sql, parameters) = try rowIDQuery(entity, selection)
        return CompiledQuery(text: sql, parameters: parameters)
    }

    /// The `SELECT` of the row ids matching `selection`, in order, and its parameters.
    private func rowIDQuery(_ entity: EntityPlan, _ selection: Selection) throws -> (sql: String, parameters: [StoredValue]) {
        var compiler = FilterCompiler(plan: plan)
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
        // A field sorted by a second time changes nothing (its ties are already equal): each
        // is kept once, so ORDER BY stays within SQLite's 2000 terms however often it is named.
        // Decimals sort by value; the key that breaks ties sorts by its stored text.
        var order: [String] = []
        var ordered: Set<String> = []
        for (field, descending) in selection.order where ordered.insert(field).inserted {
            order.append(Self.sortKey(field, of: entity, plan: plan) + (descending ? " DESC" : ""))
        }
        for field in entity.spec.isOwned ? [entity.spec.rowIDColumn] : entity.spec.primaryKey where ordered.insert(field).inserted {
            order.append("r.\(quote(field))")
        }
        sql += " ORDER BY " + order.joined(separator: ", ")
        if selection.limit != nil || selection.offset != nil {
            sql += " LIMIT \(selection.limit ?? -1) OFFSET \(selection.offset ?? 0)"
        }
        return (sql, parameters)
    }

    /// What a row of `entity` (alias `r`) sorts by for `field`: the attribute's column, or for
    /// a path through to-one relationships held in the rows (`address.city`), the attribute
    /// of the row they reach, read by a subquery per relationship (NULL where a link is
    /// missing). Decimals sort by value.
    static func sortKey(_ field: String, of entity: EntityPlan, plan: ImportPlan) -> String {
        let segments = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        var alias = "r"
        var opened: [(table: String, alias: String, link: String, outer: String)] = []
        for (depth, segment) in segments.dropLast().enumerated() {
            guard let relationship = current.relationships.first(where: { $0.spec.name == segment }),
                let column = relationship.columnName
            else { break }
            let target = relationship.targetPlan
            let inner = "o\(depth + 1)"
            opened.append((target.table, inner, "\(inner).\(target.rowID)", "\(alias).\(quote(column))"))
            current = target
            alias = inner
        }
        let last = segments.last ?? field
        let value = current.spec.attribute(named: last).map { FilterCompiler.compared("\(alias).\(quote(last))", $0) }
            ?? "\(alias).\(quote(last))"
        return opened.reversed().reduce(value) { inner, step in
            "(SELECT \(inner) FROM \(step.table) \(step.alias) WHERE \(step.link) = \(step.outer))"
        }
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

    /// A stored value in its JSON form for `attribute`.
    static func jsonValue(_ value: StoredValue, of attribute: AttributeSpec) -> RecordValue {
        if case .null = value { return .null }
        switch (attribute.type, value) {
        case (.scalar(.bool), .integer(let v)): return .bool(v != 0)
        case (.scalar(.date), .real(let s)): return .string(DateCoding.format(s, format: .iso8601))
        case (.scalar(.date), .integer(let s)): return .string(DateCoding.format(Double(s), format: .iso8601))
        case (.scalar(.json), .text(let text)): return RecordValue(jsonText: text)
        case (.array(let element), .text(let text)):
            guard case .array(let items) = RecordValue(jsonText: text) else { return .string(text) }
            return .array(items.map { element == .date ? Self.isoDate($0) : $0 })
        case (_, .integer(let v)): return .int(v)
        case (_, .real(let v)): return .double(v)
        case (_, .text(let s)): return .string(s)
        case (_, .null): return .null
        }
    }

    private static func isoDate(_ value: RecordValue) -> RecordValue {
        switch value {
        case .number(let text): return Double(text).map { .string(DateCoding.format($0, format: .iso8601)) } ?? value
        case .int(let v): return .string(DateCoding.format(Double(v), format: .iso8601))
        case .double(let v): return .string(DateCoding.format(v, format: .iso8601))
        default: return value
        }
    }
}

extension Store {
    /// A reader of this store's records.
    var reader: RecordReader { RecordReader(store: self) }
}
