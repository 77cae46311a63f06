import Foundation

/// The importer's row path on PostgreSQL, set-based: reads come from a cache
/// (``PostgresRowCache``) that ``beginBatch(_:upcoming:)`` fills for a whole batch of records
/// in a few statements, and writes go to the cache, to be handed to the server in sets
/// (``handOver()``: binary `COPY` and one `UPDATE … FROM` per table). Round trips per batch
/// do not grow with its size.
///
/// What the cache does not know is read from the server one statement at a time and cached:
/// the server lacks only writes to rows the cache holds, so such a read needs no hand-over
/// first. Writes that give a `unique` attribute a value are checked against the values the
/// client knows, as the index would check them (see ``checksUniqueValues(_:)``); past what it
/// reads of a table, they go to the server at once instead, each in a savepoint of its own, so
/// that the index's refusal reaches the importer at the write, as in SQLite.
///
/// Row ids of entities without a single `int` key (`_id`) are numbered here, from the
/// largest the table holds when a write transaction first needs one: writers hold the store's
/// lock for their whole transaction, so no other writer numbers rows meanwhile.
final class PostgresImportRows: ImportRows {
    /// Unowned: the engine owns its row path.
    unowned let engine: PostgresEngine
    var connection: PostgresConnection { engine.connection }
    let cache = PostgresRowCache()
    /// Per entity (by index): the next `_id` to hand out, in the transaction it was read in.
    private var nextIDs: [Int: (transaction: Int, id: Int64)] = [:]
    /// Per entity (by index) whose table held no row when the transaction (by number) first
    /// looked a key up in it: the keys of the rows it inserted that the cache no longer holds
    /// (it was emptied since, past its budget). A key neither cached nor among them has no row,
    /// without asking the server: the transaction holds the store's lock, so no one else
    /// writes (an import's first sync, into empty tables, reads nothing).
    var insertedKeys: [Int: (transaction: Int, keys: Set<[StoredValue]>)] = [:]
    /// Per entity (by index): the transaction that looked whether its table is empty.
    var probedEmptiness: [Int: Int] = [:]
    /// Per entity (by index) with `unique` attributes: their values known on the client, in the
    /// transaction (by number) that read them, or `nil` when the table held too many (see
    /// ``uniqueIndex(_:)``).
    var uniqueIndexes: [Int: (transaction: Int, index: PostgresUniqueIndex?)] = [:]
    /// Rows holding a unique value past which a table's values are not read to be known on the
    /// client (see ``uniqueIndex(_:)``): its rows are written at once instead, each checked by
    /// the server's index (the tests set 0 for that).
    var uniqueIndexLimit = 1 << 20
    /// Per entity (by index): the rows its staging table holds, live or deleted, in the
    /// transaction (by number) that staged them (see ``stageEmptying(_:)``).
    var stagedRows: [Int: (transaction: Int, count: Int)] = [:]
    /// Per entity (by index): rows a hand-over updated with `_updated_at` taken from their
    /// stamp (see ``PostgresRowCache/stamp(_:rows:at:)``), and that time: the bookkeeping's
    /// `UPDATE` of `_updated_at` to that time leaves them out. Of one time only: rows stamped at
    /// another (a later import in the same transaction) start the entity's record again.
    /// Forgotten when the transaction ends or a scope's work is undone, after which the
    /// `UPDATE` covers every updated row again.
    var stampsWritten: [Int: (time: Double, rows: RowIDSet)] = [:]
    /// Rows and links changed, counted as the importer changes them.
    var changeCount = 0
    /// `changeCount` when writes last went to the server in the background.
    var changesHandedOver = 0
    /// Rows and links written past which a batch's writes go to the server (the tests set a
    /// small one). Each hand-over is a `COPY` per table, whose fixed cost on the server
    /// (about 1 ms for a thousand rows, in slots it makes) a larger one spreads; a smaller one
    /// leaves less for the end of the import, and shares fewer of the cache's arrays with the
    /// hand-over in flight, which a record changing them then copies.
    var handOverSize = 20_000
    /// Rows and lists the cache holds past which a batch's writes are handed over and the
    /// cache emptied (the tests set a small one).
    var cacheBudget = 1_000_000
    /// Statements and `COPY`s sent, each one round trip (a pipeline counts once): what the
    /// tests of the set-based path count.
    var roundTrips = 0
    /// The plan of the upcoming batch's reads, by the batch's number, and what its first
    /// round trip visited (see ``firstReads(of:)``).
    var upcomingPlan: (number: Int, plan: BatchPlan, firstRead: FirstRead)?
    /// Round trips of reads that ran on the worker thread, for a batch yet to begin (see
    /// ``beginBatch(_:upcoming:)``).
    var backgroundReads = 0
    /// Reads the worker thread planned and ran from what those reads decoded (see
    /// ``Load/followUp``).
    var followUpReads = 0
    /// Batches begun while a hand-over ran on the worker thread, not waited for.
    var batchesBegunDuringHandOver = 0
    /// Hand-overs put off to a later batch because the one before was still running.
    var handOversPostponed = 0
    /// Holds the next background hand-over's worker until the importer puts off a hand-over
    /// or waits for it (tests only: a worker slower than the importer, every time).
    var handOverGate: DispatchSemaphore?
    /// A deletion removed rows since the cache was last emptied: it is forgotten before the
    /// next scope (the next import or deletion in the transaction) begins, see
    /// ``forgetStaleCache()``. The import that ran the deletion goes on with it: what it still
    /// asks of the cache (which rows are stubs) no deletion changes.
    var cacheIsStale = false
    /// Per column read by a set of ids (see ``idRead(_:from:where:in:tenantOf:)``): the
    /// widest gap between the ids of a range, where not ``widestGap``.
    var readGaps: [String: Int64] = [:]
    /// Keys of records and references the read-ahead planned for, each once per batch (see
    /// ``readsAhead(keysOf:)``): what the tests of the read-ahead count.
    var keysPlanned = 0
    /// The hand-over running on a worker thread, if any (see ``beginBatch(_:upcoming:)``).
    var background: BackgroundHandOver?
    /// Per entity (by index) whose key is the row id, in this transaction: the rows its
    /// references alone named that the read-ahead read one by one, and past how many it reads
    /// the ids of all its rows next (see ``serverIDsLoads(_:)``).
    var referenceReads: [Int: (count: Int, next: Int)] = [:]
    /// Ids read at most by one read of every row's id (``serverIDsLoad(_:limit:)``).
    static let serverIDsLimit = 1 << 20
    /// Reads of every row's id that the cache took (``serverIDsLoad(_:limit:)``): what the tests
    /// count.
    var serverIDsTaken = 0
    /// The tenants of distributed entities the transaction has named (see
    /// ``PostgresEngine/tenantFilter(_:alias:parameter:)``).
    var tenants: Set<StoredValue> = []

    init(engine: PostgresEngine) {
        self.engine = engine
    }

    /// The transaction ended: what the cache holds is forgotten.
    func reset() {
        try? finishBackgroundHandOver()
        cache.removeAll()
        stampsWritten.removeAll()
        uniqueIndexes.removeAll()
        cacheIsStale = false
        referenceReads.removeAll()
        tenants.removeAll()
        upcomingPlan = nil
    }

    // MARK: Rows

    func existing(_ entity: EntityPlan, key: [Value], values: inout [Value?]) throws(StoreError) -> ExistingRow? {
        if entity.spec.isOwned, case .integer(let row)? = key.first { return try existing(entity, row: row, values: &values) }
        guard let (rows, id) = try cachedRow(entity, key: key) else { return nil }
        return compare(rows, id, entity, &values)
    }

    func existing(_ entity: EntityPlan, row: Int64, values: inout [Value?]) throws(StoreError) -> ExistingRow? {
        let rows = cache.rows(entity)
        try load(rows, id: row)
        return rows.holds(row) ? compare(rows, row, entity, &values) : nil
    }

    /// The cached row with `key`, read from the server when the cache does not know the key.
    private func cachedRow(_ entity: EntityPlan, key: [Value]) throws(StoreError) -> (PostgresRowCache.EntityRows, Int64)? {
        let rows = cache.rows(entity)
        let stored: [StoredValue]
        if rows.keyIsRowID, case .integer(let id) = key[0] {
            // A key that is the row id, found without making the cache's form of it.
            if rows.holds(id) { return (rows, id) }
            if rows.absentIDs.contains(id) || rows.serverHolds(id) == false { return nil }
            // Into a table that was empty, whose rows the cache all holds: a row of a fresh import.
            if keysInserted(into: entity)?.isEmpty == true { return nil }
            stored = cacheKey(key, entity)
        } else {
            stored = cacheKey(key, entity)
            if let id = rows.row(forKey: stored) { return (rows, id) }
            if rows.isAbsent(stored) { return nil }
        }
        if namesNoRow(stored, of: entity) { return nil }
        try load(rows, keys: [stored])
        return rows.row(forKey: stored).map { (rows, $0) }
    }

    /// The cached row `id`, compared with `values` as the SQLite row path compares:
    /// a value that differs marks it changed; a decimal (or `[decimal]`) spelled differently
    /// but equal in value takes the stored text; a date equal to the microsecond (what the
    /// column keeps) is equal.
    ///
    /// The row is read where the cache keeps it, not copied: a copy retains and releases its
    /// two arrays, for every row a re-import reads.
    private func compare(_ rows: PostgresRowCache.EntityRows, _ id: Int64, _ entity: EntityPlan, _ values: inout [Value?]) -> ExistingRow {
        let slot = rows.rows.index(forKey: id)!
        var isChanged = false
        rows.rows[at: slot].values.withUnsafeBufferPointer { held in
            for i in values.indices {
                guard let value = values[i] else { continue }
                let type = entity.types[i]
                if Self.holds(held[i], value, type: type) { continue }
                if type == .decimal || type == .array(.decimal), case .text(var text) = held[i],
                    value.withUTF8({ bytes in text.withUTF8 { DecimalOrder.areEqual(bytes, $0, isArray: type != .decimal) } }) == true
                {
                    values[i] = .text(text)
                } else {
                    isChanged = true
                }
            }
        }
        let cached = rows.rows[at: slot]
        return ExistingRow(row: id, columns: cached.columns, isChanged: isChanged, isStub: cached.isStub)
    }

    /// Whether the stored value is `value`; dates to the microsecond.
    private static func holds(_ stored: StoredValue, _ value: Value, type: AttributeType) -> Bool {
        if type == .date, case .real(let a) = stored, case .real(let b) = value {
            return PostgresTimestamp.microseconds(fromSeconds: a) == PostgresTimestamp.microseconds(fromSeconds: b)
        }
        return value.matches(stored)
    }

    func storedValues(_ entity: EntityPlan, row: Int64) throws(StoreError) -> [StoredValue] {
        let rows = cache.rows(entity)
        try load(rows, id: row)
        guard let cached = rows.rows[row] else { return [] }
        return cached.values + cached.columns.map { $0.map(StoredValue.integer) ?? .null }
    }

    func rowID(_ entity: EntityPlan, key: [Value]) throws(StoreError) -> Int64? {
        // A row the server's ids show is not read (a reference needs the id only); a key they
        // lack, ``cachedRow(_:key:)`` answers for without reading.
        let rows = cache.rows(entity)
        if rows.keyIsRowID, case .integer(let id) = key[0], rows.serverHolds(id) == true, !rows.absentIDs.contains(id) {
            return id
        }
        return try cachedRow(entity, key: key)?.1
    }

    func insert(
        _ entity: EntityPlan, values: [Value?], columns: [Int64?]?, isStub: Bool, now: Double, ifAbsent: Bool
    ) throws(StoreError) -> Int64? {
        if ifAbsent, try cachedRow(entity, key: entity.keySlots.map { values[$0]! }) != nil { return nil }
        let rows = cache.rows(entity)
        let id: Int64
        if rows.keyIsRowID, case .integer(let value)? = values[entity.keySlots[0]] { id = value } else { id = try nextID(entity) }
        // Made at its size, each value converted once: this runs for every row a fresh import
        // writes.
        let types = entity.types
        var stored: [StoredValue] = []
        stored.reserveCapacity(types.count)
        for i in types.indices {
            stored.append(Self.asStored((values[i] ?? entity.attributes[i].defaultValue).stored, types[i]))
        }
        var row = PostgresRowCache.Row(
            values: stored, columns: columns ?? Array(repeating: nil, count: entity.selfColumns.count),
            isStub: isStub, isStored: false, isDirty: true, stampedAt: now)
        if let slot = entity.tenantSlot { tenants.insert(row.values[slot]) }
        if checksUniqueValues(entity) {
            if let index = try uniqueIndex(entity) {
                try checkUnique(entity, row: id, row.values, was: nil, in: index)
            } else {
                _ = try writeAtOnce(entity) { () throws(StoreError) in
                    try connection.run(insertSQL(entity), insertValues(entity, id: id, row))
                }
                row.isStored = true
                row.isDirty = false
            }
        }
        cache.setRow(rows, id, consume row)
        changeCount += 1
        return id
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
        try change(entity, row) { (cached) throws(StoreError) in
            for (i, value) in values.enumerated() where shape[i] {
                cached.values[i] = Self.asStored(value!.stored, entity.types[i])
            }
            for (j, column) in columns.enumerated() where shape[values.count + j] { cached.columns[j] = column }
            cached.isStub = false
        } writingAtOnce: { () throws(StoreError) in
            try updateNow(entity, row: row, values: values, columns: columns, setting: shape)
        }
    }

    /// Changes the cached row `row` of `entity` with `body`, to be handed over later, or, for
    /// an entity written at once, with the write `now` as well; counts a change when the row
    /// exists.
    func change(
        _ entity: EntityPlan, _ row: Int64, _ body: (inout PostgresRowCache.Row) throws(StoreError) -> Void,
        writingAtOnce now: () throws(StoreError) -> Int
    ) throws(StoreError) {
        let rows = cache.rows(entity)
        try load(rows, id: row)
        if checksUniqueValues(entity), let index = try uniqueIndex(entity) {
            guard var cached = rows.rows[row] else { return }
            let old = cached.values
            try body(&cached)
            try checkUnique(entity, row: row, cached.values, was: old, in: index)
            cached.isDirty = true
            cache.setRow(rows, row, cached)
            changeCount += 1
            return
        }
        if checksUniqueValues(entity) {
            changeCount += try writeAtOnce(entity, now)
            guard var cached = rows.rows[row] else { return }
            try body(&cached)
            cache.setRow(rows, row, cached)
            return
        }
        guard var cached = rows.rows[row] else { return }
        try body(&cached)
        cached.isDirty = true
        cache.setRow(rows, row, cached)
        changeCount += 1
    }

    func holder(_ entity: EntityPlan, slot: Int, value: Value) throws(StoreError) -> Int64? {
        if let index = try uniqueIndex(entity) {
            return try holder(entity, slot: slot, stored: Self.asStored(value.stored, entity.types[slot]), in: index, besides: nil)
        }
        // Rows that give a unique value are written at once: the server's copy is current.
        return try firstInteger(
            "SELECT \(entity.rowID) FROM \(entity.table) WHERE \(quote(entity.spec.attributes[slot].name)) = $1 LIMIT 1",
            [value.stored])
    }

    func setAttribute(_ entity: EntityPlan, slot: Int, of row: Int64, to value: Value) throws(StoreError) {
        try change(entity, row) { (cached) throws(StoreError) in
            cached.values[slot] = Self.asStored(value.stored, entity.types[slot])
        } writingAtOnce: { () throws(StoreError) in
            try connection.run(
                "UPDATE \(entity.table) SET \(quote(entity.spec.attributes[slot].name)) = $1 WHERE \(entity.rowID) = $2",
                [value.stored, .integer(row)])
        }
    }

    // MARK: Statements

    func firstInteger(_ sql: String, _ parameters: [StoredValue]) throws(StoreError) -> Int64? {
        try finishBackgroundHandOver()
        roundTrips += 1
        guard case .integer(let value)? = try connection.rows(sql, parameters).first?.first else { return nil }
        return value
    }
}
