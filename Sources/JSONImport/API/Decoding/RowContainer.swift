/// The properties of a stored row: attributes by name, relationships by name.
///
/// A to-one relationship without a link decodes as `nil`; a to-many one without links as `[]`.
/// A name the entity does not have decodes as `nil` for an optional property and is
/// `keyNotFound` otherwise.
struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RowDecoder
    let values: [StoredValue]

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var entity: EntityPlan { decoder.entity }
    private var context: DecodingContext { decoder.context }

    var allKeys: [Key] {
        (entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)).compactMap(Key.init(stringValue:))
    }

    func contains(_ key: Key) -> Bool { property(key) != nil }

    private enum Property {
        case attribute(Int)
        case relationship(RelationshipPlan)
    }

    private func property(_ key: Key) -> Property? {
        let name = key.stringValue
        if let index = entity.spec.attributes.firstIndex(where: { $0.name == name }) { return .attribute(index) }
        return entity.relationships.first { $0.spec.name == name }.map(Property.relationship)
    }

    private func attributeDecoder(_ index: Int, _ key: Key) -> StoredValueDecoder {
        StoredValueDecoder(value: values[index], type: entity.spec.attributes[index].type, path: decoder.path, key: key)
    }

    // MARK: Decoding

    func decodeNil(forKey key: Key) throws -> Bool {
        switch property(key) {
        case .attribute(let index): return values[index] == .null
        case .relationship(let relationship):
            guard relationship.spec.kind == .one else { return false }
            return try context.linkedRows(relationship, of: entity, row: decoder.row).isEmpty
        case nil: throw notFound(key)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        switch property(key) {
        case .attribute(let index):
            return try attributeDecoder(index, key).decode(type)
        case .relationship(let relationship):
            if let value = try decode(type, relationship, key) { return value }
            if let none = nilValue(of: type) { return none }
            throw DecodingError.valueNotFound(type, .init(
                codingPath: codingPath + [key], debugDescription: decoder.isRepeat
                    ? "'\(key.stringValue)' is not nested again below a repeated \(entity.spec.name) row (a cycle in the data)"
                    : "'\(key.stringValue)' links to no \(relationship.spec.target)"))
        case nil:
            if let none = nilValue(of: type) { return none }
            throw notFound(key)
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        switch property(key) {
        case .attribute(let index):
            return values[index] == .null ? nil : try attributeDecoder(index, key).decode(type)
        case .relationship(let relationship):
            return try decode(type, relationship, key)
        case nil:
            return nil
        }
    }

    /// A relationship's value; `nil` for a to-one without a link, and for a nested value below a
    /// repeated row.
    private func decode<T: Decodable>(_ type: T.Type, _ relationship: RelationshipPlan, _ key: Key) throws -> T? {
        let target = context.plan.entities[relationship.target]
        let isMany = relationship.spec.kind == .many
        if decoder.isRepeat && DecodingShape.nests(type) {
            guard isMany else { return nil }
            return try RowDecoder.decode(type, from: LinksDecoder(context: context, target: target, rows: [], parent: decoder.path, key: key))
        }
        let rows = try context.linkedRows(relationship, of: entity, row: decoder.row)
        return try context.nesting(entity, decoder.row) {
            if isMany {
                return try RowDecoder.decode(type, from: LinksDecoder(context: context, target: target, rows: rows, parent: decoder.path, key: key))
            }
            guard let row = rows.first else { return nil }
            return try RowDecoder.decode(type, from: RowDecoder(context: context, entity: target, row: row, parent: decoder.path, key: key))
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try subDecoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try subDecoder(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { try subDecoder(key) }

    /// A decoder for one property, for callers that ask for containers directly.
    private func subDecoder(_ key: Key) throws -> any Decoder {
        switch property(key) {
        case .attribute(let index): return attributeDecoder(index, key)
        case .relationship(let relationship):
            let target = context.plan.entities[relationship.target]
            let rows = try context.linkedRows(relationship, of: entity, row: decoder.row)
            if relationship.spec.kind == .many {
                return LinksDecoder(context: context, target: target, rows: rows, parent: decoder.path, key: key)
            }
            guard let row = rows.first else {
                throw DecodingError.valueNotFound(Any.self, .init(
                    codingPath: codingPath + [key], debugDescription: "'\(key.stringValue)' links to no \(target.spec.name)"))
            }
            return RowDecoder(context: context, entity: target, row: row, parent: decoder.path, key: key)
        case nil: throw notFound(key)
        }
    }

    private func notFound(_ key: Key) -> DecodingError {
        let names = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
        return DecodingError.keyNotFound(key, .init(
            codingPath: codingPath,
            debugDescription: "\(entity.spec.name) has no property '\(key.stringValue)'\(Suggestion.hint(for: key.stringValue, among: names))"))
    }

    // Primitives of an attribute decode directly; anything else (a relationship's key, a
    // missing name) goes through the generic path.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try attribute(key)?.decode(type) ?? decodeGeneric(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentAttribute(key).map { try $0.decode(type) } ?? decodeIfPresentGeneric(type, key) }

    /// The decoder of the attribute named `key`, if it is one.
    private func attribute(_ key: Key) -> StoredValueDecoder? {
        guard case .attribute(let index) = property(key) else { return nil }
        return attributeDecoder(index, key)
    }

    /// The decoder of the attribute named `key` when it is one and not NULL.
    private func presentAttribute(_ key: Key) -> StoredValueDecoder? {
        guard case .attribute(let index) = property(key), values[index] != .null else { return nil }
        return attributeDecoder(index, key)
    }

    /// In a generic context only the generic `decode` applies.
    private func decodeGeneric<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    private func decodeIfPresentGeneric<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }
}

/// `nil` as a `T` when `T` is an optional type.
func nilValue<T>(of type: T.Type) -> T? {
    (type as? any ExpressibleByNilLiteral.Type).flatMap { $0.init(nilLiteral: ()) as? T }
}
