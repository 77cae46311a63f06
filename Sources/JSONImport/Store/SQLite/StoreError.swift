/// An error from the store: it could not be opened, was busy past the timeout, is corrupt, or a
/// statement failed. Carries the SQL that failed (bound values are never part of it).
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public let code: Code
    /// What went wrong, without the SQL.
    public let message: String
    /// The statement that failed, if any.
    public let sql: String?

    /// Creates a store error.
    ///
    /// - Parameters:
    ///   - code: what kind of failure it is.
    ///   - message: what went wrong.
    ///   - sql: the statement that failed, without bound values; `nil` when none did.
    public init(_ code: Code, _ message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
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
        /// The file is not a JSONImport store, or is corrupt.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The disk is full.
        public static let full = Code(rawValue: "full")
        /// A constraint (unique, foreign key, not null) refused a write.
        public static let constraint = Code(rawValue: "constraint")
        /// Any other SQLite failure.
        public static let sqlite = Code(rawValue: "sqlite")
        /// A validator or progress handler tried to write through the mapper while its import
        /// runs (it may read).
        public static let writeDuringImport = Code(rawValue: "writeDuringImport")
    }

    /// The message, followed by `(in: SQL)` when a statement failed.
    public var description: String {
        if let sql { return "\(message) (in: \(sql))" }
        return message
    }
}
