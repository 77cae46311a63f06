import JSONImport

extension CommandContext {
    /// Loads the mappings and opens the store named by `--store`, with `--busy-timeout`.
    ///
    /// - Parameter createsStore: create a missing store (`import`); otherwise a missing store
    ///   is a store error (exit 3).
    /// - Throws: ``MappingLoadError`` for invalid mappings, ``StoreError`` when the store cannot
    ///   be opened, ``MigrationRefused`` when the mappings need a data-losing change.
    func openMapper(createsStore: Bool) throws -> Mapper {
        let configuration = Mapper.Configuration(busyTimeout: globals.busyTimeout, createsStore: createsStore)
        return try Mapper(spec: try loadMappings(), store: .file(globals.storePath), configuration: configuration)
    }
}
