import Foundation

/// How a fetch's failures read (SPEC 7): each names the URL of the page, and the status or
/// what happened instead; in the report the error's `file` is the URL.
extension FetchFeed {
    /// A failure of the page at `url`.
    func failure(_ url: URL, _ message: String, code: ImportError.Code = .http) -> ImportError {
        ImportError(
            code: code, message: "\(url.absoluteString): \(message)",
            issue: ImportIssue(file: url.absoluteString, record: nil, path: "$", message: message))
    }

    /// A request to `url` that got no answer, after `attempts` attempts.
    func failure(_ url: URL, _ problem: TransportFailure, attempts: Int) -> ImportError {
        let detail = problem.detail.map { ": \(TerminalText.escaped($0))" } ?? ""
        let note = attempts > 1 ? " (\(attempts) attempts)" : ""
        switch problem.kind {
        case .timedOut: return failure(url, "no complete response within \(Self.seconds(options.timeout)) s\(note)")
        case .connectionLost: return failure(url, "the connection was cut before the response was complete\(detail)\(note)")
        case .tooLarge:
            return failure(
                url, "the response is larger than the limit of \(options.importOptions.maxPayloadSize) bytes", code: .tooLarge)
        case .unsupported: return failure(url, "cannot be requested\(detail)")
        case .other: return failure(url, "no response\(detail)\(note)")
        }
    }

    /// `error`, which stopped the import of this fetch, as the fetch reports it: a page whose
    /// body is not JSON is named with its status.
    func explained(_ error: ImportError) -> ImportError {
        guard error.code == .invalidJSON, let issue = error.report.errors.first, let file = issue.file,
            let page = pages.last(where: { $0.url.absoluteString == file })
        else { return error }
        var place = [issue.line.map { "line \($0)" }, issue.column.map { "column \($0)" }].compactMap { $0 }.joined(separator: ", ")
        if let offset = issue.offset { place += " (byte \(offset))" }
        let reason = issue.message.hasPrefix("invalid JSON: ") ? String(issue.message.dropFirst("invalid JSON: ".count)) : issue.message
        let message = "HTTP status \(page.status), but the body is not JSON: \(place): \(reason)"
        return ImportError(code: error.code, message: "\(file): \(message)", report: error.report)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && value < 1e15 ? String(Int64(value)) : String(value)
    }
}
