import JSONImport

/// What a running command may use besides its own arguments.
struct CommandContext {
    let globals: GlobalOptions
    let environment: [String: String]
    /// `true` when a progress bar may be drawn: stderr is a terminal and neither `--quiet`
    /// nor `--no-progress` was given.
    let showsProgress: Bool
    /// For progress drawn while `run` works (`output.diagnostic`); results belong in `render`.
    let output: Output

    /// Loads and validates the mappings named by `--mappings`.
    ///
    /// - Throws: every problem found, with its location.
    func loadMappings() throws(MappingLoadError) -> MappingSpec {
        try MappingSpec.load(from: globals.mappingsPath)
    }

    /// Opens the store named by `--store` for the mappings. Only `import` creates a missing
    /// store (see ``withStoreCreatedOnSuccess(_:)``); for every other command a missing store is
    /// a store error (exit 3).
    func openMapper(createsStore: Bool) throws -> Mapper {
        let spec = try loadMappings()
        return try Mapper(
            spec: spec, store: Mapper.StoreLocation(globals.storePath),
            configuration: Mapper.Configuration(busyTimeout: globals.busyTimeout, createsStore: createsStore))
    }

    /// Runs `body` with the store named by `--store`; a missing store is created and kept only
    /// if `body` succeeds, so a first import that fails leaves no file behind.
    func withStoreCreatedOnSuccess<R>(_ body: (Mapper) throws -> R) throws -> R {
        try Mapper.withStore(
            at: globals.storePath, spec: loadMappings(),
            configuration: Mapper.Configuration(busyTimeout: globals.busyTimeout, createsStore: true), body)
    }
}
