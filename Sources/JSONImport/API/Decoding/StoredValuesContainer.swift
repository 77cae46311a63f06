/// An unkeyed container over stored values: a `[T]` attribute's elements, or a composite key.
struct StoredValuesContainer: UnkeyedDecodingContainer {
    let values: [(StoredValue, AttributeType?)]
    let path: CodingPath
    private(set) var currentIndex = 0

    init(values: [(StoredValue, AttributeType?)], path: CodingPath) {
        self.values = values
        self.path = path
    }

    var codingPath: [any CodingKey] { path.keys }

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    private mutating func next() throws -> StoredValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "no more elements"))
        }
        defer { currentIndex += 1 }
        let (value, type) = values[currentIndex]
        return StoredValueDecoder(value: value, type: type, path: path, key: IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex].0 == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}
