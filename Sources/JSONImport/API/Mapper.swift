import Foundation
import Synchronization

/// Imports API payloads into a store according to the mappings, and reads the store back.
///
/// A `Mapper` can be shared across threads: writes go through one connection, one at a time
/// (a ``write(_:)-5hg6g`` block holds it for its duration), while reads on other threads use
/// read-only connections of their own and see the last committed state. Several mappers (in
/// one or several processes) can share one store file: writers wait for each other up to the
/// busy timeout.
///
/// ```swift
/// let mapper = try Mapper(mappings: "Mappings", store: .file("cache.sqlite"))
/// let report = try mapper.importFile("users.json", as: "User")
/// print(report.counts(for: "User").inserted)
/// ```
public final class Mapper: Sendable {
    /// The mappings this mapper imports with.
    public let spec: MappingSpec
    /// The settings the store was opened with.
    public let configuration: Configuration
    let store: SharedStore

    /// Where the store lives.
    public enum StoreLocation: Sendable, Hashable {
        /// A SQLite file, created when missing (unless `Configuration.createsStore` is false).
        case file(String)
        /// A private in-memory store, gone with the mapper.
        case inMemory
        /// A PostgreSQL store (SPEC 6): `postgres://user@host:5432/db?schema=cache` (also
        /// `postgresql://`). One store is one schema, `public` unless `schema` names another;
        /// libpq's environment (`PGPASSWORD`, `PGSSLMODE`, a `.pgpass` file) applies.
        case postgres(URL)

        /// The location a command line names: `:memory:`, a `postgres://` or `postgresql://`
        /// URL, or else a file path.
        ///
        /// - Parameter path: what `--store` (or `$JSONIMPORT_STORE`) holds.
        public init(_ path: String) {
            if path == ":memory:" {
                self = .inMemory
            } else if PostgresEngine.isURL(path), let url = URL(string: path) {
                self = .postgres(url)
            } else {
                self = .file(path)
            }
        }

        var path: String {
            switch self {
            case .file(let path): return path
            case .inMemory: return ":memory:"
            case .postgres(let url): return url.absoluteString
            }
        }
    }

    /// Settings for opening a store.
    public struct Configuration: Sendable, Hashable {
        /// How long a writer waits for another to finish, in seconds (SPEC 5).
        public var busyTimeout: Double
        /// Create the store file when it does not exist.
        public var createsStore: Bool
        /// Apply data-losing schema changes on open (SPEC 5 `migrate --allow-data-loss`).
        public var allowsDataLoss: Bool

        /// Creates settings for opening a store.
        ///
        /// - Parameters:
        ///   - busyTimeout: seconds a writer waits for another to finish; 30 by default.
        ///   - createsStore: create the store file when it does not exist; `true` by default.
        ///   - allowsDataLoss: apply schema changes that can lose data; `false` by default, which
        ///     makes such a change throw ``MigrationRefused``.
        public init(busyTimeout: Double = 30, createsStore: Bool = true, allowsDataLoss: Bool = false) {
            self.busyTimeout = busyTimeout
            self.createsStore = createsStore
            self.allowsDataLoss = allowsDataLoss
        }

        /// A 30-second busy timeout, a store created when missing, no data-losing migrations.
        public static let `default` = Configuration()
    }

    /// Opens (or creates) the store for the mappings at `mappings` (a directory or a file).
    ///
    /// - Throws: ``MappingLoadError`` for invalid mappings, ``StoreError`` when the store cannot
    ///   be opened, ``MigrationRefused`` when the mappings need a data-losing change.
    public convenience init(
        mappings: String, store: StoreLocation = .file("jsonimport.sqlite"), configuration: Configuration = .default
    ) throws {
        try self.init(spec: MappingSpec.load(from: mappings), store: store, configuration: configuration)
    }

    /// Opens (or creates) the store for an already loaded spec.
    public convenience init(spec: MappingSpec, store: StoreLocation = .inMemory, configuration: Configuration = .default) throws {
        try self.init(
            spec: spec, location: Store.Location(path: store.path, create: configuration.createsStore),
            configuration: configuration)
    }

    /// Opens (or creates) the store at `location`.
    init(spec: MappingSpec, location: Store.Location, configuration: Configuration) throws {
        self.spec = spec
        self.configuration = configuration
        let opened = try Store(
            location, spec: spec, busyTimeout: configuration.busyTimeout, allowDataLoss: configuration.allowsDataLoss)
        let isMemory = location.path == StoreLocation.inMemory.path
        self.store = SharedStore(opened, readers: isMemory ? nil : location.path, busyTimeout: configuration.busyTimeout)
    }

    // MARK: Importing

    /// Imports the files (in one transaction) as records of `entity`.
    ///
    /// - Parameters:
    ///   - paths: payload files; `-` reads standard input.
    ///   - entity: the root entity's name.
    ///   - options: root key path, format, error policy, prune, clean-up, dry run.
    /// - Returns: what the import did (SPEC 4.2).
    /// - Throws: ``ImportError`` when nothing was kept (invalid JSON, unreadable file, a record
    ///   error under `abort`), ``StoreError`` for store failures.
    @discardableResult
    public func importFiles(_ paths: [String], as entity: String, options: ImportOptions = .default) throws -> ImportReport {
        try importSources(paths.map(ImportSource.file), as: entity, options: options)
    }

    /// Imports one file as records of `entity`. See ``importFiles(_:as:options:)-2kq2q``.
    @discardableResult
    public func importFile(_ path: String, as entity: String, options: ImportOptions = .default) throws -> ImportReport {
        try importFiles([path], as: entity, options: options)
    }

    /// Imports a payload held in memory as records of `entity`.
    @discardableResult
    public func importData(_ data: Data, as entity: String, options: ImportOptions = .default) throws -> ImportReport {
        try importSources([.data(data, name: "<data>")], as: entity, options: options)
    }

    /// Imports payloads from any mix of sources, in one transaction.
    ///
    /// - Parameters:
    ///   - sources: files (`-` for standard input) and bytes in memory, imported in order.
    ///   - entity: the root entity's name.
    ///   - options: root key path, format, error policy, prune, clean-up, dry run, limits.
    ///   - progress: called while the import runs, about ten times a second, on the
    ///     importing thread; like a validator, it may read through the mapper but not write.
    /// - Returns: what the import did.
    /// - Throws: ``ImportError`` for invalid JSON, an unreadable file or a record error under
    ///   `abort`; ``StoreError`` when the store fails.
    @discardableResult
    public func importSources(
        _ sources: [ImportSource], as entity: String, options: ImportOptions = .default,
        progress: ImportProgress.Handler? = nil
    ) throws -> ImportReport {
        try importSources(sources, as: entity, options: options, progress: progress, keepingRootRows: false)
    }

    /// Imports payloads as ``importSources(_:as:options:progress:)`` does; with
    /// `keepingRootRows`, the report lists the row of every root record (what `map` decodes),
    /// which costs memory in proportion to the number of records. `readAhead`: a file read
    /// already, taken rather than read when the import comes to it.
    package func importSources(
        _ sources: [ImportSource], as entity: String, options: ImportOptions, progress: ImportProgress.Handler? = nil,
        keepingRootRows: Bool, readAhead: PayloadReadAhead? = nil
    ) throws -> ImportReport {
        let now = Date().timeIntervalSince1970
        return try store.withLock { store in
            let target = try ImportTarget(named: entity, in: store.plan, options: options)
            var run = ImportRun(store: store, target: target, options: options, now: now)
            run.validators = self.store.validators
            run.progress = progress
            run.keepsRootRows = keepingRootRows
            run.readAhead = readAhead
            return try run.run(sources)
        }
    }
}
