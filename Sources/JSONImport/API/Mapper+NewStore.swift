import Foundation

extension Mapper {
    /// Runs `body` with a mapper on the store at `path`, creating a missing store only if `body`
    /// succeeds: what `jsonimport import` does, so that a first import that fails leaves no
    /// store file behind.
    ///
    /// An existing store (or `:memory:`, or a store `configuration` does not create) is opened in
    /// place. A missing one is built under a temporary name beside `path` (see
    /// ``NewStoreFile``) and moved into place when `body` returns; when `body` throws, it is
    /// removed. `body` must not keep the mapper past its return.
    ///
    /// ```swift
    /// let report = try Mapper.withStore(at: "cache.sqlite", spec: spec) { try $0.importFile("users.json", as: "User") }
    /// ```
    /// - Throws: what opening the store or `body` throws; ``StoreError`` when the new store
    ///   cannot be put in place.
    package static func withStore<R>(
        at path: String, spec: MappingSpec, configuration: Configuration = .default, _ body: (Mapper) throws -> R
    ) throws -> R {
        let location = StoreLocation(path)
        if case .postgres = location, configuration.createsStore {
            // PostgreSQL creates the store's tables in place and removes them again on failure.
            let mapper = try Mapper(spec: spec, store: location, configuration: configuration)
            do {
                return try body(mapper)
            } catch {
                try? mapper.store.withLock { try ($0.engine as? PostgresEngine)?.discardNewStore() }
                throw error
            }
        }
        guard case .file = location, configuration.createsStore, !FileManager.default.fileExists(atPath: path),
            let creation = try NewStoreFile.claim(path, timeout: configuration.busyTimeout)
        else {
            return try body(Mapper(spec: spec, store: location, configuration: configuration))
        }
        do {
            var mapper: Mapper? = try Mapper(spec: spec, location: creation.location, configuration: configuration)
            let result = try body(mapper!)
            try mapper!.checkpointForMove()
            precondition(isKnownUniquelyReferenced(&mapper), "the mapper of a new store was kept past withStore's body")
            mapper = nil
            try creation.publish()
            return result
        } catch {
            creation.discard()
            throw error
        }
    }

    /// Writes the WAL back into the store file, so that the file holds everything when it moves
    /// (the WAL, named after the file, does not follow it).
    private func checkpointForMove() throws {
        try store.withLock { store in
            // A new store is a file: only SQLite's are built under another name and moved.
            guard let file = store.engine as? SQLiteEngine, try file.checkpointEmptyingWAL() else {
                throw StoreError(.busy, "store '\(store.name)': its write-ahead log is still in use")
            }
        }
    }
}
