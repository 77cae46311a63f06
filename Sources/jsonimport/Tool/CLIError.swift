import JSONImport

/// An error raised by the tool itself rather than by the library: most often a usage error.
///
/// Library errors are thrown as they are and mapped to exit codes in ``ErrorReport``; this type
/// covers what only the command line can get wrong.
struct CLIError: Error, Sendable, Equatable {
    let code: Code
    /// One line, without the `error: ` prefix.
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// What kind of failure it is; decides the exit code.
    enum Code: Sendable, Equatable {
        /// The command line itself is wrong (exit 2).
        case usage
        /// Input named on the command line is invalid or unreadable (exit 1).
        case invalidInput
        /// The store cannot be used (exit 3).
        case store
    }

    /// A usage error, with a did-you-mean when one of `candidates` is close to `token`.
    static func usage(_ message: String, token: String? = nil, candidates: [String] = []) -> CLIError {
        guard let token, let suggestion = Suggestion.closest(to: token, in: candidates) else {
            return CLIError(.usage, message)
        }
        return CLIError(.usage, "\(message) (did you mean '\(suggestion)'?)")
    }

    static func unknownOption(_ token: String, candidates: [String]) -> CLIError {
        usage("unknown option '\(token)'", token: token, candidates: candidates)
    }

    static func unknownCommand(_ token: String, candidates: [String]) -> CLIError {
        usage("unknown command '\(token)'", token: token, candidates: candidates)
    }

    static func missingValue(for option: String) -> CLIError {
        usage("missing value for option '\(option)'")
    }

    /// A value the option does not accept; `expected` says what it takes.
    static func invalidValue(_ value: String, for option: String, expected: String) -> CLIError {
        usage("invalid value '\(value)' for option '\(option)': expected \(expected)")
    }
}
