/// Bookkeeping: `_updated_at` in the rows, `_seen_at` of the rows an import saw in the entity's
/// seen table (`"E__seen"`) or, when it saw them all, in a mark for the whole table.
extension PostgresEngine {
    /// The rows of an entity an import saw, until ``finishSeen(of:at:)``.
    struct PendingSeen {
        /// The transaction (by number) they came in.
        let transaction: Int
        /// The rows, in the chunks they came in.
        var chunks: [[Int64]] = []
        /// How many of them the row cache holds as full rows, which the server holds too.
        var known = 0

        /// Whether stubs may be among them: rows the cache does not hold as full rows.
        var mayHoldStubs: Bool { known < chunks.reduce(0) { $0 + $1.count } }
    }

    var holdsWrites: Bool { true }

    func stampUpdated(of entity: EntityPlan, rows: [Int64], at value: StoredValue) throws(StoreError) {
        guard case .real(let time) = value else { return }
        rowPath.cache.stamp(rowPath.cache.rows(entity), rows: rows, at: time)
    }

    /// `_seen_at` goes to the entity's seen table: the rows an import saw unchanged keep their
    /// own copy as it is. The rows of an entity without distribution wait for
    /// ``finishSeen(of:at:)``.
    func setColumn(_ column: String, of entity: EntityPlan, rows: [Int64], to value: StoredValue) throws(StoreError) {
        try handOverPendingWrites()
        guard !rows.isEmpty else { return }
        if column == Store.Timestamp.seenAt.rawValue {
            guard entity.spec.tenantAttribute == nil else { return try markSeen(entity, rows: rows, at: value) }
            if pendingSeen[entity.index]?.transaction != transactionNumber {
                pendingSeen[entity.index] = PendingSeen(transaction: transactionNumber)
            }
            // The rows the row cache holds as full rows (not stubs): the server holds them too,
            // since a row deleted in the import is no longer among the rows it saw (a deletion
            // leaves the cache behind, see ``PostgresImportRows/cacheIsStale``). The others may
            // be stubs, for a mark, which leaves stubs out: stubs the cache holds, or rows it
            // does not (read again for a `304` page, or let go past its budget).
            let cached = rowPath.cache.rows(entity)
            let known = rows.count(where: { cached.rows.read($0) { !$0.isStub } ?? false })
            pendingSeen[entity.index]!.chunks.append(rows)
            pendingSeen[entity.index]!.known += known
            return
        }
        // Rows whose hand-over wrote the value already (``stampUpdated(of:rows:at:)``) are left
        // as they are: rewriting a row costs a new version of it and of its index entries. Those
        // the row path knows it wrote are not even looked up. After an import of the benchmark's
        // mutated file, that leaves out 4,182 of the 4,596 updated users and all 563 updated
        // addresses, and the `UPDATE`s took 11 ms rather than 18. The updated repos all stay in:
        // only their tag lists changed, and no row hand-over writes `_updated_at` for a change of
        // links alone.
        var rows = rows
        if column == Store.Timestamp.updatedAt.rawValue, case .real(let time) = value,
            let written = rowPath.stampsWritten[entity.index], written.time == time
        {
            rows.removeAll { written.rows.contains($0) }
            guard !rows.isEmpty else { return }
        }
        let tenant = tenantFilter(entity.spec, alias: "r", parameter: 3)
        try connection.run(
            "UPDATE \(entity.table) AS r SET \(quote(column)) = $1 WHERE r.\(entity.rowID) = ANY($2::int8[]) "
                + "AND r.\(quote(column)) IS DISTINCT FROM $1\(tenant.sql)",
            [value, Self.array(rows)] + tenant.parameters)
    }

    /// The rows of `entity` an import saw get `_seen_at` `time`: when they are every row of its
    /// table but those the import wrote itself (whose own `_seen_at` is `time`) and stubs, as in
    /// a sync of a whole data set, one mark in the metadata table says so for the table
    /// (``seenMark(of:alias:)``) instead of a seen row each, and only the stubs it saw (a `304`
    /// page sees the rows its stored records reach) get their seen rows; otherwise each row
    /// gets its seen row. Whether they are every row is asked first by counting, when the row
    /// cache holds some of them as full rows (a re-import's): when the table holds no more full
    /// rows the import did not write than those, they are all of them. It costs a scan of the
    /// table that stops one row past them, and sends no row id (the end of a re-import of the
    /// kit's payload: 0.07 s against 0.27 s). Otherwise it is asked by an anti-join over the table,
    /// which stops at the first row not seen; for owned rows, which have no stubs, only when the
    /// table's size as the planner knows it is not far above theirs (the planner's size of a
    /// table with stubs counts them too).
    func finishSeen(of entity: EntityPlan, at time: StoredValue) throws(StoreError) {
        guard let pending = pendingSeen.removeValue(forKey: entity.index), pending.transaction == transactionNumber else { return }
        let meta = quote(StorageSchema.metadataTable)
        let hasStubs = !entity.spec.isOwned
        let mark = "INSERT INTO \(meta) (\"key\", \"value\") SELECT $1::text, "
            + "to_char($2::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') WHERE "
        let upsert = " ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\""
        let notStub = hasStubs ? " AND NOT r.\"_stub\"" : ""
        if pending.known > 0 {
            // Counted first, with no row sent: the rows it knows are among the rows to be
            // seen, so when the table holds no more of those, it saw them all. A row the import
            // wrote has `_seen_at` `time`; the scan stops one row past the rows known.
            let rowsToSee = "SELECT FROM \(entity.table) AS r WHERE r.\"_seen_at\" IS DISTINCT FROM $2\(notStub) LIMIT $3 + 1"
            let marked = try connection.run(
                mark + "(SELECT count(*) FROM (\(rowsToSee)) AS x) = $3" + upsert,
                [.text(Self.seenMarkKey(entity.spec)), time, .integer(Int64(pending.known))])
            if marked != 0 { return try markSeenStubs(of: entity, pending, at: time) }
        }
        let rows = pending.chunks.joined()
        let size = "coalesce((SELECT c.reltuples FROM pg_class AS c WHERE c.oid = '\(literal(entity.table))'::regclass), -1) <= $4 AND "
        // A row older than the import and not among its rows was not seen (nor was one without
        // a time, from before the entity kept timestamps).
        let older = "FROM \(entity.table) AS r WHERE coalesce(r.\"_seen_at\" < $2, true)\(notStub)"
        // The planner takes the ids for a few (it cannot see the array's length) and pairs them
        // with each row in a nested loop, which stops at the first row not among them: past a
        // few thousand ids, each row's walk through them all costs more than hashing both sides
        // once (150,000 ids took minutes).
        let unseen = rows.count <= Self.seenIDsPairedInALoop
            ? "SELECT 1 \(older) AND NOT EXISTS (SELECT 1 FROM unnest($3::int8[]) AS k(id) WHERE k.id = r.\(entity.rowID))"
            : "SELECT r.\(entity.rowID) \(older) EXCEPT SELECT unnest($3::int8[])"
        let marked = try connection.run(
            mark + "\(hasStubs ? "" : size)NOT EXISTS (\(unseen))" + upsert,
            [.text(Self.seenMarkKey(entity.spec)), time, Self.array(rows)] + (hasStubs ? [] : [.real(Double(rows.count) * 1.2)]))
        guard marked == 0 else { return try markSeenStubs(of: entity, pending, at: time) }
        for chunk in pending.chunks { try markSeen(entity, rows: chunk, at: time) }
    }

    /// The table's mark is placed, and it is not a stub's: the stubs seen get their seen rows.
    private func markSeenStubs(of entity: EntityPlan, _ pending: PendingSeen, at time: StoredValue) throws(StoreError) {
        guard pending.mayHoldStubs, !entity.spec.isOwned else { return }
        for chunk in pending.chunks { try markSeen(entity, rows: chunk, at: time, stubsOnly: true) }
    }

    /// Ids of rows seen past which the check that no other row is left unseen hashes them with
    /// the table's rather than walking them for each row (see ``finishSeen(of:at:)``).
    static let seenIDsPairedInALoop = 2_000

    /// The metadata key of the mark that every row of `entity`'s table was seen at the time it
    /// holds (see ``finishSeen(of:at:)``).
    static func seenMarkKey(_ entity: EntitySpec) -> String { "seen:" + entity.table }

    /// Sets the seen-table `_seen_at` of `rows` (distinct) of `entity` to `time`: an `UPDATE` of
    /// the seen rows there are, then an `INSERT` of the others, which the writer lock keeps
    /// anyone else from inserting meanwhile. The two cost about two thirds of one
    /// `INSERT … ON CONFLICT DO UPDATE` (150,000 rows: 0.40 s against 0.59 s), and a re-import
    /// whose rows all have seen rows already skips the `INSERT`. `stubsOnly`: of the rows that
    /// are stubs alone (for an entity without distribution).
    private func markSeen(_ entity: EntityPlan, rows: [Int64], at time: StoredValue, stubsOnly: Bool = false) throws(StoreError) {
        let seen = quote(StorageSchema.seenTable(of: entity.spec.table))
        let ids = Self.array(rows)
        // Seen rows made from their rows: to take each row's tenant, or to keep to the stubs.
        let tenantColumn = entity.spec.tenantAttribute.flatMap { $0 == entity.spec.rowIDColumn ? nil : quote($0) }
        if tenantColumn != nil || stubsOnly {
            let tenant = tenantFilter(entity.spec, alias: "r", parameter: 3)
            let ofRows = "\(entity.table) AS r WHERE r.\(entity.rowID) = ANY($2::int8[])\(stubsOnly ? " AND r.\"_stub\"" : "")\(tenant.sql)"
            let (named, taken, matched) = tenantColumn.map { ("\($0), ", "r.\($0), ", " AND s.\($0) = r.\($0)") } ?? ("", "", "")
            let match = "s.\"_id\" = r.\(entity.rowID)\(matched)"
            try connection.run("UPDATE \(seen) AS s SET \"_seen_at\" = $1 FROM \(ofRows) AND \(match)", [time, ids] + tenant.parameters)
            try connection.run(
                "INSERT INTO \(seen) (\(named)\"_id\", \"_seen_at\") SELECT \(taken)r.\(entity.rowID), $1 FROM \(ofRows) "
                    + "AND NOT EXISTS (SELECT 1 FROM \(seen) AS s WHERE \(match))",
                [time, ids] + tenant.parameters)
            return
        }
        let updated = try connection.run("UPDATE \(seen) SET \"_seen_at\" = $1 WHERE \"_id\" = ANY($2::int8[])", [time, ids])
        guard updated < rows.count else { return }
        let absent = updated == 0 ? "" : " WHERE NOT EXISTS (SELECT 1 FROM \(seen) AS s WHERE s.\"_id\" = k.id)"
        try connection.run(
            "INSERT INTO \(seen) (\"_id\", \"_seen_at\") SELECT k.id, $1 FROM unnest($2::int8[]) AS k(id)\(absent)", [time, ids])
    }

    /// The `_seen_at` of the row of `entity` named `alias` in a statement: the latest of its
    /// column, its row in the seen table and, for an entity without distribution, the table's
    /// mark (see ``finishSeen(of:at:)``). A row inserted after the mark has its own, later time.
    static func seenAt(_ entity: EntitySpec, alias: String) -> String {
        "greatest(\(alias).\"_seen_at\", (SELECT s.\"_seen_at\" FROM \(quote(StorageSchema.seenTable(of: entity.table))) AS s "
            + "WHERE s.\"_id\" = \(alias).\(quote(entity.rowIDColumn))\(tenantJoin(entity, "s", alias)))\(seenMark(of: entity, alias: alias)))"
    }

    /// `, (the table's mark)` for an entity without distribution, or nothing. The mark is not a
    /// stub's: a stub keeps the time it was made (a stub filled in since has its own, later).
    static func seenMark(of entity: EntitySpec, alias: String) -> String {
        guard entity.tenantAttribute == nil else { return "" }
        let mark = "(SELECT m.\"value\"::timestamptz FROM \(quote(StorageSchema.metadataTable)) AS m "
            + "WHERE m.\"key\" = '\(literal(seenMarkKey(entity)))')"
        return entity.isOwned ? ", \(mark)" : ", CASE WHEN \(alias).\"_stub\" THEN NULL ELSE \(mark) END"
    }
}
