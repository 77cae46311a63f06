import Foundation

/// How a `Decodable` type reads itself: from a keyed container (a nested record), a single
/// value (a key), or an unkeyed container of something.
///
/// Found by letting the type start decoding from a probe that stops at the first container it
/// asks for. Wrappers are seen through: `Optional<Repo>` and a type that decodes a `Repo` from
/// its single value container have the shape of `Repo`.
indirect enum DecodingShape: Sendable, Hashable {
    case keyed
    case single
    case unkeyed(DecodingShape)

    /// `true` when values of `type` are nested records rather than keys (after arrays).
    static func nests<T: Decodable>(_ type: T.Type) -> Bool {
        var shape = of(type)
        while case .unkeyed(let element) = shape { shape = element }
        return shape == .keyed
    }

    private static let cache = PthreadMutex<[ObjectIdentifier: DecodingShape]>([:])

    /// The shape of `type`, probed once per type.
    static func of<T: Decodable>(_ type: T.Type) -> DecodingShape {
        if isScalar(type) { return .single }
        let id = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[id] }) { return known }
        let shape: DecodingShape
        do {
            _ = try T(from: ShapeProbe())
            shape = .keyed
        } catch let found as ShapeFound {
            shape = found.shape
        } catch {
            shape = .keyed
        }
        cache.withLock { $0[id] = shape }
        return shape
    }

    /// Foundation types that are single values in a store but whose own `Decodable` says
    /// otherwise (or reads a different number): the decoders read them specially.
    static func isScalar<T>(_ type: T.Type) -> Bool {
        type == Date.self || type == URL.self || type == UUID.self || type == Decimal.self
    }
}

private struct ShapeFound: Error {
    let shape: DecodingShape
}

private struct ShapeProbe: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw ShapeFound(shape: .keyed)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { UnkeyedProbe() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleProbe() }
}

private struct SingleProbe: SingleValueDecodingContainer {
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { throw ShapeFound(shape: .single) }
    func decode(_ type: String.Type) throws -> String { throw ShapeFound(shape: .single) }
    func decode(_ type: Double.Type) throws -> Double { throw ShapeFound(shape: .single) }
    func decode(_ type: Float.Type) throws -> Float { throw ShapeFound(shape: .single) }
    func decode(_ type: Int.Type) throws -> Int { throw ShapeFound(shape: .single) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw ShapeFound(shape: .single) }
    func decode(_ type: Int16.Type) throws -> Int16 { throw ShapeFound(shape: .single) }
    func decode(_ type: Int32.Type) throws -> Int32 { throw ShapeFound(shape: .single) }
    func decode(_ type: Int64.Type) throws -> Int64 { throw ShapeFound(shape: .single) }
    func decode(_ type: UInt.Type) throws -> UInt { throw ShapeFound(shape: .single) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw ShapeFound(shape: .single) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw ShapeFound(shape: .single) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw ShapeFound(shape: .single) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw ShapeFound(shape: .single) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { throw ShapeFound(shape: DecodingShape.of(type)) }
}

private struct UnkeyedProbe: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { nil }
    var isAtEnd: Bool { false }
    var currentIndex: Int { 0 }

    mutating func decodeNil() -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        throw ShapeFound(shape: .unkeyed(DecodingShape.of(type)))
    }
    mutating func nestedContainer<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw ShapeFound(shape: .unkeyed(.keyed))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ShapeFound(shape: .unkeyed(.unkeyed(.single)))
    }
    mutating func superDecoder() throws -> any Decoder { ShapeProbe() }
}
