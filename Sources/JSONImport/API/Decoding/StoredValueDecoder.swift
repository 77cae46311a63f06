import Foundation

/// Decodes one stored value (an attribute, an array element, a key) into a Swift value.
///
/// Rules: `int` → any integer type that holds it (or `Double`); `double` → `Double`/`Float`;
/// `bool` → `Bool`; `date` (seconds since 1970) → `Date`, or an ISO 8601 `String`; `decimal` →
/// `Decimal`, `String` (exact text) or `Double`; `uuid` → `UUID` or `String`; `url` → `URL` or
/// `String`; `json` → any `Decodable` read from the stored JSON (dates as ISO 8601 strings or
/// seconds), or the JSON text as a `String`; `[T]` → an array of the element rules. NULL
/// decodes as `nil` for an optional and is an error otherwise.
struct StoredValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: StoredValue
    /// The attribute type the value was stored as, when known.
    let type: AttributeType?
    /// Where the value is: below `path`, at `key`.
    let path: CodingPath
    let key: (any CodingKey)?
    var codingPath: [any CodingKey] { path.keys(then: key) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: StoredValue, type: AttributeType?, path: CodingPath, key: (any CodingKey)? = nil) {
        self.value = value
        self.type = type
        self.path = path
        self.key = key
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw mismatch([String: String].self, "a keyed container")
    }

    /// A `[T]` attribute's elements (with no type known, any stored JSON array's).
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        var element: ScalarType?
        switch type {
        case .array(let scalar): element = scalar
        case nil: element = nil
        default: throw mismatch([String].self, "an array")
        }
        guard case .text(let text) = try present([String].self), case .array(let items) = RecordValue(jsonText: text) else {
            throw mismatch([String].self, "an array")
        }
        return StoredValuesContainer(
            values: items.map { (Self.stored($0, as: element), element.map(AttributeType.scalar)) }, path: key.map(path.appending) ?? path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Single value

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool { try Self.bool(value, self.type) ?? failure(type) }
    func decode(_ type: String.Type) throws -> String { try Self.string(value, self.type) ?? failure(type) }
    func decode(_ type: Double.Type) throws -> Double { try Self.double(value, self.type) ?? failure(type) }
    func decode(_ type: Float.Type) throws -> Float { try Self.float(value, self.type) ?? failure(type) }
    func decode(_ type: Int.Type) throws -> Int { try Self.integer(value, self.type) ?? failure(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Self.integer(value, self.type) ?? failure(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Self.integer(value, self.type) ?? failure(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Self.integer(value, self.type) ?? failure(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Self.integer(value, self.type) ?? failure(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try Self.integer(value, self.type) ?? failure(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Self.integer(value, self.type) ?? failure(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Self.integer(value, self.type) ?? failure(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Self.integer(value, self.type) ?? failure(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Self.integer(value, self.type) ?? failure(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if self.type == .json, value != .null, T.self != String.self { return try json(type) }
        if T.self == Date.self { return try date() as! T }
        if T.self == Decimal.self { return try decimal() as! T }
        if T.self == URL.self {
            guard case .text(let text) = try present(type), let url = URL(string: text) else { throw mismatch(type) }
            return url as! T
        }
        if T.self == UUID.self {
            guard case .text(let text) = try present(type), let uuid = UUID(uuidString: text) else { throw mismatch(type) }
            return uuid as! T
        }
        return try T(from: self)
    }

    // MARK: Conversions

    // A stored value of attribute type `type` as a primitive, or `nil` when it is not one.

    static func bool(_ value: StoredValue, _ type: AttributeType?) -> Bool? {
        guard case .integer(let v) = value else { return nil }
        return v != 0
    }

    static func string(_ value: StoredValue, _ type: AttributeType?) -> String? {
        switch value {
        case .text(let text): text
        case .real(let seconds) where type == .date: DateCoding.format(seconds, format: .iso8601)
        default: nil
        }
    }

    static func double(_ value: StoredValue, _ type: AttributeType?) -> Double? {
        switch value {
        case .integer(let v): Double(v)
        case .real(let v): v
        case .text(let text) where type == .decimal: Double(text)
        default: nil
        }
    }

    static func float(_ value: StoredValue, _ type: AttributeType?) -> Float? { double(value, type).map(Float.init) }

    static func integer<I: FixedWidthInteger>(_ value: StoredValue, _ type: AttributeType?) -> I? {
        switch value {
        case .integer(let v): I(exactly: v)
        case .real(let v): I(exactly: v)
        default: nil
        }
    }

    /// The error for a value that does not decode as `type`: `valueNotFound` for NULL.
    private func failure<T>(_ type: T.Type) throws -> T {
        throw value == .null ? notFound(type) : mismatch(type)
    }

    private func date() throws -> Date {
        switch try present(Date.self) {
        case .real(let seconds): return Date(timeIntervalSince1970: seconds)
        case .integer(let seconds): return Date(timeIntervalSince1970: Double(seconds))
        case .text(let text):
            if let seconds = DateCoding.parse(text, format: .iso8601) { return Date(timeIntervalSince1970: seconds) }
        case .null: break
        }
        throw mismatch(Date.self)
    }

    private func decimal() throws -> Decimal {
        switch try present(Decimal.self) {
        case .text(let text):
            if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) { return decimal }
        case .integer(let v): return Decimal(v)
        case .real(let v): return Decimal(v)
        case .null: break
        }
        throw mismatch(Decimal.self)
    }

    /// A `json` attribute read by `JSONDecoder`, dates as ISO 8601 strings or seconds.
    private func json<T: Decodable>(_ type: T.Type) throws -> T {
        guard case .text(let text) = value else { throw mismatch(type) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
            let text = try container.decode(String.self)
            guard let seconds = DateCoding.parse(text, format: .iso8601) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        do {
            return try decoder.decode(T.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath, debugDescription: "the stored JSON does not decode as \(T.self)", underlyingError: error))
        }
    }

    /// The value, or `valueNotFound` for NULL.
    private func present<T>(_ type: T.Type) throws -> StoredValue {
        if value == .null { throw notFound(type) }
        return value
    }

    private func notFound<T>(_ type: T.Type) -> DecodingError {
        DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "the stored value is null"))
    }

    private func mismatch<T>(_ type: T.Type, _ wanted: String? = nil) -> DecodingError {
        let stored = self.type.map { "a stored \($0) value" } ?? "the stored value"
        return DecodingError.typeMismatch(type, .init(
            codingPath: codingPath, debugDescription: "\(stored) (\(value)) does not decode as \(wanted ?? "\(type)")"))
    }

    /// An element of a stored `[T]` array as a stored value of the element type (guessed from
    /// the JSON when not known).
    static func stored(_ item: RecordValue, as element: ScalarType?) -> StoredValue {
        switch item {
        case .null: return .null
        case .bool(let b): return .integer(b ? 1 : 0)
        case .int(let v): return element == .double || element == .date ? .real(Double(v)) : .integer(v)
        case .double(let v): return .real(v)
        case .number(let text):
            if element != .double, element != .date, let v = Int64(text) { return .integer(v) }
            if element == .decimal { return .text(text) }
            return Double(text).map(StoredValue.real) ?? .text(text)
        case .string(let s): return .text(s)
        case .array, .object: return .text(item.jsonText)
        }
    }
}
