/// Where commands write: results and text reports to standard output, errors to standard error.
///
/// `--quiet` silences text reports only; results a command was asked for (DDL, rows, a JSON
/// report) and errors are always written.
final class Output {
    /// Set from `--quiet` once the command line is parsed.
    var isQuiet: Bool
    private let standardOutput: FileDescriptorStream
    private let standardError: FileDescriptorStream

    init(
        isQuiet: Bool, standardOutput: FileDescriptorStream = .makeStandardOutput(),
        standardError: FileDescriptorStream = .makeStandardError()
    ) {
        self.isQuiet = isQuiet
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Writes output the command exists to produce, even under `--quiet`.
    func result(_ text: String) {
        standardOutput.write(text)
    }

    /// Writes a human-readable report, unless `--quiet` was given.
    func report(_ text: String) {
        guard !isQuiet else { return }
        standardOutput.write(text)
    }

    /// Writes to standard error: rendered error reports and progress, never results.
    func diagnostic(_ text: String) {
        standardOutput.flush()
        standardError.write(text)
    }

    /// `true` when standard error is a terminal.
    var isErrorTerminal: Bool { standardError.isTerminal }

    /// Writes out everything buffered; called once before the tool exits.
    func flush() {
        standardOutput.flush()
        standardError.flush()
    }
}
