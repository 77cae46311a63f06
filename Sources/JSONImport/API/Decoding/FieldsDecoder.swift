/// Decodes a record about to be stored as a Swift value, from its converted attribute values,
/// for validators that take the decoded model (``Mapper/setValidator(for:_:)-(T.Type,_)``).
///
/// Attributes decode by the rules of stored rows; one the record leaves out decodes as its
/// `default` when it has one, as storing the record would write it. The record's links are not written yet, so a
/// relationship property (or any name the record has no value for) decodes as `nil` when
/// optional and as `[]` when an array; anything else it cannot give is a `DecodingError`.
struct FieldsDecoder: Decoder {
    let fields: RecordFields
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FieldsContainer<Key>(fields: fields))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "a \(fields.entity) record is not a list"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "a \(fields.entity) record decodes as a keyed value"))
    }
}

private struct FieldsContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: RecordFields
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    /// The record's value of `key`, else the attribute's default.
    private func value(_ key: Key) -> StoredValue? { fields[key.stringValue] ?? fields.defaults[key.stringValue] }

    func contains(_ key: Key) -> Bool { value(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { value(key) ?? .null == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = value(key), value != .null else {
            if let none = nilValue(of: type) { return none }
            if let empty = try? T(from: EmptyListDecoder()) { return empty }
            throw DecodingError.keyNotFound(key, .init(
                codingPath: [], debugDescription: "the \(fields.entity) record has no value for '\(key.stringValue)'"))
        }
        return try StoredValueDecoder(value: value, type: nil, path: .root, key: key).decode(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = value(key), value != .null else { return nil }
        return try StoredValueDecoder(value: value, type: nil, path: .root, key: key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: [key], debugDescription: "an attribute is not a keyed value"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard let value = value(key) else { return try EmptyListDecoder().unkeyedContainer() }
        return try StoredValueDecoder(value: value, type: nil, path: .root, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { FieldsDecoder(fields: fields) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        StoredValueDecoder(value: value(key) ?? .null, type: nil, path: .root, key: key)
    }
}

/// A decoder of an empty list: `[]` for any array type.
private struct EmptyListDecoder: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw mismatch() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw mismatch() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { StoredValuesContainer(values: [], path: .root) }

    private func mismatch() -> DecodingError {
        DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "not a list"))
    }
}
