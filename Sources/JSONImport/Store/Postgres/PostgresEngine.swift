import Foundation

/// The PostgreSQL store (SPEC 6): one schema of a database, for many importers and readers on
/// many hosts. Writers serialize on the store's advisory lock, waiting up to the busy timeout;
/// readers take a snapshot and never wait.
///
/// The engine speaks the same rows and values as the SQLite one (see ``StoreEngine``); its
/// statements are PostgreSQL's own. The row path (``PostgresImportRows``) holds writes
/// client-side to write them in sets: every statement other than its own, and every commit,
/// first calls ``handOverPendingWrites()``, so every statement sees them.
///
/// A write scope inside the transaction (a record under `onError: skip`) is a savepoint of the
/// row path's cache first: the server hears of it only when something is written inside it
/// (``openScopesOnServer()``), so records that fail client-side cost no round trip and take
/// none of PostgreSQL's subtransactions.
final class PostgresEngine {
    let connection: PostgresConnection
    /// The store's URL: a second connection builds indexes after a commit (see
    /// ``PostgresConnection/buildIndexesAfterCommit(_:url:)``).
    private let url: String
    /// Seconds a writer waits for the store's lock.
    let busyTimeout: Double
    /// Commits this connection made: the store's commit count less these is what other
    /// connections committed.
    private var ownCommits: Int64 = 0
    /// Savepoints of write scopes taken on the server (scopes that wrote nothing take none).
    private(set) var savepointsOnServer = 0
    /// How many times statements of the engine's own asked for the row path's writes.
    private(set) var handOverCount = 0
    /// The write scopes open inside the transaction, innermost last: their savepoints' names,
    /// and whether the server has the savepoint yet.
    private var scopes: [(name: String, isOnServer: Bool)] = []
    /// Counts the transactions begun on the connection: what was read in one transaction is
    /// not known to hold in the next.
    private(set) var transactionNumber = 0
    /// Whether the schema held no store when the engine opened it.
    private(set) var isNew = false
    /// Whether the store may not exist yet: from an open that found none to the first write
    /// transaction committed (which made it, or found it made by another connection). Until
    /// then a write transaction does not look for tables left without their indexes.
    private var mayLackStore = false
    /// Whether the store's schema existed when the engine opened it (a new store may be made in
    /// a schema of the user's, which is left in place).
    private var hadSchema = true
    /// Per entity (by index) without distribution: the rows an import saw, until
    /// ``finishSeen(of:at:)``.
    var pendingSeen: [Int: PendingSeen] = [:]

    var name: String { connection.name }
    var dialect: SQLDialect { .postgres }
    /// The importer's row path.
    private(set) lazy var rowPath = PostgresImportRows(engine: self)
    var importRows: any ImportRows { rowPath }

    private init(connection: PostgresConnection, url: String, busyTimeout: Double) {
        self.connection = connection
        self.url = url
        self.busyTimeout = busyTimeout
    }

    /// Whether `path` names a PostgreSQL store (`postgres://…` or `postgresql://…`).
    static func isURL(_ path: String) -> Bool {
        path.hasPrefix("postgres://") || path.hasPrefix("postgresql://")
    }

    /// Connects to the store at `url` and checks, reading only, that its schema holds nothing
    /// yet (a new store, when `create` allows one) or a store of a format this build reads.
    ///
    /// - Throws: ``StoreError`` `cannotOpen` when the server cannot be reached, `notFound` for
    ///   a schema without a store when `create` is false, `notAStore` for a schema holding
    ///   other tables, `unsupportedFormat` for a store of a newer or unreadable format.
    static func open(url: String, create: Bool, busyTimeout: Double) throws -> PostgresEngine {
        let engine = PostgresEngine(connection: try PostgresConnection(url: url), url: url, busyTimeout: busyTimeout)
        let connection = engine.connection
        try connection.beginRead()
        defer { try? connection.rollback() }
        let tables = try connection.rows(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = $1", [.text(connection.schema)])
        if tables.isEmpty {
            guard create else { throw StoreError(.notFound, "store '\(connection.name)' does not exist") }
            engine.isNew = true
            engine.mayLackStore = true
            engine.hadSchema = !(try connection.rows("SELECT 1 FROM pg_namespace WHERE nspname = $1", [.text(connection.schema)])).isEmpty
            return engine
        }
        let meta = StorageSchema.metadataTable
        guard tables.contains([.text(meta)]) else {
            throw StoreError(.notAStore, "'\(connection.name)' is a database but not a JSONImport store")
        }
        let format = try connection.rows("SELECT \"value\" FROM \(quote(meta)) WHERE \"key\" = 'format'")
        try StoreFormat.check(recorded: format.first?.first, store: connection.name)
        return engine
    }

    // MARK: Transactions

    func transaction<T>(_ kind: TransactionKind, deciding body: () throws -> ScopeOutcome<T>) throws -> T {
        // A hand-over in the background runs inside the write transaction, on the connection.
        guard rowPath.background == nil && !connection.isInTransaction else {
            return kind == .read ? try body().value : try savepoint(body)
        }
        transactionNumber += 1
        rowPath.reset()
        defer { rowPath.reset() }
        if kind == .write {
            try connection.beginWrite(lockTimeout: busyTimeout)
            do {
                try connection.deferredIndexesBeginTransaction(probing: !mayLackStore)
            } catch {
                rollBack()
                throw error
            }
        } else {
            try connection.beginRead()
        }
        let outcome: ScopeOutcome<T>
        var indexAfterCommit: [PostgresDeferredIndexes.Work] = []
        do {
            outcome = try body()
            if outcome.keepsWork && kind == .write {
                try handOverPendingWrites()
                try connection.run(
                    "UPDATE \(quote(StorageSchema.metadataTable)) SET \"value\" = (\"value\"::int8 + 1)::text WHERE \"key\" = 'commits'")
                indexAfterCommit = try connection.tablesToIndexAfterCommit()
            }
            if outcome.keepsWork {
                try connection.commit()
                if kind == .write {
                    ownCommits += 1
                    mayLackStore = false
                    connection.deferredIndexesEndTransaction(committed: true)
                }
            }
        } catch {
            rollBack()
            throw error
        }
        if !outcome.keepsWork { rollBack() }
        if !indexAfterCommit.isEmpty { connection.buildIndexesAfterCommit(indexAfterCommit, url: url) }
        return outcome.value
    }

    private func savepoint<T>(_ body: () throws -> ScopeOutcome<T>) throws -> T {
        try rowPath.forgetStaleCache()
        scopes.append(("scope_\(scopes.count + 1)", false))
        rowPath.cache.beginScope()
        let outcome: ScopeOutcome<T>
        do {
            outcome = try body()
        } catch {
            try? endScope(keepingWork: false)
            throw error
        }
        try endScope(keepingWork: outcome.keepsWork)
        return outcome.value
    }

    /// Closes the innermost scope, keeping or undoing its work in the cache and on the server.
    private func endScope(keepingWork: Bool) throws(StoreError) {
        let scope = scopes.removeLast()
        if keepingWork {
            rowPath.cache.keepScope()
            if scope.isOnServer {
                try rowPath.finishBackgroundHandOver()
                try connection.release(scope.name)
            }
        } else {
            rowPath.cache.undoScope()
            rowPath.stampsWritten.removeAll()
            if scope.isOnServer {
                rollBack(to: scope.name)
                // Rows written inside the scope and handed over have left the server.
                rowPath.cache.distrustServerIDs()
            }
        }
    }

    /// Takes on the server the savepoints of the open scopes it lacks, outermost first, before
    /// anything is written inside them. Nothing was written since they began (the row path
    /// writes nowhere else), so each stands where its scope began.
    func openScopesOnServer() throws(StoreError) {
        guard scopes.contains(where: { !$0.isOnServer }) else { return }
        // After the writes and reads running in the background, which come before the scopes.
        try rowPath.finishBackgroundHandOver()
        for i in scopes.indices where !scopes[i].isOnServer {
            savepointsOnServer += 1
            try connection.savepoint(scopes[i].name)
            scopes[i].isOnServer = true
        }
    }

    /// Hands the row path's writes to the server, for a statement of the engine's own to see
    /// them (and write after them).
    func handOverPendingWrites() throws(StoreError) {
        handOverCount += 1
        try openScopesOnServer()
        try rowPath.handOver()
    }

    private func rollBack() {
        try? rowPath.finishBackgroundHandOver()
        connection.deferredIndexesEndTransaction(committed: false)
        if connection.isInTransaction { try? connection.rollback() }
    }

    private func rollBack(to savepoint: String) {
        try? rowPath.finishBackgroundHandOver()
        guard connection.isInTransaction else { return }
        try? connection.rollbackTo(savepoint)
        try? connection.release(savepoint)
    }

    /// A failed transaction counts as none: nothing more can happen in it, and an error that
    /// failed it is the store's, not a record's.
    var isInTransaction: Bool {
        rowPath.background != nil || (connection.isInTransaction && !connection.isInFailedTransaction)
    }

    /// The store declares no foreign keys: nothing to turn off.
    func enforceForeignKeys(_ isOn: Bool) throws(StoreError) {}

    func externalCommitVersion() throws(StoreError) -> Int64 {
        try handOverPendingWrites()
        let rows = try connection.rows(
            "SELECT \"value\"::int8 FROM \(quote(StorageSchema.metadataTable)) WHERE \"key\" = 'commits'")
        guard case .integer(let commits)? = rows.first?.first else { return 0 }
        return commits - ownCommits
    }

    // MARK: Storage

    func recordedState() throws -> StoreSchemaState? {
        try handOverPendingWrites()
        let meta = StorageSchema.metadataTable
        let tables = try connection.rows(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = $1", [.text(connection.schema)])
        guard tables.contains([.text(meta)]) else {
            if !tables.isEmpty { throw StoreError(.notAStore, "'\(connection.name)' is a database but not a JSONImport store") }
            return nil
        }
        let rows = try connection.rows("SELECT \"value\" FROM \(quote(meta)) WHERE \"key\" = 'schema'")
        guard case .text(let json)? = rows.first?.first,
            let state = try? JSONDecoder().decode(StoreSchemaState.self, from: Data(json.utf8))
        else {
            throw StoreError(.corrupt, "store '\(connection.name)' has no readable schema record")
        }
        return state
    }

    /// Runs DDL in the open transaction, creating the store's schema first when it is missing
    /// (PostgreSQL's DDL is transactional: a failed creation leaves nothing).
    func execute(_ statements: [String]) throws(StoreError) {
        try handOverPendingWrites()
        try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quote(connection.schema))")
        for statement in statements { try connection.execute(statement) }
    }

    /// Creates the storage of `schema` in the open transaction, leaving the indexes of the
    /// tables that can be filled first and indexed after (``StorageSchema/tablesIndexedAfterLoading``)
    /// to the first import that fills them.
    func createStorage(_ schema: StorageSchema) throws(StoreError) {
        try execute(schema.statements)
        try connection.deferIndexes(of: schema.tablesIndexedAfterLoading)
    }

    /// Builds the indexes the store still lacks first: a migration changes the schema as its
    /// record says it is.
    func executeMigration(_ statements: [String]) throws(StoreError) {
        try handOverPendingWrites()
        try connection.finishDeferredIndexes(promotionWaits: true)
        try execute(statements)
    }

    func record(_ state: StoreSchemaState) throws(StoreError) {
        try connection.run(
            "INSERT INTO \(quote(StorageSchema.metadataTable)) (\"key\", \"value\") VALUES ('schema', $1), ('format', $2), ('commits', '0') "
                + "ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\" WHERE \(quote(StorageSchema.metadataTable)).\"key\" <> 'commits'",
            [.text(state.json), .text(String(StoreFormat.current))])
    }

    /// Removes a store this engine created, as a failed first import leaves no SQLite file:
    /// its tables, and its schema when nothing else is in it. Nothing is removed once another
    /// connection has committed to the store.
    func discardNewStore() throws {
        guard isNew else { return }
        // Not through transaction(_:deciding:), whose commit counts itself in the table dropped here.
        try connection.beginWrite(lockTimeout: busyTimeout)
        do {
            if try externalCommitVersion() == 0, let state = try recordedState() {
                let tables = [StorageSchema.metadataTable] + state.tables.keys.sorted()
                try connection.execute("DROP TABLE " + tables.map(quote).joined(separator: ", "))
                if !hadSchema { try connection.execute("DROP SCHEMA IF EXISTS \(quote(connection.schema)) RESTRICT") }
                mayLackStore = true
            }
            try connection.commit()
        } catch {
            rollBack()
            throw error
        }
    }

    /// Row ids as one `int8[]` parameter (its text form, `{1,2,3}`).
    static func array(_ rows: some Sequence<Int64>) -> StoredValue {
        // Digits written straight into the bytes: these arrays hold every row a hand-over
        // names (the seen rows of a re-import), and a string per id cost more than the rest.
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(rows.underestimatedCount * 8 + 2)
        var digits: [UInt8] = Array(repeating: 0, count: 20)
        for (i, row) in rows.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            if row < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = row.magnitude
            var count = 0
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for d in (0..<count).reversed() { bytes.append(digits[d]) }
        }
        bytes.append(UInt8(ascii: "}"))
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    // MARK: Statements

    func rows(_ sql: String, _ values: [StoredValue]) throws(StoreError) -> [[StoredValue]] {
        try handOverPendingWrites()
        return try connection.rows(PostgresSQL.numbered(sql), values)
    }

    func run(_ sql: String, _ values: [StoredValue]) throws(StoreError) {
        try handOverPendingWrites()
        try connection.run(PostgresSQL.numbered(sql), values)
    }
}

/// SQL text for PostgreSQL made from text written for both stores.
enum PostgresSQL {
    /// `sql` with its `?` parameters numbered `$1`, `$2`, … (a `?` inside a string literal or
    /// a quoted name is left alone).
    static func numbered(_ sql: String) -> String {
        var result = ""
        var number = 0
        var quoteMark: Character?
        for character in sql {
            if let open = quoteMark {
                if character == open { quoteMark = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quoteMark = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
