/// Decodes a stored row, by property name (SPEC 3).
///
/// A row is read the way its Swift type asks for it: a keyed container gives its properties
/// (attributes and relationships by name), a single value container gives its primary key, an
/// unkeyed container the values of a composite key. That is what lets a relationship property
/// be either a nested value (`var address: Address?`, `var repos: [Repo]`) or keys
/// (`var followers: [Int]`): each target row is read only as far as the property's type asks.
///
/// A class, and its own node of the coding path, so that handing it over as `any Decoder`
/// costs no box beside it.
final class RowDecoder: CodingPathNode, Decoder {
    let context: DecodingContext
    let entity: EntityPlan
    let row: Int64
    /// The row is already being decoded further up the path: its relationships do not nest.
    ///
    /// Found when first asked, which is while the row's own properties decode (the rows above
    /// it on the path, and no others, are then being decoded).
    var isRepeat: Bool {
        if repeatState < 0 { repeatState = context.isOnPath(entity, row) ? 1 : 0 }
        return repeatState == 1
    }
    @exclusivity(unchecked) private var repeatState: Int8 = -1
    /// The position (among attributes, then relationships) of the property read last.
    @exclusivity(unchecked) var lastProperty = -1
    var path: CodingPath { CodingPath(node: self) }
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// For a row reached through a relationship to a union: the discriminators an object of
    /// its entity carries (`type: "User"`), which its keyed container also answers, so a
    /// Swift enum decodes it as it decodes the API's JSON.
    let discriminators: [(path: [String], value: String)]

    /// The decoder of `row` of `entity`, at `key` below `parent` (`nil` for a top-level value).
    init(
        context: DecodingContext, entity: EntityPlan, row: Int64, parent: CodingPath, key: (any CodingKey)?,
        discriminators: [(path: [String], value: String)] = []
    ) {
        self.context = context
        self.entity = entity
        self.row = row
        self.discriminators = discriminators
        super.init(parent: parent, key: key)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let (page, slot) = try context.slot(entity, row: row, path: path)
        return KeyedDecodingContainer(RowContainer<Key>(decoder: self, page: page, start: slot * page.width))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { RowValueContainer(decoder: self) }

    /// The decoder of the row's single primary key.
    func keyDecoder() throws -> StoredValueDecoder {
        let key = try keyValues()
        guard key.count == 1 else {
            throw mismatch(
                entity.spec.isOwned
                    ? "\(entity.spec.name) has no primary key: decode it as a nested value"
                    : "the key of \(entity.spec.name) has \(key.count) values: decode it as an array")
        }
        return StoredValueDecoder(value: key[0].0, type: key[0].1, path: path)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let key = try keyValues()
        guard key.count > 1 else {
            throw mismatch("\(entity.spec.name) is one row, not a list: decode it as a nested value or its key")
        }
        return StoredValuesContainer(values: key, path: path)
    }

    /// The primary key's values with their types.
    private func keyValues() throws -> [(StoredValue, AttributeType?)] {
        let (page, slot) = try context.slot(entity, row: row, path: path)
        return entity.keySlots.map { (page.values[slot * page.width + $0], entity.attributes[$0].spec.type) }
    }

    private func mismatch(_ message: String) -> DecodingError {
        DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: message))
    }

    /// Decodes `type` from `decoder`, reading the Foundation types that the decoders treat as
    /// scalars (dates, URLs, UUIDs, decimals) through its single value container.
    static func decode<T: Decodable>(_ type: T.Type, from decoder: any Decoder) throws -> T {
        if DecodingShape.isScalar(type) {
            if let row = decoder as? RowDecoder { return try row.keyDecoder().decode(type) }
            return try decoder.singleValueContainer().decode(type)
        }
        return try T(from: decoder)
    }
}

/// A row seen as a single value: its key, or (for a type that nests, such as an optional
/// record or a wrapper) the row itself. It is never nil: the row exists.
private struct RowValueContainer: SingleValueDecodingContainer {
    let decoder: RowDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if DecodingShape.nests(type) || decoder.entity.keySlots.count > 1 { return try RowDecoder.decode(type, from: decoder) }
        return try decoder.keyDecoder().decode(type)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decoder.keyDecoder().decode(type) }
    func decode(_ type: String.Type) throws -> String { try decoder.keyDecoder().decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.keyDecoder().decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.keyDecoder().decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.keyDecoder().decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.keyDecoder().decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.keyDecoder().decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.keyDecoder().decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.keyDecoder().decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.keyDecoder().decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.keyDecoder().decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.keyDecoder().decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.keyDecoder().decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.keyDecoder().decode(type) }
}
