/// The payloads of one import, handed over one at a time as the import gets to each: a list of
/// sources known in advance, or the pages of an HTTP fetch, each found from the one before.
///
/// The import calls ``rewind()`` before each pass over the payloads (an import under `skip`
/// may read them twice), inside its transaction, so a feed may read and write the store there:
/// what it writes is kept or undone with the import.
protocol PayloadFeed: AnyObject {
    /// Every payload, when all are known before the import reads the first (progress sizes
    /// come from them); `nil` when they come as the import goes.
    var knownSources: [ImportSource]? { get }
    /// Whether the import hands ``finished(keys:)`` the primary keys of the root records.
    var collectsKeys: Bool { get }
    /// Goes back to before the first payload.
    func rewind() throws
    /// The next payload; `nil` after the last.
    func next() throws -> FeedPayload?
    /// The import is done with the source ``next()`` handed over last: `keys` holds the primary
    /// key of each of its root records that has one, in payload order (when ``collectsKeys``).
    func finished(keys: [[StoredValue]]) throws
}

/// A payload of a ``PayloadFeed``.
enum FeedPayload {
    /// A payload to read.
    case source(ImportSource)
    /// A payload the store holds already (an HTTP `304`): the rows with these primary keys
    /// count as read again, unchanged.
    case unchanged(keys: [[StoredValue]])
}

/// The payloads of an import of files and bytes: every one known from the start.
final class SourceList: PayloadFeed {
    let sources: [ImportSource]
    private var position = 0

    init(_ sources: [ImportSource]) { self.sources = sources }

    var knownSources: [ImportSource]? { sources }
    var collectsKeys: Bool { false }

    func rewind() { position = 0 }

    func next() -> FeedPayload? {
        guard position < sources.count else { return nil }
        defer { position += 1 }
        return .source(sources[position])
    }

    func finished(keys: [[StoredValue]]) {}
}
