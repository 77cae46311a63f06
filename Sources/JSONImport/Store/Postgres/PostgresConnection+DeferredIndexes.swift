import Foundation

/// Indexes built after the first rows are loaded. A new store's entity and link tables start
/// without their keys and indexes; the first write transaction that puts rows in one of them
/// has them all built once its rows are in: `COPY` into a table without indexes, then one sort
/// per index, takes about half as long on the server as `COPY` into indexed tables.
///
/// What each such table still lacks is recorded in the store's metadata table (a row
/// `deferred:TABLE` per table, holding the statements that build it), so every connection
/// of every host knows it and it changes only with the transaction that builds it. In every
/// committed state, a table with a row of its own there is empty, has no index yet (its rows
/// were committed and the builds after the commit have not ended, see below), or has every
/// index and lacks only its primary-key constraint. The importer's client keeps the keys
/// unique however the tables are indexed.
///
/// Inside a write transaction:
/// - first, the tables with rows but no index get their indexes (rows another importer
///   committed, whose builds after the commit gave way to this transaction, or rows of SQL
///   of the user's own);
/// - rows copied into a table that has no index yet are held on the client and sent in
///   fewer, larger `COPY`s before any other statement (see ``PostgresHeldCopies``);
/// - before any statement but a `COPY` (a read, an update, a merge), the tables the
///   transaction has copied rows into get their indexes, so no statement scans a filled
///   table for lack of one.
///
/// At commit, when any of the tables holds a row, all of them get their indexes (an empty one
/// costs nothing to index, and the store is done with this from then on): right after the
/// commit, in transactions of their own, on two connections at once when there is enough to
/// index (``PostgresConnection/buildIndexesAfterCommit(_:url:)``), where a transaction runs on
/// one. The import waits for them. Should they not happen (the importer killed meanwhile, the
/// lock not free), the next write transaction builds them before anything else; a reader
/// finds the rows meanwhile, by scanning the tables.
///
/// Building an index takes a `SHARE` lock, which readers never wait for. The primary-key
/// constraint is then put on its unique index (`ADD CONSTRAINT … USING INDEX`), which takes an
/// `ACCESS EXCLUSIVE` lock for a moment: under a savepoint and a lock timeout of
/// ``promotionLockTimeout`` milliseconds, so that a reader holding one of the tables is never
/// deadlocked with it. Past the timeout the constraint waits for a later write transaction;
/// the unique index enforces the key meanwhile.
struct PostgresDeferredIndexes {
    /// What a table still lacks: the statements building its indexes, then those putting its
    /// primary-key constraint on its unique index.
    struct Table: Codable, Hashable {
        var build: [String]
        var promote: [String]
    }

    /// The tables of the store still lacking indexes, by name; `nil` when not known in this
    /// transaction (read from the store when needed).
    fileprivate(set) var tables: [String: Table]?
    /// Set once the store has no such table: that never changes again, so nothing is read.
    fileprivate var isSettled = false
    /// Tables of ``tables`` this transaction copied rows into.
    fileprivate var filled: Set<String> = []
    /// Set while the indexes are being built, whose statements must not build them again.
    fileprivate var isBuilding = false
    /// Set inside the write transactions of a store's engine: nothing else (a bare connection,
    /// a read) consults the store about its indexes.
    fileprivate var isInWrite = false

    /// Milliseconds the primary-key constraint of a table waits for readers of the table.
    static let promotionLockTimeout = 100

    /// While the indexes are built, tables past this size (1 MB; the server's default is 8 MB)
    /// have parallel workers help, as the server's `max_parallel_maintenance_workers` allows.
    /// The import's other work is done by then, so a core is free: the eleven indexes of the
    /// benchmark's store took 274–295 ms this way against 313–363 ms, four imports each.
    static let parallelScanSize = 1 << 20

    /// Around the statements that build indexes: a lower threshold for parallel workers (see
    /// ``parallelScanSize``; a lower setting stands), then the setting as it was, kept meanwhile
    /// in a setting of the transaction's own.
    static func withParallelWorkers(_ statements: [String]) -> [String] {
        let setting = "'min_parallel_table_scan_size'", kept = "'jsonimport.min_parallel_table_scan_size'"
        return [
            "SELECT set_config(\(kept), current_setting(\(setting)), true)",
            "SELECT set_config(\(setting), least(pg_size_bytes(current_setting(\(setting))), \(parallelScanSize)) || 'B', true)",
        ] + statements + ["SELECT set_config(\(setting), current_setting(\(kept)), true)"]
    }

    /// Key of the metadata row of `table`.
    static func key(_ table: String) -> String { "deferred:" + table }

    /// The statements (simple query protocol) that leave `table`'s indexes to be built: its
    /// primary-key constraint and indexes dropped, what builds them again recorded. Read from
    /// the catalog, so the indexes come back as they were made; recorded without the schema
    /// the catalog names the table in, so they build in the store's schema as it is then (it
    /// may have been renamed meanwhile).
    static func deferral(of tables: [String], on connection: PostgresConnection) throws(StoreError) -> (drop: [String], record: [String: Table]) {
        let names = tables.map { "'\(literal($0))'" }.joined(separator: ", ")
        let rows = try connection.rows(
            """
            SELECT c.relname::text, replace(pg_get_indexdef(i.indexrelid), ' ON ' || c.relnamespace::regnamespace::text || '.', ' ON '),
                i.indexrelid::regclass::text, coalesce(k.conname::text, '')
            FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
            LEFT JOIN pg_constraint k ON k.conindid = i.indexrelid AND k.conrelid = c.oid AND k.contype = 'p'
            WHERE c.relnamespace = $1::regnamespace AND c.relname IN (\(names))
            ORDER BY c.relname, k.conname IS NULL, i.indexrelid
            """,
            [.text(quote(connection.schema))])
        var drop: [String] = []
        var record: [String: Table] = [:]
        for row in rows {
            let table = text(row[0]), definition = text(row[1]), index = text(row[2]), constraint = text(row[3])
            record[table, default: Table(build: [], promote: [])].build.append(definition)
            if constraint.isEmpty {
                drop.append("DROP INDEX \(index)")
            } else {
                drop.append("ALTER TABLE \(quote(table)) DROP CONSTRAINT \(quote(constraint))")
                record[table]!.promote.append(
                    "ALTER TABLE \(quote(table)) ADD CONSTRAINT \(quote(constraint)) PRIMARY KEY USING INDEX \(quote(constraint))")
            }
        }
        return (drop, record)
    }
}

/// The text of a value read as `text`.
private func text(_ value: StoredValue) -> String {
    if case .text(let text) = value { return text }
    return value.description
}

extension PostgresConnection {
    /// Leaves the indexes of `tables`, new and empty, to be built when rows first come (see
    /// ``PostgresDeferredIndexes``), in the open transaction that created them.
    func deferIndexes(of tables: [String]) throws(StoreError) {
        guard !tables.isEmpty else { return }
        let (drop, record) = try PostgresDeferredIndexes.deferral(of: tables, on: self)
        try execute((drop + record.sorted { $0.key < $1.key }.map { Self.recording($0.key, $0.value) }).joined(separator: "; "))
        deferred.tables = record
    }

    /// A new write transaction: what the store still lacks is read again when needed. With
    /// `probing` (a store known to exist), it is read now, and when rows are in one of those
    /// tables (committed by another importer whose builds after its commit gave way to this
    /// transaction, or put there by SQL of the user's own), they get their indexes before
    /// anything else runs.
    func deferredIndexesBeginTransaction(probing: Bool) throws(StoreError) {
        deferred.isInWrite = true
        deferred.filled = []
        guard !deferred.isSettled else { return }
        deferred.tables = nil
        guard probing, case let pending = try pendingTables(), !pending.isEmpty, try holdRows(pending.keys) else { return }
        try buildIndexes(of: Set(pending.keys))
    }

    /// Whether any of `tables` holds a row; one round trip.
    private func holdRows(_ tables: some Collection<String>) throws(StoreError) -> Bool {
        let probe = tables.sorted().map { "SELECT 1 FROM \(quote($0))" }.joined(separator: " UNION ALL ")
        return try rows("SELECT 1 WHERE EXISTS (\(probe))").count == 1
    }

    /// Called before a `COPY` into `table` in a write transaction; whether the table has no
    /// index yet, so that its rows may be held back (see ``PostgresHeldCopies``).
    func willCopy(into table: String) throws(StoreError) -> Bool {
        guard deferred.isInWrite, !deferred.isSettled, let entry = try pendingTables()[table] else { return false }
        deferred.filled.insert(table)
        return !entry.build.isEmpty
    }

    /// Called before any other statement: sends the rows held back (drops them when `sql`
    /// rolls back), then builds the indexes of the tables rows were copied into, when `sql`
    /// names one of them (a statement of the store's bookkeeping alone, such as the count of
    /// commits, leaves them to the commit).
    func willRun(_ sql: String) throws(StoreError) {
        if !held.isEmpty {
            if sql.hasPrefix("ROLLBACK") { dropHeldCopies() } else { try sendHeldCopies() }
        }
        guard !deferred.filled.isEmpty, !deferred.isBuilding, deferred.filled.contains(where: { sql.contains(quote($0)) }) else {
            return
        }
        let tables = deferred.filled
        deferred.filled = []
        try buildIndexes(of: tables)
    }

    /// A rollback to a savepoint may have undone a build: read again when needed.
    func deferredIndexesRolledBackToSavepoint() {
        if !deferred.isSettled { deferred.tables = nil }
    }

    /// Before a migration changes the schema: when any table still lacking indexes holds a row
    /// (or always, with `promotionWaits`), builds the indexes of every such table and puts their
    /// primary keys on (see ``PostgresDeferredIndexes``), in the open write transaction.
    /// `promotionWaits`: the constraints wait for readers as any statement of the transaction
    /// does, rather than for ``PostgresDeferredIndexes/promotionLockTimeout`` (a migration, which
    /// takes such locks anyway).
    func finishDeferredIndexes(promotionWaits: Bool = false) throws(StoreError) {
        guard deferred.isInWrite, !deferred.isSettled else { return }
        let pending = try pendingTables()
        guard !pending.isEmpty else { return }
        if deferred.filled.isEmpty && !promotionWaits {
            guard try holdRows(pending.keys) else { return }
        }
        deferred.filled = []
        try buildIndexes(of: Set(pending.keys))
        try promotePrimaryKeys(of: Set(pending.keys), waits: promotionWaits)
    }

    /// Puts the primary-key constraints of those of `tables` that lack only them on their
    /// unique indexes, and forgets those tables as lacking anything. Without `waits`, under a
    /// savepoint and a lock timeout of ``PostgresDeferredIndexes/promotionLockTimeout``
    /// milliseconds: past it (a reader holds one of the tables) the constraints wait for a
    /// later write transaction.
    private func promotePrimaryKeys(of tables: Set<String>, waits: Bool) throws(StoreError) {
        var pending = try pendingTables()
        let promotions = pending.filter { tables.contains($0.key) && $0.value.build.isEmpty && !$0.value.promote.isEmpty }
            .sorted { $0.key < $1.key }
        guard !promotions.isEmpty else { return }
        let statements = promotions.flatMap(\.value.promote)
            + ["DELETE FROM \(quote(StorageSchema.metadataTable)) WHERE \"key\" IN (\(promotions.map { "'\(literal(PostgresDeferredIndexes.key($0.key)))'" }.joined(separator: ", ")))"]
        if waits {
            try execute(statements.joined(separator: "; "))
        } else {
            let savepoint = "jsonimport_primary_keys"
            try self.savepoint(savepoint)
            do throws(StoreError) {
                try execute((["SET LOCAL lock_timeout = \(PostgresDeferredIndexes.promotionLockTimeout)"] + statements).joined(separator: "; "))
            } catch where error.code == .busy {
                // A reader holds one of the tables: the constraints wait for a later writer.
                try rollbackTo(savepoint)
                try release(savepoint)
                return
            }
            try release(savepoint)
        }
        for (table, _) in promotions { pending[table] = nil }
        deferred.tables = pending
    }

    /// At the commit of a write transaction: when any table still lacking indexes holds a row,
    /// every such table, with how much there is to index in it (the size of its rows times its
    /// indexes), for ``buildIndexesAfterCommit(_:url:)``; else none.
    func tablesToIndexAfterCommit() throws(StoreError) -> [PostgresDeferredIndexes.Work] {
        guard deferred.isInWrite, !deferred.isSettled else { return [] }
        let pending = try pendingTables()
        guard !pending.isEmpty else { return [] }
        if deferred.filled.isEmpty {
            guard try holdRows(pending.keys) else { return [] }
        }
        // The rows held go now: the sizes read below count them.
        try sendHeldCopies()
        deferred.filled = []
        let names = pending.keys.sorted().map { "'\(literal($0))'" }.joined(separator: ", ")
        var sizes: [String: Int] = [:]
        for row in try rows(
            "SELECT c.relname::text, pg_relation_size(c.oid) FROM pg_class c WHERE c.relnamespace = $1::regnamespace AND c.relname IN (\(names))",
            [.text(quote(schema))])
        {
            if case .integer(let size) = row[1] { sizes[text(row[0])] = Int(size) }
        }
        return pending.keys.sorted().map { table in
            let builds = pending[table]!.build
            return PostgresDeferredIndexes.Work(table: table, size: (sizes[table] ?? 0) * builds.count, builds: builds)
        }
    }

    /// Builds the indexes of `tables` (from ``tablesToIndexAfterCommit()``) once the transaction
    /// that filled them has committed, and waits for them. Past
    /// ``PostgresDeferredIndexes/twoConnectionsSize`` of work, this connection and a second one
    /// to the store at `url` build at once, each taking the next index from one list, those of
    /// the largest tables first: the server then builds on two cores (the benchmark's eleven
    /// indexes took 243–301 ms on two connections against 359–449 ms one after another), and
    /// the two indexes of one large table are built at once too. The primary keys are put on
    /// once every index is in. See ``buildCommittedIndexes(from:atOnce:)`` for how each
    /// connection takes its turn with other writers.
    ///
    /// Whatever happens here, the import stands: a table left without its indexes gets them
    /// from the next write transaction (see ``PostgresDeferredIndexes``).
    func buildIndexesAfterCommit(_ tables: [PostgresDeferredIndexes.Work], url: String) {
        let queue = PostgresDeferredIndexes.Queue(tables)
        let atOnce = tables.reduce(0) { $0 + $1.size } >= PostgresDeferredIndexes.twoConnectionsSize
        let ready = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        if atOnce {
            Thread {
                let connection = try? PostgresConnection(url: url)
                ready.signal()
                _ = try? connection?.buildCommittedIndexes(from: queue, atOnce: true)
                done.signal()
            }.start()
            // Both start together: the second connection takes the second index.
            ready.wait()
        }
        var settled = (try? buildCommittedIndexes(from: queue, atOnce: atOnce)) ?? false
        if atOnce {
            done.wait()
            settled = queue.isEmpty && (try? promoteCommittedPrimaryKeys(of: Set(tables.map(\.table)))) == true
        }
        if settled {
            deferred.tables = [:]
            deferred.isSettled = true
        } else {
            deferred.tables = nil
        }
    }

    /// In a transaction of its own, takes indexes from `queue` until it is empty and builds
    /// each its table still lacks; then records them as built, and, without `atOnce`, puts the
    /// primary keys of the tables on. Returns whether the store lacks nothing any more. It holds
    /// the store's writer lock shared, so that the two connections of
    /// ``buildIndexesAfterCommit(_:url:)`` build at once and no writer comes in between; when
    /// the lock is not free it takes nothing: a writer holding it, or waiting for it, builds
    /// them itself, before anything else. `atOnce`: another connection builds meanwhile, so no
    /// parallel workers are asked for, and the primary keys wait for both
    /// (``promoteCommittedPrimaryKeys(of:)``): putting one on locks its table, whose other
    /// index the other connection may be building.
    ///
    /// The two connections may build indexes of the same table, whose metadata row records
    /// what the table lacks: each removes its own indexes from the row (``recordBuilt(_:of:)``),
    /// at its end and in table order, so that it waits at most for the other's commit.
    private func buildCommittedIndexes(from queue: PostgresDeferredIndexes.Queue, atOnce: Bool) throws(StoreError) -> Bool {
        try afterCommit(begin: "BEGIN" + (atOnce ? "; SET LOCAL max_parallel_maintenance_workers = 0" : "")) { () throws(StoreError) in
            var pending = try pendingTables()
            var built: [String: [String]] = [:]
            while let unit = queue.next() {
                // A writer before it may have built it.
                guard pending[unit.table]?.build.contains(unit.build) == true else { continue }
                try execute(PostgresDeferredIndexes.withParallelWorkers([unit.build]).joined(separator: "; "))
                built[unit.table, default: []].append(unit.build)
            }
            for (table, builds) in built.sorted(by: { $0.key < $1.key }) {
                try recordBuilt(builds, of: table)
                pending[table]?.build.removeAll { builds.contains($0) }
            }
            deferred.tables = pending
            if !atOnce { try promotePrimaryKeys(of: Set(pending.keys), waits: false) }
        }
    }

    /// After both connections of ``buildIndexesAfterCommit(_:url:)`` built: in a transaction of
    /// its own, puts on the primary keys of those of `tables` that lack only them. Returns
    /// whether the store lacks nothing any more.
    private func promoteCommittedPrimaryKeys(of tables: Set<String>) throws(StoreError) -> Bool {
        try afterCommit(begin: "BEGIN") { () throws(StoreError) in try promotePrimaryKeys(of: tables, waits: false) }
    }

    /// Runs `body` in a transaction of its own begun by `begin`, after a commit, holding the
    /// store's writer lock shared, and commits; returns whether the store then lacks nothing.
    /// Runs nothing, and returns `false`, when a writer holds the lock or waits for it.
    private func afterCommit(begin: String, _ body: () throws(StoreError) -> Void) throws(StoreError) -> Bool {
        try execute(begin)
        do throws(StoreError) {
            let key = "\(Self.lockClass), \(Self.lockKey(schema: schema))"
            guard try rows("SELECT pg_try_advisory_xact_lock_shared(\(key))") == [[.integer(1)]] else {
                try rollback()
                return false
            }
            deferred.isInWrite = true
            deferred.filled = []
            deferred.tables = nil
            try body()
            let settled = try pendingTables().isEmpty
            try commit()
            deferredIndexesEndTransaction(committed: true)
            return settled
        } catch {
            try? rollback()
            deferredIndexesEndTransaction(committed: false)
            throw error
        }
    }

    /// Records `builds` (statements of `table`'s metadata row) as done: removed from the row as
    /// it is when this runs, which another connection building the table's other indexes may
    /// have changed since this transaction read it.
    private func recordBuilt(_ builds: [String], of table: String) throws(StoreError) {
        let list = String(decoding: (try? JSONEncoder().encode(builds)) ?? Data("[]".utf8), as: UTF8.self)
        _ = try run(
            """
            UPDATE \(quote(StorageSchema.metadataTable)) SET "value" = json_build_object(
                'build', coalesce((SELECT json_agg(b.s ORDER BY b.n) FROM json_array_elements_text("value"::json -> 'build') WITH ORDINALITY AS b(s, n)
                    WHERE b.s NOT IN (SELECT json_array_elements_text($2::json))), '[]'::json),
                'promote', "value"::json -> 'promote')::text
            WHERE "key" = $1
            """,
            [.text(PostgresDeferredIndexes.key(table)), .text(list)])
    }

    /// The transaction committed (`true`) or rolled back: what it built is the store's, or not.
    func deferredIndexesEndTransaction(committed: Bool) {
        dropHeldCopies()
        deferred.isInWrite = false
        deferred.filled = []
        if committed, deferred.tables?.isEmpty == true {
            deferred.isSettled = true
        } else if !committed {
            deferred.tables = nil
        }
    }

    /// Builds the indexes of `tables` (those of them still lacking any), recording that each
    /// now lacks at most its primary-key constraint; one round trip.
    private func buildIndexes(of tables: Set<String>) throws(StoreError) {
        var pending = try pendingTables()
        var statements: [String] = []
        for table in tables.sorted() {
            guard var entry = pending[table], !entry.build.isEmpty else { continue }
            statements += entry.build
            entry.build = []
            pending[table] = entry
            statements.append(Self.recording(table, entry))
        }
        guard !statements.isEmpty else { return }
        deferred.isBuilding = true
        defer { deferred.isBuilding = false }
        try execute(PostgresDeferredIndexes.withParallelWorkers(statements).joined(separator: "; "))
        deferred.tables = pending
    }

    /// The tables still lacking indexes, read from the store once per transaction.
    private func pendingTables() throws(StoreError) -> [String: PostgresDeferredIndexes.Table] {
        if let tables = deferred.tables { return tables }
        deferred.isBuilding = true
        defer { deferred.isBuilding = false }
        var tables: [String: PostgresDeferredIndexes.Table] = [:]
        let rows = try rows(
            "SELECT substr(\"key\", 10), \"value\" FROM \(quote(StorageSchema.metadataTable)) WHERE \"key\" LIKE 'deferred:%'")
        for row in rows {
            guard let table = try? JSONDecoder().decode(PostgresDeferredIndexes.Table.self, from: Data(text(row[1]).utf8)) else {
                throw StoreError(.corrupt, "store '\(name)' has an unreadable record of the indexes of table \(text(row[0]))")
            }
            tables[text(row[0])] = table
        }
        deferred.tables = tables
        if tables.isEmpty { deferred.isSettled = true }
        return tables
    }

    /// The statement recording what `table` still lacks.
    private static func recording(_ table: String, _ entry: PostgresDeferredIndexes.Table) -> String {
        let json = String(decoding: (try? JSONEncoder().encode(entry)) ?? Data(), as: UTF8.self)
        return "INSERT INTO \(quote(StorageSchema.metadataTable)) (\"key\", \"value\") VALUES ('\(literal(PostgresDeferredIndexes.key(table)))', '\(literal(json))') "
            + "ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\""
    }
}
