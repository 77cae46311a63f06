/// The tool's exit status (SPEC 4).
enum ExitCode: Int32, Sendable {
    case success = 0
    /// The mappings, a payload or a record is invalid, or a named file cannot be read.
    case invalidInput = 1
    /// The command line itself is wrong.
    case usage = 2
    /// The store cannot be opened or created, is locked past the busy timeout, cannot be
    /// written (disk full, read-only, past the file-size limit), is corrupt, not a store, or of
    /// a newer or unreadable format version.
    case storeError = 3
}
