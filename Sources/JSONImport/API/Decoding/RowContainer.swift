/// The properties of a stored row: attributes by name, relationships by name.
///
/// A to-one relationship without a link decodes as `nil`; a to-many one without links as `[]`.
/// A name the entity does not have is `keyNotFound` naming the property it is close to, if
/// any (a misspelling); a name unlike any decodes as `nil` for an optional property and is
/// `keyNotFound` otherwise.
struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RowDecoder
    /// The page the row's values are in, from `start`.
    let page: EntityPage
    let start: Int

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var entity: EntityPlan { decoder.entity }
    private var context: DecodingContext { decoder.context }

    var allKeys: [Key] {
        (entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)).compactMap(Key.init(stringValue:))
    }

    func contains(_ key: Key) -> Bool {
        property(key) != nil || decoder.discriminators.contains { $0.path == [key.stringValue] }
    }

    private func property(_ key: Key) -> RowProperty? {
        page.property(named: key.stringValue, after: &decoder.lastProperty)
    }

    /// The stored value of attribute `index`.
    private func value(_ index: Int) -> StoredValue { page.values[start + index] }

    private func linkedRows(_ relationship: Int) throws -> ArraySlice<Int64> {
        try context.linkedRows(relationship, of: entity, row: decoder.row, path: decoder.path)
    }

    /// For a relationship to a union (SPEC 1.4), the rows that it and its siblings of the same
    /// name (one per concrete entity) link to, entity after entity.
    private func unionTargets(_ relationship: Int) throws -> [(entity: EntityPlan, row: Int64)] {
        let name = entity.relationships[relationship].spec.name
        var targets: [(entity: EntityPlan, row: Int64)] = []
        var index = relationship
        while index < entity.relationships.count, entity.relationships[index].spec.name == name {
            let target = entity.relationships[index].targetPlan
            targets += try linkedRows(index).map { (target, $0) }
            index += 1
        }
        return targets
    }

    /// The decoder of a union's linked row, which also answers the union's discriminators.
    private func unionRowDecoder(_ relationship: Int, _ target: (entity: EntityPlan, row: Int64), key: any CodingKey, parent: CodingPath) -> RowDecoder {
        let union = entity.relationships[relationship].union!
        return RowDecoder(
            context: context, entity: target.entity, row: target.row, parent: parent, key: key,
            discriminators: union.discriminators(of: target.entity.index))
    }

    /// A discriminator of the union the row was reached through, decoded as its text.
    private func discriminator<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let value = decoder.discriminators.first(where: { $0.path == [key.stringValue] })?.value else { return nil }
        return try StoredValueDecoder(value: .text(value), type: .scalar(.string), path: decoder.path, key: key).decode(type)
    }

    private func attributeDecoder(_ index: Int, _ key: Key) -> StoredValueDecoder {
        StoredValueDecoder(value: value(index), type: entity.spec.attributes[index].type, path: decoder.path, key: key)
    }

    // MARK: Decoding

    func decodeNil(forKey key: Key) throws -> Bool {
        switch property(key) {
        case .attribute(let index): return value(index) == .null
        case .relationship(let relationship):
            guard entity.spec.relationships[relationship].kind == .one else { return false }
            if entity.relationships[relationship].union != nil { return try unionTargets(relationship).isEmpty }
            return try linkedRows(relationship).isEmpty
        case nil:
            if decoder.discriminators.contains(where: { $0.path == [key.stringValue] }) { return false }
            throw notFound(key)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        switch property(key) {
        case .attribute(let index):
            return try attributeDecoder(index, key).decode(type)
        case .relationship(let relationship):
            if let nested = try relationshipDecoder(type, relationship, key) { return try decode(type, from: nested) }
            return try noValue(type, relationship, key)
        case nil:
            if let value = try discriminator(type, key) { return value }
            return try noValue(type, nil, key)
        }
    }

    /// `nil` as a `T` for a relationship without a value, or a property the entity does not
    /// have, when `T` is optional; the error otherwise. (Apart, so that the optional of `T`
    /// costs nothing on the way that finds a value.)
    @inline(never)
    private func noValue<T>(_ type: T.Type, _ relationship: Int?, _ key: Key) throws -> T {
        if relationship == nil, let misspelt = misspelt(key) { throw misspelt }
        if let none = nilValue(of: type) { return none }
        guard let relationship else { throw notFound(key) }
        throw DecodingError.valueNotFound(type, .init(
            codingPath: codingPath + [key], debugDescription: decoder.isRepeat
                ? "'\(key.stringValue)' is not nested again below a repeated \(entity.spec.name) row (a cycle in the data)"
                : "'\(key.stringValue)' links to no \(entity.spec.relationships[relationship].target)"))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        switch property(key) {
        case .attribute(let index):
            return value(index) == .null ? nil : try attributeDecoder(index, key).decode(type)
        case .relationship(let relationship):
            guard let nested = try relationshipDecoder(type, relationship, key) else { return nil }
            return try decode(type, from: nested)
        case nil:
            if let value = try discriminator(type, key) { return value }
            if let misspelt = misspelt(key) { throw misspelt }
            return nil
        }
    }

    /// The decoder of a relationship's value as a `T`; `nil` for a to-one without a link, and
    /// for a nested value below a repeated row.
    private func relationshipDecoder<T: Decodable>(_ type: T.Type, _ relationship: Int, _ key: Key) throws -> NestedDecoder? {
        let plan = entity.relationships[relationship]
        if decoder.isRepeat && DecodingShape.nests(type) {
            guard plan.spec.kind == .many else { return nil }
            return .links(LinksDecoder(context: context, target: plan.targetPlan, rows: [], parent: decoder.path, key: key))
        }
        return try linkedDecoder(relationship, key)
    }

    /// The decoder of what a relationship links to: its rows for a to-many one, its row for a
    /// to-one (`nil` without a link). A union's rows are each of its own entity.
    private func linkedDecoder(_ relationship: Int, _ key: Key) throws -> NestedDecoder? {
        let plan = entity.relationships[relationship]
        let isMany = plan.spec.kind == .many
        if let union = plan.union {
            let targets = try unionTargets(relationship)
            if isMany {
                return .links(LinksDecoder(context: context, union: union, targets: targets, parent: decoder.path, key: key))
            }
            return targets.first.map { .row(unionRowDecoder(relationship, $0, key: key, parent: decoder.path)) }
        }
        let rows = try linkedRows(relationship)
        if isMany { return .links(LinksDecoder(context: context, target: plan.targetPlan, rows: rows, parent: decoder.path, key: key)) }
        guard let row = rows.first else { return nil }
        return .row(RowDecoder(context: context, entity: plan.targetPlan, row: row, parent: decoder.path, key: key))
    }

    /// Decodes a relationship's value, nested below this row.
    private func decode<T: Decodable>(_ type: T.Type, from nested: NestedDecoder) throws -> T {
        try context.nesting(entity, decoder.row) {
            switch nested {
            case .row(let row): try context.decodeNested(type, from: row)
            case .links(let links): try RowDecoder.decode(type, from: links)
            }
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
            switch try linkedDecoder(relationship, key) {
            case .row(let row)?: return row
            case .links(let links)?: return links
            case nil:
                let plan = entity.relationships[relationship]
                throw DecodingError.valueNotFound(Any.self, .init(
                    codingPath: codingPath + [key],
                    debugDescription: "'\(key.stringValue)' links to no \(plan.union?.spec.name ?? plan.targetPlan.spec.name)"))
            }
        case nil: throw notFound(key)
        }
    }

    /// For a name the entity does not have but that is close to one it has (a misspelt
    /// property, or a JSON key such as `created_at` where the property is `createdAt`), the
    /// error naming both; `nil` for a name unlike any (an optional property the mapping does
    /// not know decodes as `nil`).
    private func misspelt(_ key: Key) -> DecodingError? {
        let names = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
        guard Suggestion.closest(to: key.stringValue, among: names) != nil else { return nil }
        return notFound(key)
    }

    private func notFound(_ key: Key) -> DecodingError {
        let names = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
        return DecodingError.keyNotFound(key, .init(
            codingPath: codingPath,
            debugDescription: "\(entity.spec.name) has no property '\(key.stringValue)'\(Suggestion.hint(for: key.stringValue, among: names))"))
    }

    // Primitives of an attribute convert straight from the stored value; anything else (a
    // relationship's key, a missing name, a value that does not convert) goes through the
    // generic path, which throws the right error.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(key, StoredValueDecoder.bool) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(key, StoredValueDecoder.string) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(key, StoredValueDecoder.double) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try primitive(key, StoredValueDecoder.float) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try primitive(key, StoredValueDecoder.integer) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(key, StoredValueDecoder.integer) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(key, StoredValueDecoder.integer) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(key, StoredValueDecoder.integer) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(key, StoredValueDecoder.integer) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try primitive(key, StoredValueDecoder.integer) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(key, StoredValueDecoder.integer) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(key, StoredValueDecoder.integer) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(key, StoredValueDecoder.integer) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(key, StoredValueDecoder.integer) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentPrimitive(key, StoredValueDecoder.bool) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentPrimitive(key, StoredValueDecoder.string) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentPrimitive(key, StoredValueDecoder.double) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try presentPrimitive(key, StoredValueDecoder.float) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentPrimitive(key, StoredValueDecoder.integer) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentPrimitive(key, StoredValueDecoder.integer) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentPrimitive(key, StoredValueDecoder.integer) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentPrimitive(key, StoredValueDecoder.integer) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentPrimitive(key, StoredValueDecoder.integer) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentPrimitive(key, StoredValueDecoder.integer) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentPrimitive(key, StoredValueDecoder.integer) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentPrimitive(key, StoredValueDecoder.integer) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentPrimitive(key, StoredValueDecoder.integer) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentPrimitive(key, StoredValueDecoder.integer) }

    @inline(__always)
    private func primitive<T: Decodable>(_ key: Key, _ convert: (StoredValue, AttributeType) -> T?) throws -> T {
        guard case .attribute(let index) = property(key) else { return try decodeGeneric(T.self, key) }
        return try convert(value(index), page.types[index]) ?? attributeDecoder(index, key).decode(T.self)
    }

    @inline(__always)
    private func presentPrimitive<T: Decodable>(_ key: Key, _ convert: (StoredValue, AttributeType) -> T?) throws -> T? {
        guard case .attribute(let index) = property(key) else { return try decodeIfPresentGeneric(T.self, key) }
        let stored = value(index)
        if case .null = stored { return nil }
        return try convert(stored, page.types[index]) ?? attributeDecoder(index, key).decode(T.self)
    }

    /// In a generic context only the generic `decode` applies.
    private func decodeGeneric<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    private func decodeIfPresentGeneric<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }
}

/// The decoder of a relationship's value: a linked row, or the rows of a to-many relationship.
/// (Outside ``RowContainer``, whose nested types would be generic.)
enum NestedDecoder {
    case row(RowDecoder)
    case links(LinksDecoder)
}

/// `nil` as a `T` when `T` is an optional type.
func nilValue<T>(of type: T.Type) -> T? {
    (type as? any ExpressibleByNilLiteral.Type).flatMap { $0.init(nilLiteral: ()) as? T }
}
