/// The importer's row path on PostgreSQL: each read and write the importer asks for is one
/// prepared statement (the connection prepares each text once and keeps it).
///
/// Row ids of entities without a single `int` key (`_id`) are numbered here, from the
/// largest the table holds when a write transaction first needs one: writers hold the store's
/// lock for their whole transaction, so no other writer numbers rows meanwhile.
final class PostgresImportRows: ImportRows {
    /// Unowned: the engine owns its row path.
    private unowned let engine: PostgresEngine
    private var connection: PostgresConnection { engine.connection }
    /// Per entity (by index): the next `_id` to hand out, in the transaction it was read in.
    private var nextIDs: [Int: (transaction: Int, id: Int64)] = [:]
    private(set) var changeCount = 0

    init(engine: PostgresEngine) {
        self.engine = engine
    }

    // MARK: Rows

    func existing(_ entity: EntityPlan, key: [Value], values: inout [Value?]) throws(StoreError) -> ExistingRow? {
        let condition = entity.spec.isOwned
            ? "\(entity.rowID) = $1"
            : entity.spec.primaryKey.enumerated().map { "\(quote($1)) = $\($0 + 1)" }.joined(separator: " AND ")
        let rows = try connection.rows("SELECT \(selectColumns(entity)) FROM \(entity.table) WHERE \(condition)", key.map(\.stored))
        return rows.first.map { compare($0, entity, &values) }
    }

    func existing(_ entity: EntityPlan, row: Int64, values: inout [Value?]) throws(StoreError) -> ExistingRow? {
        let rows = try connection.rows(
            "SELECT \(selectColumns(entity)) FROM \(entity.table) WHERE \(entity.rowID) = $1", [.integer(row)])
        return rows.first.map { compare($0, entity, &values) }
    }

    /// Row id, attributes, link columns and stub mark.
    private func selectColumns(_ entity: EntityPlan) -> String {
        ([entity.rowID] + entity.spec.attributes.map { quote($0.name) }
            + entity.selfColumns.map { quote(entity.relationships[$0].columnName!) }
            + [entity.spec.isOwned ? "false" : "\"_stub\""])
            .joined(separator: ", ")
    }

    /// The row read by `selectColumns`, compared with `values` as the SQLite row path compares:
    /// a value that differs marks it changed; a decimal spelled differently but equal in value
    /// takes the stored text; a date equal to the microsecond (what the column keeps) is equal.
    private func compare(_ stored: [StoredValue], _ entity: EntityPlan, _ values: inout [Value?]) -> ExistingRow {
        var isChanged = false
        for i in values.indices {
            guard let value = values[i] else { continue }
            let held = stored[1 + i]
            if Self.holds(held, value, type: entity.attributes[i].spec.type) { continue }
            if entity.attributes[i].spec.type == .decimal, case .text(var text) = held,
                value.withUTF8({ bytes in text.withUTF8 { DecimalOrder.compare(bytes, $0) == 0 } }) == true
            {
                values[i] = .text(text)
            } else {
                isChanged = true
            }
        }
        let first = 1 + entity.attributes.count
        let columns: [Int64?] = (0..<entity.selfColumns.count).map { j in
            if case .integer(let row) = stored[first + j] { return row }
            return nil
        }
        guard case .integer(let row) = stored[0] else { preconditionFailure("a row id that is not an integer") }
        return ExistingRow(
            row: row, columns: columns, isChanged: isChanged, isStub: stored[first + columns.count] == .integer(1))
    }

    /// Whether the stored value is `value`; dates to the microsecond.
    private static func holds(_ stored: StoredValue, _ value: Value, type: AttributeType) -> Bool {
        if type == .date, case .real(let a) = stored, case .real(let b) = value {
            return PostgresTimestamp.microseconds(fromSeconds: a) == PostgresTimestamp.microseconds(fromSeconds: b)
        }
        return value.matches(stored)
    }

    func storedValues(_ entity: EntityPlan, row: Int64) throws(StoreError) -> [StoredValue] {
        let rows = try connection.rows(
            "SELECT \(selectColumns(entity)) FROM \(entity.table) WHERE \(entity.rowID) = $1", [.integer(row)])
        guard let stored = rows.first else { return [] }
        return Array(stored[1...(entity.attributes.count + entity.selfColumns.count)])
    }

    func rowID(_ entity: EntityPlan, key: [Value]) throws(StoreError) -> Int64? {
        let condition = entity.spec.primaryKey.enumerated().map { "\(quote($1)) = $\($0 + 1)" }.joined(separator: " AND ")
        return try firstInteger("SELECT \(entity.rowID) FROM \(entity.table) WHERE \(condition)", key.map(\.stored))
    }

    func insert(
        _ entity: EntityPlan, values: [Value?], columns: [Int64?]?, isStub: Bool, now: Double, ifAbsent: Bool
    ) throws(StoreError) -> Int64? {
        let spec = entity.spec
        var names = spec.attributes.map { quote($0.name) } + entity.selfColumns.map { quote(entity.relationships[$0].columnName!) }
        var parameters = entity.attributes.enumerated().map { i, attribute in (values[i] ?? attribute.defaultValue).stored }
        parameters += entity.selfColumns.indices.map { j in columns?[j].map(StoredValue.integer) ?? .null }
        if spec.hasTimestamps {
            names += ["\"_created_at\"", "\"_updated_at\"", "\"_seen_at\""]
            parameters += [.real(now), .real(now), .real(now)]
        }
        if !spec.isOwned {
            names.append("\"_stub\"")
            parameters.append(.integer(isStub ? 1 : 0))
        }
        if !entity.keyIsRowID {
            names.insert("\"_id\"", at: 0)
            parameters.insert(.integer(try nextID(entity)), at: 0)
        }
        var sql = "INSERT INTO \(entity.table) (\(names.joined(separator: ", "))) VALUES ("
            + parameters.indices.map { "$\($0 + 1)" }.joined(separator: ", ") + ")"
        if ifAbsent { sql += " ON CONFLICT (\(spec.primaryKey.map(quote).joined(separator: ", "))) DO NOTHING" }
        sql += " RETURNING \(entity.rowID)"
        let inserted = try guarded(entity) { () throws(StoreError) in try firstInteger(sql, parameters) }
        if inserted != nil { changeCount += 1 }
        return inserted
    }

    /// The next `_id` of `entity`: one past the largest the table holds, read once per write
    /// transaction.
    private func nextID(_ entity: EntityPlan) throws(StoreError) -> Int64 {
        let transaction = engine.transactionNumber
        if let next = nextIDs[entity.index], next.transaction == transaction {
            nextIDs[entity.index] = (transaction, next.id + 1)
            return next.id
        }
        let largest = try firstInteger("SELECT max(\(entity.rowID)) FROM \(entity.table)", []) ?? 0
        nextIDs[entity.index] = (transaction, largest + 2)
        return largest + 1
    }

    func update(_ entity: EntityPlan, row: Int64, values: [Value?], columns: [Int64?], setting shape: [Bool]) throws(StoreError) {
        var sets: [String] = []
        var parameters: [StoredValue] = []
        for (i, value) in values.enumerated() where shape[i] {
            parameters.append(value!.stored)
            sets.append("\(quote(entity.spec.attributes[i].name)) = $\(parameters.count)")
        }
        for (j, column) in columns.enumerated() where shape[values.count + j] {
            parameters.append(column.map(StoredValue.integer) ?? .null)
            sets.append("\(quote(entity.relationships[entity.selfColumns[j]].columnName!)) = $\(parameters.count)")
        }
        sets.append(entity.spec.isOwned ? "\(entity.rowID) = \(entity.rowID)" : "\"_stub\" = false")
        parameters.append(.integer(row))
        let sql = "UPDATE \(entity.table) SET \(sets.joined(separator: ", ")) WHERE \(entity.rowID) = $\(parameters.count)"
        changeCount += try guarded(entity) { () throws(StoreError) in try connection.run(sql, parameters) }
    }

    func holder(_ entity: EntityPlan, slot: Int, value: Value) throws(StoreError) -> Int64? {
        try firstInteger(
            "SELECT \(entity.rowID) FROM \(entity.table) WHERE \(quote(entity.spec.attributes[slot].name)) = $1 LIMIT 1",
            [value.stored])
    }

    func setAttribute(_ entity: EntityPlan, slot: Int, of row: Int64, to value: Value) throws(StoreError) {
        changeCount += try guarded(entity) { () throws(StoreError) in
            try connection.run(
                "UPDATE \(entity.table) SET \(quote(entity.spec.attributes[slot].name)) = $1 WHERE \(entity.rowID) = $2",
                [value.stored, .integer(row)])
        }
    }

    /// Runs a write to `entity` that a `unique` index may refuse in a savepoint of its own, so
    /// that the refusal fails the statement and not the transaction, as in SQLite (the importer
    /// then names the row holding the value). Writes to entities without one run as they are.
    private func guarded<T>(_ entity: EntityPlan, _ write: () throws(StoreError) -> T) throws(StoreError) -> T {
        guard entity.spec.attributes.contains(where: \.isUnique) else { return try write() }
        try connection.savepoint("unique_write")
        let result: T
        do {
            result = try write()
        } catch {
            try? connection.rollbackTo("unique_write")
            try? connection.release("unique_write")
            throw error
        }
        try connection.release("unique_write")
        return result
    }

    func isEmpty(_ entity: EntityPlan) throws(StoreError) -> Bool {
        try isEmpty(table: entity.table)
    }

    private func isEmpty(table: String) throws(StoreError) -> Bool {
        try connection.rows("SELECT 1 FROM \(table) LIMIT 1").isEmpty
    }

    // MARK: Links

    func linkedRows(_ relationship: RelationshipPlan, of row: Int64) throws(StoreError) -> [Int64] {
        let target = relationship.targetPlan
        switch relationship.storage {
        case .selfColumn:
            preconditionFailure("links in the row's own column are read with the row")
        case .otherColumn(let column):
            return try integers(
                "SELECT \(target.rowID) FROM \(target.table) WHERE \(quote(column)) = $1 ORDER BY \(target.rowID)", [.integer(row)])
        case .linkTable(let name, true):
            var positioned = PositionedLinks()
            for link in try connection.rows("SELECT \"target\", \"position\" FROM \(quote(name)) WHERE \"source\" = $1", [.integer(row)]) {
                if case .integer(let target) = link[0], case .integer(let position) = link[1] { positioned.append(target, at: position) }
            }
            return positioned.inLinkOrder
        case .linkTable(let name, false):
            return try integers(
                "SELECT \"source\" FROM \(quote(name)) WHERE \"target\" = $1 ORDER BY \"source\"", [.integer(row)])
        }
    }

    func releaseTarget(_ relationship: RelationshipPlan, _ target: Int64, except row: Int64?) throws(StoreError) -> [Int64] {
        guard case .selfColumn(let column, _) = relationship.storage else { return [] }
        let entity = relationship.entity
        let released = try integers(
            "UPDATE \(entity.table) SET \(quote(column)) = NULL WHERE \(quote(column)) = $1 AND \(entity.rowID) IS DISTINCT FROM $2 "
                + "RETURNING \(entity.rowID)",
            [.integer(target), row.map(StoredValue.integer) ?? .null])
        changeCount += released.count
        return released.sorted()
    }

    func linkingRow(_ relationship: RelationshipPlan, ofTarget target: Int64) throws(StoreError) -> Int64? {
        guard case .otherColumn(let column) = relationship.storage else { return nil }
        let table = relationship.targetPlan
        return try firstInteger("SELECT \(quote(column)) FROM \(table.table) WHERE \(table.rowID) = $1", [.integer(target)])
    }

    func setLinkingRow(_ relationship: RelationshipPlan, ofTarget target: Int64, to row: Int64?) throws(StoreError) {
        guard case .otherColumn(let column) = relationship.storage else { return }
        let table = relationship.targetPlan
        changeCount += try connection.run(
            "UPDATE \(table.table) SET \(quote(column)) = $1 WHERE \(table.rowID) = $2",
            [row.map(StoredValue.integer) ?? .null, .integer(target)])
    }

    func nextPosition(_ relationship: RelationshipPlan, source: Int64) throws(StoreError) -> Int64 {
        try firstInteger(
            "SELECT coalesce(max(\"position\") + 1, 0) FROM \(quote(linkTable(relationship))) WHERE \"source\" = $1",
            [.integer(source)]) ?? 0
    }

    func insertLink(_ relationship: RelationshipPlan, source: Int64, target: Int64, position: Int64) throws(StoreError) {
        changeCount += try connection.run(
            "INSERT INTO \(quote(linkTable(relationship))) (\"source\", \"target\", \"position\") VALUES ($1, $2, $3)",
            [.integer(source), .integer(target), .integer(position)])
    }

    func deleteLinks(_ relationship: RelationshipPlan, source: Int64) throws(StoreError) {
        changeCount += try connection.run(
            "DELETE FROM \(quote(linkTable(relationship))) WHERE \"source\" = $1", [.integer(source)])
    }

    func deleteLink(_ relationship: RelationshipPlan, source: Int64, target: Int64) throws(StoreError) {
        changeCount += try connection.run(
            "DELETE FROM \(quote(linkTable(relationship))) WHERE \"source\" = $1 AND \"target\" = $2",
            [.integer(source), .integer(target)])
    }

    private func linkTable(_ relationship: RelationshipPlan) -> String {
        guard case .linkTable(let name, _) = relationship.storage else { preconditionFailure("not a link table") }
        return name
    }

    // MARK: Link table indexes

    func isEmpty(linkTable table: String) throws(StoreError) -> Bool {
        try isEmpty(table: quote(table))
    }

    /// The index stays: PostgreSQL builds no index per statement the way a bulk of SQLite
    /// inserts into a fresh table pays for one.
    func setAsideTargetIndex(ofLinkTable table: String) throws(StoreError) -> Bool { false }

    func restoreTargetIndex(ofLinkTable table: String) throws(StoreError) {}

    // MARK: Statements

    private func firstInteger(_ sql: String, _ parameters: [StoredValue]) throws(StoreError) -> Int64? {
        guard case .integer(let value)? = try connection.rows(sql, parameters).first?.first else { return nil }
        return value
    }

    private func integers(_ sql: String, _ parameters: [StoredValue]) throws(StoreError) -> [Int64] {
        try connection.rows(sql, parameters).compactMap {
            if case .integer(let value) = $0[0] { return value }
            return nil
        }
    }
}
