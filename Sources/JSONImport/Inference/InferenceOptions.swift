/// How ``MappingDraft/init(inferring:from:options:)-6b9ih`` reads its samples.
///
/// ```swift
/// let options = InferenceOptions(root: "data.items")
/// let draft = try MappingDraft(inferring: "Issue", from: [.file("page1.json")], options: options)
/// ```
public struct InferenceOptions: Sendable, Hashable {
    /// Key path of the record list in every JSON sample (`data.items`); `nil` finds it: a sample
    /// that is an object without an `id`, holding one list of objects, has its records there.
    /// Not for JSON Lines.
    public var root: String?
    /// The samples' format; `nil` decides by file name (`.jsonl`, `.ndjson` are JSON Lines).
    public var format: PayloadFormat?
    /// Deepest nesting of arrays and objects accepted in a sample.
    public var maxDepth: Int
    /// Largest JSON document read, in bytes (for JSON Lines, the longest line).
    public var maxPayloadSize: Int

    /// Options; every one defaults to what an import uses.
    ///
    /// - Parameters:
    ///   - root: key path of the record list, or `nil` to find it.
    ///   - format: the samples' format, or `nil` to decide by file name.
    ///   - maxDepth: deepest nesting accepted.
    ///   - maxPayloadSize: largest document read, in bytes.
    public init(
        root: String? = nil, format: PayloadFormat? = nil, maxDepth: Int = ImportOptions.defaultMaxDepth,
        maxPayloadSize: Int = ImportOptions.defaultMaxPayloadSize
    ) {
        self.root = root
        self.format = format
        self.maxDepth = maxDepth
        self.maxPayloadSize = maxPayloadSize
    }

    /// Finds the root, decides the format by file name, with an import's limits.
    public static let `default` = InferenceOptions()
}
