/// A `jsonimport` command: parsed and validated from its arguments, run against the library,
/// its result rendered.
///
/// The tool does the rest: it finds the command in ``CommandTable``, prints its help, parses
/// the command line against ``signature`` plus the global options, and turns any error thrown
/// by `init` or `run` into `error:` lines and an exit code (``ErrorReport``).
///
/// ```swift
/// struct StatsCommand: Command {
///     static let signature = CommandSignature(name: "stats", overview: "Counts rows and links.")
///     init(parsing arguments: ParsedArguments) throws(CLIError) {}
///     func run(in context: CommandContext) throws -> StoreStatistics { ... }
///     func render(_ statistics: StoreStatistics, to output: Output) { ... }
/// }
/// ```
protocol Command: Sendable {
    /// What `run` hands to `render`.
    associatedtype Result

    /// Name, arguments and options; drives parsing and help.
    static var signature: CommandSignature { get }

    /// Reads and validates the command's own arguments and options.
    ///
    /// - Throws: a usage error for a malformed value (names checked against the mappings are
    ///   validated in `run`, once the mappings are loaded).
    init(parsing arguments: ParsedArguments) throws(CLIError)

    /// Does the work through library calls; holds no logic a library user would also need.
    ///
    /// - Throws: any library error, or a ``CLIError``; ``ErrorReport`` maps it to an exit code.
    func run(in context: CommandContext) throws -> Result

    /// Writes the result: output the command exists to produce with `output.result`, text
    /// reports (silenced by `--quiet`) with `output.report`.
    func render(_ result: Result, to output: Output)

    /// Whether the command imports in bulk, and so has the allocator keep what it frees (see
    /// ``KeptMemory``).
    static var importsInBulk: Bool { get }
}

extension Command {
    static var importsInBulk: Bool { false }
}
