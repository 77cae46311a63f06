/// An error from the store: it could not be opened, was busy past the timeout, is corrupt, not a
/// store or of a newer format, could not be written (disk full, read-only, file too large), or a
/// statement failed. Carries the SQL that failed (bound values are never part of it); its
/// description names the operation instead, so no SQL text reaches a user.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public let code: Code
    /// What went wrong, without the SQL.
    public let message: String
    /// The statement that failed, if any.
    public let sql: String?
    /// What the store was doing when it failed, such as `inserting into User`: the operation
    /// of ``sql``, or a step without one of its own (`opening`); `nil` when not known.
    public let operation: String?

    /// Creates a store error.
    ///
    /// - Parameters:
    ///   - code: what kind of failure it is.
    ///   - message: what went wrong.
    ///   - sql: the statement that failed, without bound values; `nil` when none did. The
    ///     error's ``operation`` is named after it.
    public init(_ code: Code, _ message: String, sql: String? = nil) {
        self.init(code, message, sql: sql, operation: sql.map(Self.operation(of:)))
    }

    init(_ code: Code, _ message: String, sql: String?, operation: String?) {
        self.code = code
        self.message = message
        self.sql = sql
        self.operation = operation
    }

    /// The error for a store file that cannot be written for `code`'s reason: `full`,
    /// `readOnly` or `fileTooLarge`.
    static func cannotWrite(_ code: Code, store: String, sql: String? = nil) -> StoreError {
        let cause =
            switch code {
            case .full: "disk full"
            case .readOnly: "read-only, the file or its folder cannot be written"
            case .fileTooLarge: "file too large, past the file-size limit"
            default: preconditionFailure("no cause of a failed write for \(code.rawValue)")
            }
        return StoreError(code, "store '\(store)': \(cause)", sql: sql)
    }

    /// The error for a store another writer held locked past the busy timeout, worded alike
    /// for every store.
    static func busy(store: String, timeout: Double, sql: String?, operation: String? = nil) -> StoreError {
        let message = "store '\(store)' is busy: another importer held it past \(String(format: "%g", timeout)) s"
        return StoreError(.busy, message, sql: sql, operation: operation ?? sql.map(Self.operation(of:)))
    }

    /// This error, happened while `operation` ran (whatever statement it ran).
    func during(_ operation: String) -> StoreError {
        StoreError(code, message, sql: sql, operation: operation)
    }

    /// Stable error codes; callers can `catch` a specific one.
    public struct Code: RawRepresentable, Sendable, Hashable {
        /// The stable name, such as `busy`.
        public let rawValue: String
        /// Creates a code from its stable name.
        ///
        /// - Parameter rawValue: the code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The store file cannot be opened or created.
        public static let cannotOpen = Code(rawValue: "cannotOpen")
        /// The store does not exist (and the operation does not create one).
        public static let notFound = Code(rawValue: "notFound")
        /// Another process held the store locked past the busy timeout.
        public static let busy = Code(rawValue: "busy")
        /// The store is corrupt, or the file is not a database at all.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The file is another application's database, not a JSONImport store; it is left as it
        /// was.
        public static let notAStore = Code(rawValue: "notAStore")
        /// The store records a format version newer than this build's, or one that cannot be
        /// read; nothing was written to it.
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// The disk (or the user's quota) is full.
        public static let full = Code(rawValue: "full")
        /// The store, or the folder its journal goes in, cannot be written.
        public static let readOnly = Code(rawValue: "readOnly")
        /// A store file reached the process's file-size limit (`ulimit -f`).
        public static let fileTooLarge = Code(rawValue: "fileTooLarge")
        /// Reading or writing a store file failed.
        public static let ioError = Code(rawValue: "ioError")
        /// A constraint (unique, foreign key, not null) refused a write.
        public static let constraint = Code(rawValue: "constraint")
        /// Any other failure the store reported.
        public static let other = Code(rawValue: "other")
        /// A PostgreSQL store refused a statement for a reason no other code names (a
        /// serialization failure, a value out of range, an object that does not exist); the
        /// message is the server's.
        public static let postgres = Code(rawValue: "postgres")
        /// A validator or progress handler tried to write through the mapper while its import
        /// runs (it may read).
        public static let writeDuringImport = Code(rawValue: "writeDuringImport")
    }

    /// Whether the store itself failed (it cannot be read or written, is locked, corrupt), as
    /// opposed to a statement refusing what it was given (a constraint, a value SQLite cannot
    /// take). A record error of an import is never one: the import stops with this error.
    var isStoreFailure: Bool {
        [.cannotOpen, .notFound, .busy, .corrupt, .notAStore, .unsupportedFormat, .full, .readOnly, .fileTooLarge, .ioError]
            .contains(code)
    }

    /// The message, followed by `(while OPERATION)` when a statement failed.
    public var description: String {
        if let operation { return "\(message) (while \(operation))" }
        return message
    }
}
