import Foundation

/// What every error the library throws has in common (SPEC 3): a stable code, a message for
/// people, and where it happened as far as known.
///
/// Each error type keeps its own typed `code`, to switch on; through this protocol, code that
/// handles any of the library's errors reads the code's stable name:
///
/// ```swift
/// do {
///     try mapper.importFile("users.json", as: "User")
/// } catch let error as ImportError where error.code == .invalidJSON {
///     print("not JSON:", error.location.line ?? 0)
/// } catch let error as any JSONImportError {
///     log(code: error.codeName, error.message, at: error.location)
/// }
/// ```
///
/// The errors are `LocalizedError`s whose description is the message, so `localizedDescription`
/// (and an alert built from the error) shows what went wrong rather than "The operation could
/// not be completed". Decoding a stored row into a type that does not fit it throws Swift's own
/// `DecodingError`, whose context names the property; cancelling an async call throws
/// `CancellationError`.
public protocol JSONImportError: LocalizedError, CustomStringConvertible, Sendable {
    /// The type of the error's codes: names that stay the same from release to release.
    associatedtype Code: RawRepresentable<String>, Sendable, Hashable

    /// What kind of failure it is.
    var code: Code { get }
    /// What went wrong, ready to show.
    var message: String { get }
    /// Where it happened: file, record, JSON path, line, column, whichever are known.
    var location: ErrorLocation { get }
}

extension JSONImportError {
    /// The stable name of ``code``, such as `invalidJSON` or `busy`.
    public var codeName: String { code.rawValue }

    /// The message, as `localizedDescription` shows it.
    public var errorDescription: String? { description }
}

/// Where an error happened, as far as known: every part is optional.
public struct ErrorLocation: Sendable, Hashable, CustomStringConvertible {
    /// The payload, mapping or other file, as it was named.
    public var file: String?
    /// The 0-based index of the root record in its payload.
    public var record: Int?
    /// The JSON path of the value, such as `$[3].owner.id`.
    public var path: String?
    /// 1-based line and column in the file (or, for a filter expression, the column in it).
    public var line: Int?
    public var column: Int?

    /// A location; every part defaults to unknown.
    public init(file: String? = nil, record: Int? = nil, path: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.record = record
        self.path = path
        self.line = line
        self.column = column
    }

    /// `true` when nothing is known.
    public var isUnknown: Bool { self == ErrorLocation() }

    /// `file:line:column`, then the record and path, with what is known (empty when nothing is).
    public var description: String {
        var parts: [String] = []
        let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        if !place.isEmpty { parts.append(place) }
        if let record { parts.append("record \(record)") }
        if let path { parts.append(path) }
        return parts.joined(separator: " ")
    }
}

extension ImportError: JSONImportError {
    /// The first record error's place (for invalid JSON, the file, line and column).
    public var location: ErrorLocation { report.errors.first?.location ?? ErrorLocation() }
}

extension ImportIssue: JSONImportError {
    /// The codes of record errors.
    public enum Code: String, Sendable, Hashable {
        /// The record (or a value in it) breaks the mapping, or a validator refused it.
        case invalidRecord
    }

    /// Always ``Code/invalidRecord``.
    public var code: Code { .invalidRecord }

    public var location: ErrorLocation {
        ErrorLocation(file: file, record: record, path: path, line: line, column: column)
    }
}

extension StoreError: JSONImportError {
    /// Store errors name no place in a file; ``operation`` says what the store was doing.
    public var location: ErrorLocation { ErrorLocation() }
}

extension DeleteError: JSONImportError {
    public var location: ErrorLocation { ErrorLocation() }
}

extension QueryError: JSONImportError {
    /// The column in the filter expression, when the filter is what is wrong.
    public var location: ErrorLocation { ErrorLocation(column: column) }
}

extension FilterError: JSONImportError {
    /// The codes of filter errors.
    public enum Code: String, Sendable, Hashable {
        /// The expression does not parse, or names a field or compares a value it cannot.
        case invalidFilter
    }

    /// Always ``Code/invalidFilter``.
    public var code: Code { .invalidFilter }

    public var location: ErrorLocation { ErrorLocation(column: column) }
}

extension ValidationError: JSONImportError {
    /// The codes of validation errors.
    public enum Code: String, Sendable, Hashable {
        /// A validator refused the record.
        case rejected
    }

    /// Always ``Code/rejected``.
    public var code: Code { .rejected }

    /// A validator's refusal names no place; the record error it becomes does.
    public var location: ErrorLocation { ErrorLocation() }
}

extension JSONSyntaxError: JSONImportError {
    /// The codes of JSON syntax errors.
    public enum Code: String, Sendable, Hashable {
        /// The text is not valid JSON.
        case invalidJSON
    }

    /// Always ``Code/invalidJSON``.
    public var code: Code { .invalidJSON }

    public var location: ErrorLocation { ErrorLocation(line: line, column: column) }
}

extension MappingLoadError: JSONImportError {
    /// The first problem's code.
    public var code: MappingDiagnostic.Code { diagnostics[0].code }

    /// Every problem, one per line, each with its file, line and column.
    public var message: String { description }

    /// The first problem's file, line and column.
    public var location: ErrorLocation {
        let first = diagnostics[0].location
        return ErrorLocation(file: first.file, line: first.line, column: first.column)
    }
}

extension MigrationRefused: JSONImportError {
    /// The codes of refused migrations.
    public enum Code: String, Sendable, Hashable {
        /// The migration would lose stored data, and losing it was not allowed.
        case losesData
    }

    /// Always ``Code/losesData``.
    public var code: Code { .losesData }

    /// The changes that would lose data.
    public var message: String { description }

    public var location: ErrorLocation { ErrorLocation() }
}

extension CodegenError: JSONImportError {
    /// The codes of code generation errors.
    public enum Code: String, Sendable, Hashable {
        /// The mapping has a shape Swift types cannot take.
        case unsupportedShape
    }

    /// Always ``Code/unsupportedShape``.
    public var code: Code { .unsupportedShape }

    public var location: ErrorLocation { ErrorLocation() }
}
