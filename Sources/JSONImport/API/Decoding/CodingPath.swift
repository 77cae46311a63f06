/// A coding path as decoding descends: one node per level, shared by every value below it,
/// and made into the array `Decoder.codingPath` gives only when something asks (an error, or
/// a type that reads its path). Building the array at every level cost an allocation and a
/// copy of the path per decoded value.
///
/// The decoders of rows and relationships are nodes themselves (``CodingPathNode``
/// subclasses), so descending one level costs the one object the decoder is anyway.
struct CodingPath {
    private let node: CodingPathNode?

    /// The empty path, of a top-level value.
    static var root: CodingPath { CodingPath(node: nil) }

    /// The path ending at `node`.
    init(node: CodingPathNode?) { self.node = node }

    /// The path one level down, at `key`.
    func appending(_ key: any CodingKey) -> CodingPath { CodingPath(node: CodingPathNode(parent: self, key: key)) }

    /// The keys from the top down.
    var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self.node
        while let current = node {
            if let key = current.key { keys.append(key) }
            node = current.parent
        }
        return keys.reversed()
    }

    /// The keys from the top down, then `key`.
    func keys(then key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return keys }
        return keys + [key]
    }
}

/// One level of a ``CodingPath``: the key it is at (none for a top-level value) below its parent.
class CodingPathNode {
    let parent: CodingPathNode?
    let key: (any CodingKey)?

    init(parent: CodingPath, key: (any CodingKey)?) {
        self.parent = parent.lastNode
        self.key = key
    }
}

extension CodingPath {
    fileprivate var lastNode: CodingPathNode? { node }
}
