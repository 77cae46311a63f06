/// A coding path as decoding descends: one node per level, shared by every value below it,
/// and made into the array `Decoder.codingPath` gives only when something asks (an error, or
/// a type that reads its path). Building the array at every level cost an allocation and a
/// copy of the path per decoded value.
struct CodingPath {
    private final class Node {
        let parent: Node?
        let key: any CodingKey

        init(parent: Node?, key: any CodingKey) {
            self.parent = parent
            self.key = key
        }
    }

    private let node: Node?

    /// The empty path, of a top-level value.
    static var root: CodingPath { CodingPath(node: nil) }

    private init(node: Node?) { self.node = node }

    /// The path one level down, at `key`.
    func appending(_ key: any CodingKey) -> CodingPath { CodingPath(node: Node(parent: node, key: key)) }

    /// The keys from the top down.
    var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self.node
        while let current = node {
            keys.append(current.key)
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
