import Foundation

/// The SQLite store (SPEC 5): one database file in WAL mode (or a private in-memory database),
/// foreign keys enforced outside imports, the writer lock taken by `BEGIN IMMEDIATE`.
final class SQLiteEngine: StoreEngine {
    let connection: SQLiteConnection
    /// The importer's row path, its statements prepared once for the store's life.
    private(set) lazy var importRows: any ImportRows = SQLiteImportRows(connection: connection)

    var name: String { connection.name }
    var dialect: SQLDialect { .sqlite }

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Opens the database at `location`. Before the first write (the switch to WAL), reads that
    /// change nothing check that the file is a new database or a store of a format this build
    /// reads: another application's database, or a store of a newer format, is refused as it
    /// was found.
    static func open(_ location: Store.Location, busyTimeout: Double) throws -> SQLiteEngine {
        if location.path != ":memory:" && !location.create && !FileManager.default.fileExists(atPath: location.path) {
            throw StoreError(.notFound, "store '\(location.name ?? location.path)' does not exist")
        }
        let connection = try SQLiteConnection(
            path: location.path, name: location.name, create: location.create, busyTimeout: busyTimeout,
            readOnly: location.readOnly)
        try connection.transaction(.read) {
            try StoreFormat.check(connection)
            // A file holding no table (empty, or a database emptied) holds no store, as an
            // empty PostgreSQL schema does not: only an import makes one there.
            if location.path != ":memory:" && !location.create, try connection.rows("SELECT 1 FROM sqlite_master LIMIT 1").isEmpty {
                throw StoreError(.notFound, "store '\(location.name ?? location.path)' does not exist")
            }
        }
        if !location.readOnly { try connection.enableWAL(waitingUpTo: busyTimeout) }
        return SQLiteEngine(connection: connection)
    }

    // MARK: Transactions

    func transaction<T>(_ kind: TransactionKind, deciding body: () throws -> ScopeOutcome<T>) throws -> T {
        try connection.transaction(kind, deciding: body)
    }

    var isInTransaction: Bool { connection.isInTransaction }

    func enforceForeignKeys(_ isOn: Bool) throws(StoreError) {
        try connection.execute("PRAGMA foreign_keys = \(isOn ? "ON" : "OFF")")
    }

    func externalCommitVersion() throws(StoreError) -> Int64 {
        try connection.dataVersion()
    }

    /// Writes the whole write-ahead log back into the store file and empties it; `false` when
    /// a reader or writer still uses it.
    func checkpointEmptyingWAL() throws(StoreError) -> Bool {
        try connection.checkpointEmptyingWAL()
    }

    // MARK: Storage

    func recordedState() throws -> StoreSchemaState? {
        let table = StorageSchema.metadataTable
        let exists = try connection.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])
        guard !exists.isEmpty else {
            let tables = try connection.rows("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
            if case .integer(let count)? = tables.first?.first, count > 0 {
                throw StoreError(.notAStore, "'\(connection.name)' is a database but not a JSONImport store")
            }
            return nil
        }
        let rows = try connection.rows("SELECT \"value\" FROM \(quote(table)) WHERE \"key\" = 'schema'")
        guard case .text(let json)? = rows.first?.first,
            let state = try? JSONDecoder().decode(StoreSchemaState.self, from: Data(json.utf8))
        else {
            throw StoreError(.corrupt, "store '\(connection.name)' has no readable schema record")
        }
        return state
    }

    func execute(_ statements: [String]) throws(StoreError) {
        for statement in statements { try connection.execute(statement) }
    }

    func createStorage(_ schema: StorageSchema) throws(StoreError) {
        try execute(schema.statements)
    }

    /// A migration rebuilds tables (drop, create again): foreign keys are checked at the commit
    /// rather than by each statement, and the caller runs it with enforcement off, since the
    /// drop would otherwise run the `ON DELETE` action of every link to its rows.
    func executeMigration(_ statements: [String]) throws(StoreError) {
        try execute(["PRAGMA defer_foreign_keys = ON"] + statements)
    }

    func record(_ state: StoreSchemaState) throws(StoreError) {
        try connection.run(
            "INSERT INTO \(quote(StorageSchema.metadataTable)) (\"key\", \"value\") VALUES ('schema', ?), ('format', ?) "
                + "ON CONFLICT(\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
            [.text(state.json), .text(String(StoreFormat.current))])
    }

    // MARK: Bookkeeping

    func setColumn(_ column: String, of entity: EntityPlan, rows: [Int64], to value: StoredValue) throws(StoreError) {
        try connection.setColumn(column, of: entity, rows: rows, to: value)
    }

    /// Every chunk went to its rows as it came.
    func finishSeen(of entity: EntityPlan, at value: StoredValue) throws(StoreError) {}

    /// Every write goes to the file as it comes.
    var holdsWrites: Bool { false }

    func stampUpdated(of entity: EntityPlan, rows: [Int64], at value: StoredValue) throws(StoreError) {}

    // MARK: Stages

    func makeDeletionEngine(plan: ImportPlan) -> any DeletionEngine {
        SQLiteDeletionEngine(connection: connection, plan: plan)
    }

    func makeSpilledFlags() -> SpilledFlags? { SpilledFlags(connection: connection) }

    func makeSpilledOriginals(plan: ImportPlan) -> SpilledOriginals? {
        SpilledOriginals(connection: connection, plan: plan)
    }

    // MARK: Statements

    func rows(_ sql: String, _ values: [StoredValue]) throws(StoreError) -> [[StoredValue]] {
        try connection.rows(sql, values)
    }

    func run(_ sql: String, _ values: [StoredValue]) throws(StoreError) {
        try connection.run(sql, values)
    }
}
