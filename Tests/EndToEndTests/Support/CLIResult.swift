/// What one child process produced.
struct CLIResult: Equatable, CustomStringConvertible {
    var exitCode: Int32
    var stdout: String
    var stderr: String

    /// Shown by failing expectations: the whole run at a glance.
    var description: String {
        "exit \(exitCode)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}
