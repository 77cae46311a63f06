/// The shared declarations every generated entity file uses, written once as
/// `JSONSupport.swift`: the string-literal coding key, `Related` (a key or a nested record),
/// `JSONValue` (for `json` attributes) and date coding in each `format`.
enum SwiftSupportFile {
    static let name = "JSONSupport.swift"

    /// The file's declarations, with `Related` and `JSONValue` (which generated properties
    /// use) declared with `access` (`"public "`, or empty for internal).
    static func body(access: String) -> String {
        guard !access.isEmpty else { return body }
        return body
            .replacingOccurrences(of: "\nindirect enum ", with: "\n\(access)indirect enum ")
            .replacingOccurrences(of: "\n    var record: ", with: "\n    \(access)var record: ")
            .replacingOccurrences(of: "\n    init(from decoder: any Decoder) throws {", with: "\n    \(access)init(from decoder: any Decoder) throws {")
            .replacingOccurrences(of: "\n    func encode(to encoder: any Encoder) throws {", with: "\n    \(access)func encode(to encoder: any Encoder) throws {")
    }

    /// The file's declarations, after the generated-file header.
    private static let body = shared + "\n" + scalars

    /// Everything but the scalar conversions (``scalars``).
    private static let shared = #"""
    import Foundation

    /// A JSON object key, written as a string literal: `container.decode(Int.self, forKey: "id")`.
    struct JSONKey: CodingKey, ExpressibleByStringLiteral, Sendable {
        let stringValue: String

        init(stringValue: String) { self.stringValue = stringValue }

        init(stringLiteral value: String) { self.stringValue = value }

        init?(intValue: Int) { nil }

        var intValue: Int? { nil }
    }

    /// A relationship the payload gives either as the target's primary key or as the nested
    /// record (`by: auto` in the mappings): records are nested down to the export depth, and keys
    /// are written below it.
    indirect enum Related<Record: Codable & Sendable & Hashable, Key: Codable & Sendable & Hashable>:
        Codable, Sendable, Hashable
    {
        case key(Key)
        case record(Record)

        /// The nested record, or `nil` when only the key was given.
        var record: Record? {
            if case .record(let record) = self { return record }
            return nil
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let key = try? container.decode(Key.self) {
                self = .key(key)
            } else {
                self = .record(try container.decode(Record.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .key(let key as UUID): try container.encode(key.uuidString.lowercased())
            case .key(let key): try container.encode(key)
            case .record(let record): try container.encode(record)
            }
        }
    }

    /// Any JSON value: what a `json` attribute holds.
    indirect enum JSONValue: Codable, Sendable, Hashable {
        case null
        case bool(Bool)
        /// Kept as `Decimal`: every digit a JSON number has survives decoding and encoding.
        case number(Decimal)
        case string(String)
        case array([JSONValue])
        case object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Decimal.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([JSONValue].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: JSONValue].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }
    }

    /// How a `date` attribute is written in JSON: the attribute's `format` in the mappings.
    enum JSONDateFormat: Sendable, Hashable {
        /// `2024-05-01T12:30:45.123Z`; fractional seconds and offsets are read, UTC is written.
        case iso8601
        /// Seconds since 1970, a number.
        case epoch
        /// Milliseconds since 1970, a number.
        case epochMillis
        /// A pattern such as `yyyy-MM-dd HH:mm:ss`, in UTC.
        case pattern(String)

        /// The date `value` holds, or `nil` when it is not one in this format.
        func date(from value: JSONValue) -> Date? {
            switch (self, value) {
            case (.epoch, .number(let seconds)): return Date(timeIntervalSince1970: Self.double(seconds))
            case (.epochMillis, .number(let millis)): return Date(timeIntervalSince1970: Self.double(millis) / 1000)
            case (.epoch, .string(let text)): return Double(text).map { Date(timeIntervalSince1970: $0) }
            case (.epochMillis, .string(let text)): return Double(text).map { Date(timeIntervalSince1970: $0 / 1000) }
            case (.iso8601, .string(let text)): return ISO8601Text.date(from: text)
            case (.pattern(let pattern), .string(let text)): return Self.formatter(pattern).date(from: text)
            default: return nil
            }
        }

        /// `date` as this format writes it.
        func value(for date: Date) -> JSONValue {
            switch self {
            case .epoch: return .number(Self.decimal(date.timeIntervalSince1970))
            case .epochMillis: return .number(Self.decimal((date.timeIntervalSince1970 * 1000).rounded()))
            case .iso8601: return .string(ISO8601Text.string(from: date))
            case .pattern(let pattern): return .string(Self.formatter(pattern).string(from: date))
            }
        }

        /// Conversions through the shortest text that reads back as the same number.
        private static func double(_ number: Decimal) -> Double {
            Double(number.description) ?? .nan
        }

        private static func decimal(_ number: Double) -> Decimal {
            Decimal(string: number.description) ?? .nan
        }

        private static func formatter(_ pattern: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = pattern
            return formatter
        }
    }

    /// ISO 8601 dates to the microsecond: `yyyy-MM-dd`, then optionally `THH:mm`, `:ss`, a
    /// fraction, and `Z` or an offset; written in UTC with a fraction only when there is one.
    enum ISO8601Text {
        private static let calendar: Calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar
        }()

        static func date(from text: String) -> Date? {
            var scanner = Scanner(text)
            guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
                scanner.skip("-"), let day = scanner.number(digits: 2)
            else { return nil }
            var parts = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
            var fraction = 0.0
            var offset = 0
            if scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") {
                guard let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2)
                else { return nil }
                parts.hour = hour
                parts.minute = minute
                if scanner.skip(":") {
                    guard let second = scanner.number(digits: 2) else { return nil }
                    parts.second = second
                    if scanner.skip(".") || scanner.skip(",") {
                        let digits = scanner.digits()
                        guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
                        fraction = value
                    }
                }
                if scanner.skip("+") || scanner.skip("-") {
                    let sign = scanner.previous == "-" ? -1 : 1
                    guard let hours = scanner.number(digits: 2) else { return nil }
                    _ = scanner.skip(":")
                    let minutes = scanner.isAtEnd ? 0 : scanner.number(digits: 2)
                    guard let minutes else { return nil }
                    offset = sign * (hours * 3600 + minutes * 60)
                } else {
                    _ = scanner.skip("Z") || scanner.skip("z")
                }
            }
            guard scanner.isAtEnd, let whole = calendar.date(from: parts) else { return nil }
            return Date(timeIntervalSince1970: whole.timeIntervalSince1970 - Double(offset) + fraction)
        }

        static func string(from date: Date) -> String {
            let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
            let seconds = (micros / 1_000_000).rounded(.down)
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
            var text = pad(parts.year!, 4) + "-" + pad(parts.month!, 2) + "-" + pad(parts.day!, 2) + "T"
                + pad(parts.hour!, 2) + ":" + pad(parts.minute!, 2) + ":" + pad(parts.second!, 2)
            let fraction = Int(micros - seconds * 1_000_000)
            if fraction != 0 {
                var digits = pad(fraction, 6)
                while digits.hasSuffix("0") { digits.removeLast() }
                text += "." + digits
            }
            return text + "Z"
        }

        private static func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }

        /// Reads ISO 8601 text one character at a time.
        private struct Scanner {
            let characters: [Character]
            var index = 0

            init(_ text: String) { characters = Array(text) }

            var isAtEnd: Bool { index == characters.count }
            var previous: Character? { index > 0 ? characters[index - 1] : nil }

            mutating func skip(_ character: Character) -> Bool {
                guard !isAtEnd, characters[index] == character else { return false }
                index += 1
                return true
            }

            mutating func digits() -> String {
                var text = ""
                while !isAtEnd, characters[index].isASCII, characters[index].isNumber {
                    text.append(characters[index])
                    index += 1
                }
                return text
            }

            mutating func number(digits count: Int) -> Int? {
                guard index + count <= characters.count else { return nil }
                let text = String(characters[index..<index + count])
                guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text) else { return nil }
                index += count
                return value
            }
        }
    }

    extension KeyedDecodingContainer where Key == JSONKey {
        /// The scalar at `key`, in any form its type accepts.
        func decodeScalar<T: JSONScalar>(_ type: T.Type, forKey key: JSONKey) throws -> T {
            guard let value = try decodeScalarIfPresent(type, forKey: key) else {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key], debugDescription: "expected \(T.self)"))
            }
            return value
        }

        /// The scalar at `key`, in any form its type accepts; `nil` when the key is missing or `null`.
        func decodeScalarIfPresent<T: JSONScalar>(_ type: T.Type, forKey key: JSONKey) throws -> T? {
            guard let json = try decodeIfPresent(JSONValue.self, forKey: key), json != .null else { return nil }
            guard let value = T.converted(from: json) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected \(T.self), found \(json)")
            }
            return value
        }

        /// The array of scalars at `key`; `nil` when the key is missing or `null`.
        func decodeScalarsIfPresent<T: JSONScalar>(_ type: T.Type, forKey key: JSONKey) throws -> [T]? {
            guard let items = try decodeIfPresent([JSONValue].self, forKey: key) else { return nil }
            return try items.map { json in
                guard let value = T.converted(from: json) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected [\(T.self)], found \(json)")
                }
                return value
            }
        }

        /// The object at `key`, or `nil` when the key is missing or `null`.
        func nestedContainerIfPresent(forKey key: JSONKey) throws -> KeyedDecodingContainer<JSONKey>? {
            guard contains(key), try !decodeNil(forKey: key) else { return nil }
            return try nestedContainer(keyedBy: JSONKey.self, forKey: key)
        }

        /// The date at `key` in `format`.
        func decodeDate(forKey key: JSONKey, format: JSONDateFormat) throws -> Date {
            guard let date = try decodeDateIfPresent(forKey: key, format: format) else {
                throw DecodingError.valueNotFound(
                    Date.self, .init(codingPath: codingPath + [key], debugDescription: "expected a date"))
            }
            return date
        }

        /// The date at `key` in `format`, or `nil` when the key is missing or `null`.
        func decodeDateIfPresent(forKey key: JSONKey, format: JSONDateFormat) throws -> Date? {
            guard let value = try decodeIfPresent(JSONValue.self, forKey: key), value != .null else { return nil }
            guard let date = format.date(from: value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self, debugDescription: "expected a date in format \(format)")
            }
            return date
        }

        /// The array of dates at `key` in `format`, or `nil` when the key is missing or `null`.
        func decodeDatesIfPresent(forKey key: JSONKey, format: JSONDateFormat) throws -> [Date]? {
            guard let values = try decodeIfPresent([JSONValue].self, forKey: key) else { return nil }
            return try values.map { value in
                guard let date = format.date(from: value) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: self, debugDescription: "expected dates in format \(format)")
                }
                return date
            }
        }
    }

    extension KeyedEncodingContainer where Key == JSONKey {
        /// Writes `date` in `format` at `key`.
        mutating func encodeDate(_ date: Date, forKey key: JSONKey, format: JSONDateFormat) throws {
            try encode(format.value(for: date), forKey: key)
        }

        /// Writes `date` in `format` at `key`, unless it is `nil`.
        mutating func encodeDateIfPresent(_ date: Date?, forKey key: JSONKey, format: JSONDateFormat) throws {
            guard let date else { return }
            try encodeDate(date, forKey: key, format: format)
        }

        /// Writes `dates` in `format` at `key`, unless it is `nil`.
        mutating func encodeDatesIfPresent(_ dates: [Date]?, forKey key: JSONKey, format: JSONDateFormat) throws {
            guard let dates else { return }
            try encode(dates.map(format.value(for:)), forKey: key)
        }
    }
    """#
}
