/// The options every command accepts, before or after the command name (SPEC 4).
struct GlobalOptions: Sendable {
    /// Mapping file or directory.
    let mappingsPath: String
    /// Store file, `:memory:`, or a `postgres://` URL.
    let storePath: String
    /// Seconds a writer waits for other writers before failing with a store error.
    let busyTimeout: Double
    let isQuiet: Bool
    /// `--no-progress` was given.
    let isProgressDisabled: Bool

    static let mappingsVariable = "JSONIMPORT_MAPPINGS"
    static let storeVariable = "JSONIMPORT_STORE"
    static let defaultMappingsPath = "./Mappings"
    static let defaultStorePath = "./jsonimport.sqlite"
    static let defaultBusyTimeout = 30.0

    /// Declarations of the global options, in the order help lists them.
    static let options: [OptionSpec] = [
        .value(
            "--mappings", "PATH",
            help: "Mapping file, or directory whose *.yml and *.yaml files are read in name order.",
            default: "$\(mappingsVariable), else \(defaultMappingsPath)"),
        .value(
            "--store", "PATH", help: "Store file, or a postgres:// URL (a schema of a PostgreSQL database, ?schema=NAME); ':memory:' keeps the store in memory for one command.",
            default: "$\(storeVariable), else \(defaultStorePath)"),
        .value(
            "--busy-timeout", "SECONDS",
            help: "How long a writer waits for other processes writing to the store.",
            default: "30"),
        .flag(
            "--quiet",
            help: "Prints no progress bar and no text reports; errors and requested output still print."),
        .flag("--no-progress", help: "Draws no progress bar (one is drawn only when stderr is a terminal)."),
    ]

    /// Reads the global options from the command line, falling back on the environment.
    ///
    /// An empty environment variable counts as unset.
    /// - Throws: a usage error for an empty path or a malformed `--busy-timeout`.
    init(_ parsed: ParsedArguments, environment: [String: String]) throws(CLIError) {
        func variable(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        for option in ["--mappings", "--store"] where parsed.value(of: option) == "" {
            throw .invalidValue("", for: option, expected: "a path")
        }
        mappingsPath =
            parsed.value(of: "--mappings") ?? variable(Self.mappingsVariable) ?? Self.defaultMappingsPath
        storePath = parsed.value(of: "--store") ?? variable(Self.storeVariable) ?? Self.defaultStorePath
        busyTimeout = try parsed.number(of: "--busy-timeout", minimum: 0) ?? Self.defaultBusyTimeout
        isQuiet = parsed.isSet("--quiet")
        isProgressDisabled = parsed.isSet("--no-progress")
    }
}
