/// Decodes a to-many relationship: an unkeyed container of its target rows, in link order.
final class LinksDecoder: CodingPathNode, Decoder {
    let context: DecodingContext
    let target: EntityPlan
    let rows: ArraySlice<Int64>
    var path: CodingPath { CodingPath(node: self) }
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// For a relationship to a union: each linked row's entity (`rows` holds the rows), and
    /// the union whose discriminators the rows answer.
    let entities: [EntityPlan]?
    let union: UnionPlan?

    /// The decoder of the linked `rows` of `target`, at `key` below `parent`.
    init(context: DecodingContext, target: EntityPlan, rows: ArraySlice<Int64>, parent: CodingPath, key: any CodingKey) {
        self.context = context
        self.target = target
        self.rows = rows
        self.entities = nil
        self.union = nil
        super.init(parent: parent, key: key)
    }

    /// The decoder of the rows a relationship to `union` links to, each of its own entity.
    init(context: DecodingContext, union: UnionPlan, targets: [(entity: EntityPlan, row: Int64)], parent: CodingPath, key: any CodingKey) {
        self.context = context
        self.target = context.store.plan.entities[union.entities[0]]
        self.rows = ArraySlice(targets.map(\.row))
        self.entities = targets.map(\.entity)
        self.union = union
        super.init(parent: parent, key: key)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw mismatch()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw mismatch() }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        LinksContainer(decoder: self)
    }

    private func mismatch() -> DecodingError {
        DecodingError.typeMismatch([Any].self, .init(
            codingPath: codingPath, debugDescription: "a to-many relationship decodes as an array (of \(target.spec.name) values or keys)"))
    }
}

private struct LinksContainer: UnkeyedDecodingContainer {
    let decoder: LinksDecoder
    private(set) var currentIndex = 0

    init(decoder: LinksDecoder) { self.decoder = decoder }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { decoder.rows.count }
    var isAtEnd: Bool { currentIndex >= decoder.rows.count }

    private mutating func next() throws -> RowDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "no more linked rows"))
        }
        defer { currentIndex += 1 }
        let entity = decoder.entities?[currentIndex] ?? decoder.target
        return RowDecoder(
            context: decoder.context, entity: entity, row: decoder.rows[decoder.rows.startIndex + currentIndex],
            parent: decoder.path, key: IndexKey(currentIndex), discriminators: decoder.union?.discriminators(of: entity.index) ?? [])
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.context.decodeNested(type, from: next()) }

    mutating func nestedContainer<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}
