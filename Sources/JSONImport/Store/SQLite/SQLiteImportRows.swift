/// The importer's row path on SQLite: one prepared statement per kind of read or write, per
/// entity and relationship, prepared on first use and kept on the plan for the store's life,
/// so the import loop never looks statements up by their text. Rows are read in place:
/// stored values are compared with the record's without being copied out.
final class SQLiteImportRows: ImportRows {
    private let connection: SQLiteConnection

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    // MARK: Rows

    func existing(_ entity: EntityPlan, key: [Value], values: inout [Value?]) throws(StoreError) -> ExistingRow? {
        let statement = try prepared(statements(entity).select)
        for (i, value) in key.enumerated() { statement.bind(value, at: Int32(i + 1)) }
        return try readExisting(statement, entity, &values)
    }

    func existing(_ entity: EntityPlan, row: Int64, values: inout [Value?]) throws(StoreError) -> ExistingRow? {
        let statement = try prepared(statements(entity).selectByRow)
        statement.bind(row, at: 1)
        return try readExisting(statement, entity, &values)
    }

    private func readExisting(_ statement: SQLiteStatement, _ entity: EntityPlan, _ values: inout [Value?]) throws(StoreError) -> ExistingRow? {
        guard try statement.step() else { return nil }
        let attributeCount = entity.attributes.count
        var isChanged = false
        for i in values.indices {
            guard let value = values[i], !statement.holds(value, at: 1 + i) else { continue }
            let type = entity.attributes[i].spec.type
            if type == .decimal || type == .array(.decimal),
                let kept = statement.decimalText(equalTo: value, at: 1 + i, isArray: type == .array(.decimal))
            {
                values[i] = .text(kept)
            } else {
                isChanged = true
            }
        }
        let columns: [Int64?] = (0..<entity.selfColumns.count).map { j in
            statement.isNull(at: 1 + attributeCount + j) ? nil : statement.int64(at: 1 + attributeCount + j)
        }
        let existing = ExistingRow(
            row: statement.int64(at: 0), columns: columns, isChanged: isChanged,
            isStub: statement.int64(at: 1 + attributeCount + columns.count) != 0)
        statement.reset()
        return existing
    }

    func storedValues(_ entity: EntityPlan, row: Int64) throws(StoreError) -> [StoredValue] {
        let statement = try prepared(statements(entity).selectByRow)
        statement.bind(row, at: 1)
        guard try statement.step() else { return [] }
        let values = (1...(entity.attributes.count + entity.selfColumns.count)).map { statement.value(at: $0) }
        statement.reset()
        return values
    }

    func rowID(_ entity: EntityPlan, key: [Value]) throws(StoreError) -> Int64? {
        let statement = try prepared(statements(entity).lookup)
        for (i, value) in key.enumerated() { statement.bind(value, at: Int32(i + 1)) }
        return try firstInteger(statement)
    }

    func insert(
        _ entity: EntityPlan, values: [Value?], columns: [Int64?]?, isStub: Bool, now: Double, ifAbsent: Bool
    ) throws(StoreError) -> Int64? {
        let table = statements(entity)
        let statement = try prepared(ifAbsent ? table.insertIfAbsent : table.insert)
        var index: Int32 = 1
        for (i, attribute) in entity.attributes.enumerated() {
            statement.bind(values[i] ?? attribute.defaultValue, at: index)
            index += 1
        }
        for j in entity.selfColumns.indices {
            if let column = columns?[j] { statement.bind(column, at: index) } else { statement.bindNull(at: index) }
            index += 1
        }
        if entity.spec.hasTimestamps {
            for _ in 0..<3 {
                statement.bind(now, at: index)
                index += 1
            }
        }
        if !entity.spec.isOwned { statement.bind(Int64(isStub ? 1 : 0), at: index) }
        while try statement.step() {}
        if ifAbsent && connection.changes == 0 { return nil }
        return connection.lastInsertRowID
    }

    func update(_ entity: EntityPlan, row: Int64, values: [Value?], columns: [Int64?], setting shape: [Bool]) throws(StoreError) {
        let statement = try prepared(statements(entity).update(setting: shape))
        var index: Int32 = 1
        for (i, value) in values.enumerated() where shape[i] {
            statement.bind(value!, at: index)
            index += 1
        }
        for (j, column) in columns.enumerated() where shape[values.count + j] {
            if let column { statement.bind(column, at: index) } else { statement.bindNull(at: index) }
            index += 1
        }
        statement.bind(row, at: index)
        while try statement.step() {}
    }

    func holder(_ entity: EntityPlan, slot: Int, value: Value) throws(StoreError) -> Int64? {
        let statement = try prepared(statements(entity).holder(of: slot))
        statement.bind(value, at: 1)
        return try firstInteger(statement)
    }

    func setAttribute(_ entity: EntityPlan, slot: Int, of row: Int64, to value: Value) throws(StoreError) {
        let statement = try prepared(statements(entity).setter(of: slot))
        statement.bind(value, at: 1)
        statement.bind(row, at: 2)
        while try statement.step() {}
    }

    func isEmpty(_ entity: EntityPlan) throws(StoreError) -> Bool {
        try connection.isEmpty(table: entity.table)
    }

    var changeCount: Int { connection.totalChanges }

    // MARK: Links

    func linkedRows(_ relationship: RelationshipPlan, of row: Int64) throws(StoreError) -> [Int64] {
        let links = statements(relationship)
        let statement = try prepared(links.current)
        statement.bind(row, at: 1)
        guard links.currentHasPositions else {
            var rows: [Int64] = []
            while try statement.step() { rows.append(statement.int64(at: 0)) }
            return rows
        }
        var positioned = PositionedLinks()
        while try statement.step() { positioned.append(statement.int64(at: 0), at: statement.int64(at: 1)) }
        return positioned.inLinkOrder
    }

    func releaseTarget(_ relationship: RelationshipPlan, _ target: Int64, except row: Int64?) throws(StoreError) -> [Int64] {
        let statement = try prepared(statements(relationship).steal)
        statement.bind(target, at: 1)
        if let row { statement.bind(row, at: 2) } else { statement.bindNull(at: 2) }
        var others: [Int64] = []
        while try statement.step() { others.append(statement.int64(at: 0)) }
        return others
    }

    func linkingRow(_ relationship: RelationshipPlan, ofTarget target: Int64) throws(StoreError) -> Int64? {
        let statement = try prepared(statements(relationship).readOther)
        statement.bind(target, at: 1)
        return try firstInteger(statement)
    }

    func setLinkingRow(_ relationship: RelationshipPlan, ofTarget target: Int64, to row: Int64?) throws(StoreError) {
        let links = statements(relationship)
        if let row {
            try run(links.setOther, row, target)
        } else {
            try run(links.clearOther, target)
        }
    }

    func nextPosition(_ relationship: RelationshipPlan, source: Int64) throws(StoreError) -> Int64 {
        let statement = try prepared(statements(relationship).nextPosition)
        statement.bind(source, at: 1)
        return try firstInteger(statement) ?? 0
    }

    func insertLink(_ relationship: RelationshipPlan, source: Int64, target: Int64, position: Int64) throws(StoreError) {
        try run(statements(relationship).insertLink, source, target, position)
    }

    func deleteLinks(_ relationship: RelationshipPlan, source: Int64) throws(StoreError) {
        try run(statements(relationship).deleteLinksOfSource, source)
    }

    func deleteLink(_ relationship: RelationshipPlan, source: Int64, target: Int64) throws(StoreError) {
        try run(statements(relationship).deleteLink, source, target)
    }

    // MARK: Batches

    /// Reads are one statement each, answered from SQLite's page cache, and writes go to SQLite
    /// as they come: nothing to read ahead or hand over.
    var readsAhead: Bool { false }

    func readsAhead(keysOf entity: EntityPlan) -> Bool { false }

    func beginBatch(_ batch: BatchKeys, upcoming: () -> BatchKeys?) throws(StoreError) {}

    func readAhead(_ entity: EntityPlan, rows: [Int64]) throws(StoreError) {}

    func readAhead(lists relationship: RelationshipPlan, of sources: [Int64]) throws(StoreError) {}

    // MARK: Link table indexes

    func isEmpty(linkTable table: String) throws(StoreError) -> Bool {
        try connection.isEmpty(table: quote(table))
    }

    func setAsideTargetIndex(ofLinkTable table: String) throws(StoreError) -> Bool {
        do {
            try connection.execute("DROP INDEX IF EXISTS \(StorageSchema.targetIndex(ofLinkTable: table).name)")
            return true
        } catch where !connection.isInTransaction {
            throw error
        } catch {
            return false
        }
    }

    func restoreTargetIndex(ofLinkTable table: String) throws(StoreError) {
        let index = StorageSchema.targetIndex(ofLinkTable: table, ifNotExists: true)
        try connection.withSmallPageCache { () throws(StoreError) in try connection.execute(index.create) }
    }

    // MARK: Statements

    private func statements(_ entity: EntityPlan) -> EntityStatements {
        if let known = entity.storeStatements { return unsafeDowncast(known, to: EntityStatements.self) }
        let made = EntityStatements(entity)
        entity.storeStatements = made
        return made
    }

    private func statements(_ relationship: RelationshipPlan) -> LinkStatements {
        if let known = relationship.storeStatements { return unsafeDowncast(known, to: LinkStatements.self) }
        let made = LinkStatements(relationship)
        relationship.storeStatements = made
        return made
    }

    /// The prepared statement of `cached`, prepared on first use, reset for a new run.
    private func prepared(_ cached: CachedSQL) throws(StoreError) -> SQLiteStatement {
        if let statement = cached.statement {
            statement.reset()
            return statement
        }
        let statement = try connection.prepare(cached.text)
        cached.statement = statement
        return statement
    }

    /// Runs a cached statement with integer parameters.
    private func run(_ cached: CachedSQL, _ a: Int64, _ b: Int64? = nil, _ c: Int64? = nil) throws(StoreError) {
        let statement = try prepared(cached)
        statement.bind(a, at: 1)
        if let b { statement.bind(b, at: 2) }
        if let c { statement.bind(c, at: 3) }
        while try statement.step() {}
    }

    /// The first column of the first row (`nil` when there is no row or it is NULL).
    private func firstInteger(_ statement: SQLiteStatement) throws(StoreError) -> Int64? {
        guard try statement.step() else { return nil }
        let result = statement.isNull(at: 0) ? nil : statement.int64(at: 0)
        statement.reset()
        return result
    }
}

/// SQL text and, once used, the statement prepared from it.
final class CachedSQL {
    let text: String
    @exclusivity(unchecked) var statement: SQLiteStatement?

    init(_ text: String) { self.text = text }
}
