internal import CSimdJSON
import Foundation

/// A parsed, validated JSON document: a flat tape of nodes in document order.
struct JSONDocument {
    let nodes: UnsafeBufferPointer<ji_node>
    /// Keeps the bytes that strings and numbers point into alive.
    let input: JSONInput
    /// Keeps the tape alive.
    let parser: JSONParser

    var root: JSONValue { JSONValue(nodes: nodes, index: 0) }
}

/// One value in a ``JSONDocument``. Valid while its document is.
struct JSONValue {
    fileprivate let nodes: UnsafeBufferPointer<ji_node>
    let index: Int

    init(nodes: UnsafeBufferPointer<ji_node>, index: Int) {
        self.nodes = nodes
        self.index = index
    }

    enum Kind: Equatable {
        case null, bool, number, string, array, object
    }

    private var node: ji_node { nodes[index] }

    var kind: Kind {
        switch Int32(node.type) {
        case Int32(JI_NULL.rawValue): return .null
        case Int32(JI_FALSE.rawValue), Int32(JI_TRUE.rawValue): return .bool
        case Int32(JI_STRING.rawValue): return .string
        case Int32(JI_ARRAY.rawValue): return .array
        case Int32(JI_OBJECT.rawValue): return .object
        default: return .number
        }
    }

    var isNull: Bool { node.type == UInt8(JI_NULL.rawValue) }

    /// Byte offset of the value in its document.
    var offset: Int { Int(node.offset) }

    /// The Boolean, or `nil` if this is not `true`/`false`.
    var bool: Bool? {
        switch node.type {
        case UInt8(JI_TRUE.rawValue): return true
        case UInt8(JI_FALSE.rawValue): return false
        default: return nil
        }
    }

    /// The number as an exact 64-bit integer when it is written as one and fits.
    var exactInt64: Int64? { node.type == UInt8(JI_INT.rawValue) ? node.num.i : nil }

    /// The number as a double (`nil` when it is not a number or outside the double range).
    var double: Double? {
        switch node.type {
        case UInt8(JI_INT.rawValue): return Double(node.num.i)
        case UInt8(JI_UINT.rawValue): return Double(node.num.u)
        case UInt8(JI_DOUBLE.rawValue): return node.num.d
        default: return nil
        }
    }

    /// The number's source text (`1.50` stays `1.50`); `nil` for non-numbers.
    var numberText: UnsafeBufferPointer<UInt8>? {
        kind == .number ? UnsafeBufferPointer(start: node.ptr, count: Int(node.len)) : nil
    }

    /// The unescaped UTF-8 bytes of a string; `nil` for non-strings.
    var stringBytes: UnsafeBufferPointer<UInt8>? {
        node.type == UInt8(JI_STRING.rawValue)
            ? UnsafeBufferPointer(start: node.ptr, count: Int(node.len)) : nil
    }

    var string: String? { stringBytes.map { String(decoding: $0, as: UTF8.self) } }

    /// Element count of an array, member count of an object, else 0.
    var count: Int {
        switch kind {
        case .array, .object: return Int(node.len)
        default: return 0
        }
    }

    /// Calls `body` for each node of this value's subtree in document order, keys included,
    /// with its type, its length (bytes of a string, key or number; members or elements of a
    /// container; 0 otherwise) and its bytes (strings, keys and numbers as written; `nil`
    /// otherwise). Returns `false`, having called nothing, when the subtree has more than
    /// `limit` nodes.
    func forEachNode(limit: Int, _ body: (_ type: UInt8, _ length: UInt32, _ bytes: UnsafePointer<UInt8>?) -> Void) -> Bool {
        let end = Int(node.end)
        guard end - index <= limit else { return false }
        for i in index..<end {
            let node = nodes[i]
            switch node.type {
            case UInt8(JI_NULL.rawValue), UInt8(JI_FALSE.rawValue), UInt8(JI_TRUE.rawValue): body(node.type, 0, nil)
            case UInt8(JI_ARRAY.rawValue), UInt8(JI_OBJECT.rawValue): body(node.type, node.len, nil)
            default: body(node.type, node.len, node.ptr)
            }
        }
        return true
    }

    /// Elements of an array (empty for anything else).
    var elements: Elements { Elements(nodes: nodes, start: index + 1, count: kind == .array ? count : 0) }

    /// Members of an object as (key bytes, value) pairs (empty for anything else).
    var members: Members { Members(nodes: nodes, start: index + 1, count: kind == .object ? count : 0) }

    /// The value of member `key`, or `nil` when this is not an object or has no such member.
    subscript(key: String) -> JSONValue? {
        var key = key
        return key.withUTF8 { member(utf8: $0) }
    }

    /// Looks up a member by its UTF-8 key bytes.
    func member(utf8 key: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var cursor = MemberCursor()
        return member(utf8: key, cursor: &cursor)
    }

    /// Where the last member lookup in an object ended. Records list their keys in about the
    /// order a mapping reads them, so the next lookup starts there and wraps around. Valid for
    /// one tape: reset it when moving to another record.
    struct MemberCursor {
        fileprivate var object = -1
        fileprivate var node = 0
        fileprivate var ordinal = 0
    }

    /// Looks up a member by its UTF-8 key bytes, starting where `cursor` says the last lookup
    /// in this object ended.
    func member(utf8 key: UnsafeBufferPointer<UInt8>, cursor: inout MemberCursor) -> JSONValue? {
        let count = kind == .object ? Int(node.len) : 0
        guard count > 0 else { return nil }
        var keyIndex = index + 1
        var ordinal = 0
        if cursor.object == index {
            keyIndex = cursor.node
            ordinal = cursor.ordinal
        }
        for _ in 0..<count {
            let name = nodes[keyIndex]
            let valueIndex = keyIndex + 1
            ordinal += 1
            keyIndex = ordinal == count ? index + 1 : Int(nodes[valueIndex].end)
            if ordinal == count { ordinal = 0 }
            if Int(name.len) == key.count && (key.isEmpty || memcmp(name.ptr, key.baseAddress!, key.count) == 0) {
                cursor = MemberCursor(object: index, node: keyIndex, ordinal: ordinal)
                return JSONValue(nodes: nodes, index: valueIndex)
            }
        }
        return nil
    }

    struct Elements: Sequence {
        let nodes: UnsafeBufferPointer<ji_node>
        let start: Int
        let count: Int

        struct Iterator: IteratorProtocol {
            let nodes: UnsafeBufferPointer<ji_node>
            var position: Int
            var remaining: Int

            mutating func next() -> JSONValue? {
                guard remaining > 0 else { return nil }
                let value = JSONValue(nodes: nodes, index: position)
                position = Int(nodes[position].end)
                remaining -= 1
                return value
            }
        }

        func makeIterator() -> Iterator { Iterator(nodes: nodes, position: start, remaining: count) }
    }

    struct Members: Sequence {
        let nodes: UnsafeBufferPointer<ji_node>
        let start: Int
        let count: Int

        struct Iterator: IteratorProtocol {
            let nodes: UnsafeBufferPointer<ji_node>
            var position: Int
            var remaining: Int

            mutating func next() -> (key: UnsafeBufferPointer<UInt8>, value: JSONValue)? {
                guard remaining > 0 else { return nil }
                let keyNode = nodes[position]
                let key = UnsafeBufferPointer(start: keyNode.ptr, count: Int(keyNode.len))
                let value = JSONValue(nodes: nodes, index: position + 1)
                position = Int(nodes[position + 1].end)
                remaining -= 1
                return (key, value)
            }
        }

        func makeIterator() -> Iterator { Iterator(nodes: nodes, position: start, remaining: count) }
    }
}
