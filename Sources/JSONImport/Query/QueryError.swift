/// A request the mappings cannot serve: an unknown entity or field, a malformed filter, a key
/// that does not convert. The command line reports it as a usage error (exit 2).
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake it is.
    public let code: Code
    /// What is wrong with the request, ready to print.
    public let message: String
    /// For a filter that is wrong, the 1-based column in its expression, when known.
    public let column: Int?

    /// Stable error codes; callers can `catch` a specific one.
    public enum Code: String, Sendable, Hashable {
        /// No entity of that name.
        case unknownEntity
        /// The entity has no attribute, relationship or field of that name.
        case unknownField
        /// The filter expression is malformed, or compares what it cannot.
        case invalidFilter
        /// A primary key that does not convert to the key's type, has the wrong number of
        /// values, or an entity without a key (an owned one) asked for by key.
        case invalidKey
        /// Anything else the request gets wrong: a negative depth, age, limit or offset,
        /// nothing named to delete, a value that cannot be created or compared.
        case invalidRequest
    }

    /// Creates an error with code ``Code/invalidRequest``.
    ///
    /// - Parameter message: what is wrong with the request.
    public init(_ message: String) { self.init(.invalidRequest, message) }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what kind of mistake it is.
    ///   - message: what is wrong with the request.
    ///   - column: for a filter, the column in the expression.
    public init(_ code: Code, _ message: String, column: Int? = nil) {
        self.code = code
        self.message = message
        self.column = column
    }

    /// The error for a filter that does not parse or apply, with its column.
    init(_ filter: FilterError) { self.init(.invalidFilter, filter.description, column: filter.column) }

    /// The message (the same as ``message``).
    public var description: String { message }
}
