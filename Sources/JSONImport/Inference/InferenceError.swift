/// Samples a mapping cannot be inferred from. Payloads that cannot be read (a missing file,
/// invalid JSON, a document past the size limit) throw ``ImportError`` as an import would.
///
/// ```swift
/// do {
///     _ = try MappingDraft(inferring: "User", from: [.file("empty.json")])
/// } catch let error as InferenceError where error.code == .noRecords {
///     print(error.message)   // "no records to infer a mapping from in empty.json"
/// }
/// ```
public struct InferenceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public let code: Code
    /// What went wrong, ready to print: the file and JSON path first where there is one.
    public let message: String
    /// Where it happened, as far as known.
    public let location: ErrorLocation

    /// Stable error codes; callers can `catch` a specific one.
    public enum Code: String, Sendable, Hashable {
        /// The entity name is not one the mappings accept (`[A-Za-z_][A-Za-z0-9_]*`, no leading `_`).
        case invalidName
        /// The samples hold no records (empty lists, empty JSON Lines, no sources).
        case noRecords
        /// A record is not a JSON object, or the records hold no keys at all.
        case notARecord
        /// JSON samples hold their records in different places (one under `items`, another at
        /// the top): no one `root` fits them all.
        case conflictingRoots
        /// The draft failed validation: a fault of the inference, not of the samples; the
        /// message lists the loader's diagnostics.
        case invalidDraft
    }

    init(_ code: Code, _ message: String, at location: ErrorLocation = ErrorLocation()) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// The message (the same as ``message``).
    public var description: String { message }
}

extension InferenceError: JSONImportError {}
