import Foundation

/// Encodes a Swift value as a ``PropertyValue`` tree keyed by property name.
///
/// `nil` optionals are written as `null` (not left out): saving a value stores what it holds,
/// so an optional set to `nil` clears the attribute or unlinks the relationship.
enum PropertyEncoder {
    /// Encodes `value`.
    ///
    /// - Throws: `EncodingError` when the value throws while encoding, or encodes nothing.
    static func encode<T: Encodable>(_ value: T) throws -> PropertyValue {
        if let scalar = scalar(value) { return scalar }
        let node = Node()
        try value.encode(to: TreeEncoder(node: node, codingPath: []))
        guard let result = node.value else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(T.self) encoded nothing"))
        }
        return result
    }

    /// Foundation types whose own `Encodable` would not give their value.
    static func scalar(_ value: Any) -> PropertyValue? {
        switch value {
        case let date as Date: return .date(date)
        case let url as URL: return .url(url)
        case let uuid as UUID: return .uuid(uuid)
        case let decimal as Decimal: return .decimal(decimal)
        default: return nil
        }
    }

    /// Where an encoder writes: a value, or a container filled in later.
    final class Node {
        enum Content {
            case value(PropertyValue)
            case object([(String, Node)])
            case array([Node])
        }

        var content: Content?

        var value: PropertyValue? {
            switch content {
            case .value(let v): return v
            case .object(let pairs): return .object(pairs.map { ($0.0, $0.1.value ?? .null) })
            case .array(let nodes): return .array(nodes.map { $0.value ?? .null })
            case nil: return nil
            }
        }

        func child(_ key: String) -> Node {
            var pairs: [(String, Node)] = []
            if case .object(let existing) = content { pairs = existing }
            if let found = pairs.first(where: { $0.0 == key }) { return found.1 }
            let node = Node()
            pairs.append((key, node))
            content = .object(pairs)
            return node
        }

        func append() -> Node {
            var nodes: [Node] = []
            if case .array(let existing) = content { nodes = existing }
            let node = Node()
            nodes.append(node)
            content = .array(nodes)
            return node
        }

        func set(_ value: PropertyValue) { content = .value(value) }

        func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
            if let scalar = PropertyEncoder.scalar(value) {
                set(scalar)
                return
            }
            try value.encode(to: TreeEncoder(node: self, codingPath: codingPath))
        }
    }
}

private struct TreeEncoder: Encoder {
    let node: PropertyEncoder.Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedTree<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedTree(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleTree(node: node, codingPath: codingPath) }
}

private struct KeyedTree<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: PropertyEncoder.Node
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { node.child(key.stringValue).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.child(key.stringValue).encode(value, codingPath: codingPath + [key])
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }

    /// In a generic context only the generic `encodeIfPresent` applies.
    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        try encodeIfPresent(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.child("super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedTree: UnkeyedEncodingContainer {
    let node: PropertyEncoder.Node
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let nodes) = node.content { return nodes.count }
        return 0
    }

    mutating func encodeNil() { node.append().set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = IndexKey(count)
        try node.append().encode(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(node: node.append(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.append(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.append(), codingPath: codingPath) }
}

private struct SingleTree: SingleValueEncodingContainer {
    let node: PropertyEncoder.Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() { node.set(.null) }
    mutating func encode(_ value: Bool) { node.set(.bool(value)) }
    mutating func encode(_ value: String) { node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { try real(value) }
    mutating func encode(_ value: Float) throws { try real(Double(value)) }
    mutating func encode(_ value: Int) { node.set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) { node.set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) { node.set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) { node.set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) { node.set(.int(value)) }
    mutating func encode(_ value: UInt) throws { try unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) { node.set(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) { node.set(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) { node.set(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { try unsigned(value) }

    mutating func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }

    private func real(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) has no JSON form"))
        }
        node.set(.double(value))
    }

    private func unsigned(_ value: UInt64) throws {
        guard let signed = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is beyond the 64-bit int range"))
        }
        node.set(.int(signed))
    }
}
