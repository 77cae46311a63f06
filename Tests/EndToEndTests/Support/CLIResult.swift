/// What one child process produced.
struct CLIResult: Equatable, CustomStringConvertible {
    var exitCode: Int32
    var stdout: String
    var stderr: String
    /// The signal that ended the child (then `exitCode` is its number), or `nil` for an exit.
    var signal: Int32? = nil

    /// Shown by failing expectations: the whole run at a glance.
    var description: String {
        let end = signal.map { "killed by signal \($0)" } ?? "exit \(exitCode)"
        return "\(end)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}
