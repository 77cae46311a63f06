/// An import that failed as a whole: invalid JSON, an unreadable file, a record error under
/// `abort`, or an input the command cannot take. Nothing of it was kept.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public let code: Code
    /// What went wrong, ready to print.
    public let message: String
    /// The report of the failed import: its `errors` hold the record error, `changes` are empty.
    public let report: ImportReport

    /// Stable error codes; callers can `catch` a specific one.
    public enum Code: String, Sendable, Hashable {
        /// The payload is not valid JSON (the message gives file, line, column and byte offset).
        case invalidJSON
        /// A named file cannot be read.
        case unreadableFile
        /// A record is invalid (under `onError: abort`) or validation refused it.
        case invalidRecord
        /// The request itself is wrong (unknown entity, owned root, `root` with JSON Lines, a
        /// limit out of range).
        case usage
        /// The payload is larger than `maxPayloadSize`.
        case tooLarge
        /// An HTTP request of a fetch failed: a status that is not a success, or no answer
        /// (a timeout, a cut connection) past the retries. The message names the URL.
        case http
    }

    /// The message (the same as ``message``).
    public var description: String { message }
}

extension ImportError {
    /// A failure of the whole payload, before anything was kept: its report holds `issue` alone.
    init(code: Code, message: String, issue: ImportIssue) {
        var report = ImportReport(entity: nil)
        report.errors = [issue]
        self.init(code: code, message: message, report: report)
    }
}
