import Foundation

/// How an import runs (SPEC 2.3, 4.1).
///
/// ```swift
/// let report = try mapper.importFile("users.json", as: "User", options: .init(onError: .skip))
/// ```
public struct ImportOptions: Sendable, Hashable {
    /// Key path of the record list in the payload; overrides the entity's `root`.
    public var root: String?
    /// Payload format; by default from the file extension (`.jsonl`, `.ndjson` → JSON Lines).
    public var format: PayloadFormat?
    /// Sync mode: delete rows of the root entity that the import did not contain.
    public var prune: Bool
    /// With ``prune``: prune only the root rows matching this filter (SPEC 4.3), evaluated
    /// after the import's records are applied: a sync of one parent's children
    /// (`repository.fullName = 'acme/app'`). Without `prune`, a usage error.
    public var pruneScope: String?
    /// What a record error does to the import; ``ErrorPolicy/abort`` by default.
    public var onError: ErrorPolicy
    /// Run the clean-up pass after the records (SPEC 2.5).
    public var cleanup: Bool
    /// Do all the work, count it, then roll it back.
    public var dryRun: Bool
    /// List every deleted row and why in the report.
    public var explain: Bool
    /// The deepest nesting of arrays and objects a payload may have (1 ... ``maximumDepthLimit``);
    /// deeper payloads are refused as invalid JSON.
    public var maxDepth: Int
    /// The largest JSON document read, in bytes; a JSON Lines payload may be any size, but each
    /// of its lines counts alone. Larger payloads are refused before they are parsed.
    public var maxPayloadSize: Int
    /// How documents are parsed ahead of the import (the tests make small batches).
    var parseAhead = JSONParser.ParseAhead.default

    /// Creates import options; the defaults match ``default``.
    ///
    /// - Parameters:
    ///   - root: key path of the record list; `nil` uses the entity's `root`.
    ///   - format: payload format; `nil` decides from the file extension.
    ///   - prune: delete root-entity rows the import did not contain; `false` by default.
    ///   - pruneScope: with `prune`, prune only the root rows matching this filter.
    ///   - onError: what a record error does; `.abort` by default.
    ///   - cleanup: run the clean-up pass after the records; `true` by default.
    ///   - dryRun: do and count everything, then roll it back; `false` by default.
    ///   - explain: list every deleted row and why in the report; `false` by default.
    ///   - maxDepth: the deepest nesting a payload may have; ``defaultMaxDepth`` by default.
    ///   - maxPayloadSize: the largest JSON document (for JSON Lines, line) in bytes;
    ///     ``defaultMaxPayloadSize`` by default.
    public init(
        root: String? = nil, format: PayloadFormat? = nil, prune: Bool = false, pruneScope: String? = nil,
        onError: ErrorPolicy = .abort,
        cleanup: Bool = true, dryRun: Bool = false, explain: Bool = false,
        maxDepth: Int = ImportOptions.defaultMaxDepth, maxPayloadSize: Int = ImportOptions.defaultMaxPayloadSize
    ) {
        self.root = root
        self.format = format
        self.prune = prune
        self.pruneScope = pruneScope
        self.onError = onError
        self.cleanup = cleanup
        self.dryRun = dryRun
        self.explain = explain
        self.maxDepth = maxDepth
        self.maxPayloadSize = maxPayloadSize
    }

    /// The entity's own root, format by file extension, no prune, abort on the first record
    /// error, clean-up on, changes kept, no explanation.
    public static let `default` = ImportOptions()

    /// Nesting accepted by default: far beyond what APIs send, well within the parser's stack.
    public static let defaultMaxDepth = JSONParser.defaultMaxDepth
    /// The largest `maxDepth`: the parser recurses once per level on the calling thread's stack.
    public static let maximumDepthLimit = 10_000
    /// 1 GiB: a parsed document takes several times its size in memory.
    public static let defaultMaxPayloadSize = 1 << 30

    /// What a record error does to the import.
    public enum ErrorPolicy: String, Sendable, Hashable, CaseIterable {
        /// The first record error rolls everything back.
        case abort
        /// A record with an error is left out whole; the rest is kept.
        case skip
    }
}
