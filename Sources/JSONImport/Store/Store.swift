import Foundation

/// An open store: the database it lives in (its ``StoreEngine``), the mappings it serves, and
/// the import plans.
///
/// Not `Sendable`; ``Mapper`` owns one and serializes access to it.
final class Store {
    let engine: any StoreEngine
    let spec: MappingSpec
    let plan: ImportPlan
    /// The open write scopes and the changes waiting to be handed on.
    var writeState = WriteState()
    /// The importer's row path.
    var importRows: any ImportRows { engine.importRows }

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
        self.engine = try Self.connect(location, busyTimeout: busyTimeout)
        self.spec = spec
        self.plan = ImportPlan(spec: spec)
        if !location.readOnly { try prepareSchema(allowDataLoss: allowDataLoss) }
    }

    /// A store over an open `engine` for `spec`, as it is: nothing is read or written.
    init(engine: any StoreEngine, spec: MappingSpec) {
        self.engine = engine
        self.spec = spec
        self.plan = ImportPlan(spec: spec)
    }

    /// Opens the database of the store at `location`, checking it is a new database or a store
    /// of a format this build reads before anything is written.
    static func connect(_ location: Location, busyTimeout: Double) throws -> any StoreEngine {
        if PostgresEngine.isURL(location.path) {
            return try PostgresEngine.open(url: location.path, create: location.create, busyTimeout: busyTimeout)
        }
        return try SQLiteEngine.open(location, busyTimeout: busyTimeout)
    }

    private func prepareSchema(allowDataLoss: Bool) throws {
        let migration = try Self.migrate(engine, to: spec, allowDataLoss: allowDataLoss)
        if migration.losesData && !allowDataLoss { throw MigrationRefused(plan: migration) }
    }

    /// Brings the storage of `engine` in line with `spec`: creates it in an empty database,
    /// applies the changes when none loses data or `allowDataLoss`, and returns them (nothing is
    /// applied when a data-losing change is refused).
    static func migrate(_ engine: any StoreEngine, to spec: MappingSpec, allowDataLoss: Bool) throws -> MigrationPlan {
        let schema = StorageSchema(spec: spec, dialect: engine.dialect)
        let wanted = StoreSchemaState(schema)
        // Opening a store that matches the mappings only reads, so it never waits for a writer
        // (a reader opened during a long import would otherwise fail past the busy timeout).
        if try engine.transaction(.read, { try engine.recordedState() }) == wanted {
            return MigrationPlan(changes: [], statements: [])
        }
        // A rebuilt table is dropped and created again: with foreign keys enforced, the drop would
        // run the ON DELETE action of every link to its rows. Enforcement cannot change inside a
        // transaction, so it is turned off around it (SQLite's table-rebuild procedure).
        try engine.enforceForeignKeys(false)
        defer { try? engine.enforceForeignKeys(true) }
        return try engine.transaction(.write) {
            guard let recorded = try engine.recordedState() else {
                try engine.createStorage(schema)
                try engine.record(wanted)
                return MigrationPlan(changes: [], statements: [])
            }
            guard recorded != wanted else { return MigrationPlan(changes: [], statements: []) }
            let migration = Migration.droppingLinks(
                in: Migration.plan(from: recorded, to: wanted), from: recorded, to: wanted, spec: spec)
            guard !migration.losesData || allowDataLoss else { return migration }
            try Migration.apply(migration, spec: spec, on: engine)
            try engine.record(wanted)
            return migration
        }
    }
}
