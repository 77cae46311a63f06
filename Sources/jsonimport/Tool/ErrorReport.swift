import JSONImport

/// The one place that decides how an error ends the tool: its exit code and its lines.
///
/// Rendering (SPEC 4): every error is one line on stderr starting with `error: `. A mapping
/// diagnostic is written `error: <file>:<line>:<col>: <message>` (the loader's
/// `<file>:<line>:<col>: error: <message>` with `error: ` moved to the front, so every error line
/// starts alike); the source excerpt the loader prints under it follows unchanged. Any other
/// error's message is folded onto its one line. A usage error ends with a line pointing at the
/// help to read: `See 'jsonimport import --help'.`
struct ErrorReport: Equatable {
    let exitCode: ExitCode
    let lines: [Line]

    /// One line of the report.
    enum Line: Equatable {
        /// An error; rendered with the `error: ` prefix.
        case error(String)
        /// Context under the error before it (source excerpt, caret, hint), rendered as is.
        case context(String)
    }

    /// Maps `error` to its exit code and lines.
    ///
    /// - Parameters:
    ///   - error: what a command, the parser or the library threw.
    ///   - command: the command being run, if one was recognized; usage errors point at its help.
    init(for error: any Error, command: String?) {
        if let error = error as? MappingLoadError {
            self.init(exitCode: .invalidInput, lines: Self.lines(for: error))
            return
        }
        if let error = error as? DeleteError {
            // A refused deletion is invalid input; each refused row gets its own line.
            self.init(exitCode: .invalidInput, lines: error.lines.map(Line.error))
            return
        }
        let error = Self.classify(error)
        switch error.code {
        case .usage:
            let topic = command.map { "\(HelpText.toolName) \($0) --help" } ?? "\(HelpText.toolName) --help"
            self.init(exitCode: .usage, lines: [.error(error.message), .context("See '\(topic)'.")])
        case .invalidInput:
            self.init(exitCode: .invalidInput, lines: [.error(error.message)])
        case .store:
            self.init(exitCode: .storeError, lines: [.error(error.message)])
        }
    }

    private init(exitCode: ExitCode, lines: [Line]) {
        self.exitCode = exitCode
        self.lines = lines
    }

    /// Sorts a library error into SPEC 4's kinds: usage (2), invalid input (1), store (3).
    ///
    /// A library error type a new command can throw gets its case here.
    private static func classify(_ error: any Error) -> CLIError {
        switch error {
        case let error as CLIError:
            return error
        case let error as StoreError:
            // A refused constraint is bad input; every other store failure is a store error.
            return CLIError(error.code == .constraint ? .invalidInput : .store, error.description)
        case let error as ImportError:
            return CLIError(error.code == .usage ? .usage : .invalidInput, error.message)
        case let error as QueryError:
            return CLIError(.usage, error.message)
        case let error as FilterError:
            return CLIError(.usage, error.description)
        case let error as JSONSyntaxError:
            return CLIError(.invalidInput, error.description)
        case let error as InferenceError:
            return CLIError(error.code == .invalidName ? .usage : .invalidInput, error.message)
        default:
            return CLIError(.invalidInput, String(describing: error))
        }
    }

    /// The text written to stderr. Control characters from the data an error quotes are shown
    /// as `\u{1B}` (tabs kept in context lines, so a caret stays under its column).
    var rendered: String {
        lines.map { line in
            switch line {
            case .error(let message): "error: \(Self.singleLine(TerminalText.escaped(message, keeping: ["\n"])))\n"
            case .context(let text): "\(TerminalText.escaped(text, keeping: ["\t"]))\n"
            }
        }.joined()
    }

    /// `message` with every line break and the indentation after it folded into one space, so an
    /// error (say, one quoting a multi-line SQL statement) stays on its one line.
    private static func singleLine(_ message: String) -> String {
        guard message.contains(where: \.isNewline) else { return message }
        return message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingPrefix(while: \.isWhitespace) }
            .joined(separator: " ")
    }

    /// Each diagnostic as the loader renders it, with `error: ` moved to the start of its line.
    private static func lines(for error: MappingLoadError) -> [Line] {
        error.diagnostics.flatMap { diagnostic -> [Line] in
            let location = "\(diagnostic.location)"
            let rendered = String(describing: diagnostic)
                .split(separator: "\n", omittingEmptySubsequences: false)
            let header = "\(location): error: "
            guard let first = rendered.first, first.hasPrefix(header) else {
                return [.error("\(location): \(diagnostic.message)")]
            }
            let excerpt = rendered.dropFirst().reversed().drop { $0.allSatisfy(\.isWhitespace) }.reversed()
            let message = first.dropFirst(header.count)
            return [.error("\(location): \(message)")] + excerpt.map { .context(String($0)) }
        }
    }
}
