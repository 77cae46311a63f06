import Foundation

/// An open store: one SQLite connection, the mappings it serves, and the import plans.
///
/// Not `Sendable`; ``Mapper`` owns one and serializes access to it.
final class Store {
    let connection: SQLiteConnection
    let spec: MappingSpec
    let plan: ImportPlan
    /// The open write scopes and the changes waiting to be handed on.
    var writeState = WriteState()
    /// The importer's row path, its statements prepared once for the store's life.
    private(set) lazy var importRows: any ImportRows = SQLiteImportRows(connection: connection)

    /// Where a store lives and whether opening may create it.
    struct Location {
        let path: String
        let create: Bool
        /// Open an existing store for reading only (no schema work).
        var readOnly = false
        /// The path messages name; `path` unless the store is being built under another name.
        var name: String? = nil
    }

    /// Opens the store at `location` for `spec`: creates the storage in a new store, applies
    /// safe migrations, and refuses data-losing ones unless `allowDataLoss`.
    init(_ location: Location, spec: MappingSpec, busyTimeout: Double, allowDataLoss: Bool = false) throws {
        self.connection = try Self.connect(location, busyTimeout: busyTimeout)
        self.spec = spec
        self.plan = ImportPlan(spec: spec)
        if !location.readOnly { try prepareSchema(allowDataLoss: allowDataLoss) }
    }

    /// Opens a connection to the store at `location`. Before the first write (the switch to
    /// WAL), reads that change nothing check that the file is a new database or a store of a
    /// format this build reads: another application's database, or a store of a newer format,
    /// is refused as it was found.
    static func connect(_ location: Location, busyTimeout: Double) throws -> SQLiteConnection {
        if location.path != ":memory:" && !location.create && !FileManager.default.fileExists(atPath: location.path) {
            throw StoreError(.notFound, "store '\(location.name ?? location.path)' does not exist")
        }
        let connection = try SQLiteConnection(
            path: location.path, name: location.name, create: location.create, busyTimeout: busyTimeout,
            readOnly: location.readOnly)
        try connection.transaction(.read) { try StoreFormat.check(connection) }
        if !location.readOnly { try connection.enableWAL(waitingUpTo: busyTimeout) }
        return connection
    }

    private func prepareSchema(allowDataLoss: Bool) throws {
        let migration = try Self.migrate(connection, to: spec, allowDataLoss: allowDataLoss)
        if migration.losesData && !allowDataLoss { throw MigrationRefused(plan: migration) }
    }

    /// Brings the storage of `connection` in line with `spec`: creates it in an empty database,
    /// applies the changes when none loses data or `allowDataLoss`, and returns them (nothing is
    /// applied when a data-losing change is refused).
    static func migrate(_ connection: SQLiteConnection, to spec: MappingSpec, allowDataLoss: Bool) throws -> MigrationPlan {
        let wanted = StoreSchemaState(StorageSchema(spec: spec))
        // Opening a store that matches the mappings only reads, so it never waits for a writer
        // (a reader opened during a long import would otherwise fail past the busy timeout).
        if try connection.transaction(.read, { try recordedState(connection) }) == wanted {
            return MigrationPlan(changes: [], statements: [])
        }
        // A rebuilt table is dropped and created again: with foreign keys enforced, the drop would
        // run the ON DELETE action of every link to its rows. The pragma is a no-op inside a
        // transaction, so enforcement is turned off around it (SQLite's table-rebuild procedure).
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        return try connection.transaction {
            guard let recorded = try recordedState(connection) else {
                try requireEmpty(connection)
                for statement in StorageSchema(spec: spec).statements { try connection.execute(statement) }
                try record(wanted, connection)
                return MigrationPlan(changes: [], statements: [])
            }
            guard recorded != wanted else { return MigrationPlan(changes: [], statements: []) }
            let migration = Migration.plan(from: recorded, to: wanted)
            guard !migration.losesData || allowDataLoss else { return migration }
            try connection.execute("PRAGMA defer_foreign_keys = ON")
            for statement in migration.statements { try connection.execute(statement) }
            try record(wanted, connection)
            return migration
        }
    }

    /// The schema the store records, or `nil` for a store without one (a new file).
    private static func recordedState(_ connection: SQLiteConnection) throws -> StoreSchemaState? {
        let table = StorageSchema.metadataTable
        let exists = try connection.rows(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])
        guard !exists.isEmpty else { return nil }
        let rows = try connection.rows("SELECT \"value\" FROM \(quote(table)) WHERE \"key\" = 'schema'")
        guard case .text(let json)? = rows.first?.first,
            let state = try? JSONDecoder().decode(StoreSchemaState.self, from: Data(json.utf8))
        else {
            throw StoreError(.corrupt, "store '\(connection.name)' has no readable schema record")
        }
        return state
    }

    private static func requireEmpty(_ connection: SQLiteConnection) throws {
        let tables = try connection.rows("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        if case .integer(let count)? = tables.first?.first, count > 0 {
            throw StoreError(.notAStore, "'\(connection.name)' is a database but not a JSONImport store")
        }
    }

    private static func record(_ state: StoreSchemaState, _ connection: SQLiteConnection) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(state), as: UTF8.self)
        try connection.run(
            "INSERT INTO \(quote(StorageSchema.metadataTable)) (\"key\", \"value\") VALUES ('schema', ?), ('format', ?) "
                + "ON CONFLICT(\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
            [.text(json), .text(String(StoreFormat.current))])
    }
}
