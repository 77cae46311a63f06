/// A validator's reason to reject a record.
///
/// ```swift
/// throw ValidationError("stars must be even")
/// ```
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the record was rejected; it becomes the record error's message.
    public let message: String

    /// A rejection with `message`.
    ///
    /// - Parameter message: why the record is rejected.
    public init(_ message: String) { self.message = message }

    /// The message, as the record error shows it.
    public var description: String { message }
}
