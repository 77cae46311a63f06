import JSONImport

/// The one place that decides how an error ends the tool: its exit code and its lines.
///
/// Rendering (SPEC 4): every error is one line on stderr starting with `error: `. A mapping
/// diagnostic is written `error: <file>:<line>:<col>: <message>` (the loader's
/// `<file>:<line>:<col>: error: <message>` with `error: ` moved to the front, so every error line
/// starts alike); the source excerpt the loader prints under it follows unchanged.
/// A usage error ends with a line pointing at the help to read.
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
        switch error {
        case let error as CLIError:
            self.init(error, command: command)
        case let error as MappingLoadError:
            self.init(exitCode: .invalidInput, lines: Self.lines(for: error))
        case let error as StoreError:
            // A refused constraint is bad input (SPEC 4: exit 1); every other store failure is 3.
            let code: ExitCode = error.code == .constraint ? .invalidInput : .storeError
            self.init(exitCode: code, lines: [.error(error.description)])
        default:
            self.init(exitCode: .invalidInput, lines: [.error(String(describing: error))])
        }
    }

    private init(exitCode: ExitCode, lines: [Line]) {
        self.exitCode = exitCode
        self.lines = lines
    }

    private init(_ error: CLIError, command: String?) {
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

    /// The text written to stderr.
    var rendered: String {
        lines.map { line in
            switch line {
            case .error(let message): "error: \(message)\n"
            case .context(let text): "\(text)\n"
            }
        }.joined()
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
