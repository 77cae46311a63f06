/// The tool's exit status (SPEC 4).
enum ExitCode: Int32, Sendable {
    case success = 0
    /// The mappings, a payload or a record is invalid, or a named file cannot be read.
    case invalidInput = 1
    /// The command line itself is wrong.
    case usage = 2
    /// The store cannot be opened, is locked past the busy timeout, full or corrupt.
    case storeError = 3
}
