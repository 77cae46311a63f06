import Foundation

/// A scalar value before conversion: a JSON scalar, or a YAML scalar resolved the same way.
package enum LiteralValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, with its exact source text in JSON number syntax.
    case number(String)
    case string(String)

    /// How messages show the value: `string "many"`, `number 1.50`, `bool true`, `null`.
    ///
    /// Strings are written as JSON string literals (so a quote or a line break cannot garble
    /// the one-line message), and long values are cut after ``shownCharacters`` characters
    /// with `…`: a payload may hold a 100 MB string where a number belongs.
    var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "bool \(b)"
        case .number(let text): return "number \(Self.shortened(text))"
        case .string(let s): return "string \(ValueConversion.jsonString(Self.shortened(s)))"
        }
    }

    /// At most this many characters of a value appear in a message.
    static let shownCharacters = 60

    /// `text`, cut after ``shownCharacters`` characters with `…` when it is longer.
    static func shortened(_ text: String) -> String {
        // At most that many UTF-8 bytes cannot make more characters; only long texts are walked.
        guard text.utf8.count > shownCharacters else { return text }
        let head = text.prefix(shownCharacters)
        return head.utf8.count == text.utf8.count ? text : head + "…"
    }
}

extension StoredValue {
    /// How messages show a stored value: text quoted as JSON and cut short like
    /// ``LiteralValue/summary``, numbers as they are.
    var shown: String {
        guard case .text(let text) = self else { return description }
        return ValueConversion.jsonString(LiteralValue.shortened(text))
    }
}

/// Why a value does not convert to an attribute type; renders as `expected int, found string "x"`.
struct ConversionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was expected: a type name, with the date format for dates (`date (iso8601)`).
    let expected: String
    /// What was found, as ``LiteralValue/summary`` shows it.
    let found: String
    /// For a `[T]` value, the index of the element that does not convert.
    var elementIndex: Int? = nil

    var description: String { "expected \(expected), found \(found)" }
}

/// Converts values to their stored form by the rules of SPEC 1.2, and applies transforms.
///
/// Shared by the mapping loader (defaults, enum values) and the import engine (record values),
/// so that both accept exactly the same inputs.
///
/// ```swift
/// ValueConversion.convert(.string("12"), to: .int, format: .iso8601)  // .success(.integer(12))
/// ```
enum ValueConversion {
    /// `value` converted to `type` (`null` stays `.null`).
    static func convert(_ value: LiteralValue, to type: ScalarType, format: DateFormat)
        -> Result<StoredValue, ConversionFailure>
    {
        if value == .null { return .success(.null) }
        let converted: StoredValue?
        switch type {
        case .int: converted = integer(value)
        case .double: converted = real(value)
        case .bool: converted = boolean(value)
        case .string: converted = string(value)
        case .date: converted = date(value, format: format)
        case .decimal: converted = decimal(value)
        case .uuid: converted = uuid(value)
        case .url: converted = url(value)
        case .json: converted = .text(jsonText(value))
        }
        guard let converted else {
            let expected = type == .date ? "date (\(format))" : type.rawValue
            return .failure(ConversionFailure(expected: expected, found: value.summary))
        }
        switch converted {
        case .real(let seconds) where type == .date:
            guard DateCoding.isInRange(seconds) else {
                return .failure(ConversionFailure(expected: "date (\(format)) \(DateCoding.rangeDescription)", found: value.summary))
            }
            return .success(.real(DateCoding.roundedToMicroseconds(seconds)))
        case .text(let text) where type == .string && text.utf8.contains(0):
            return .failure(ConversionFailure(expected: textWithoutNUL, found: value.summary))
        default:
            return .success(converted)
        }
    }

    /// What a `string` value must be: text without U+0000, which no store keeps (PostgreSQL's
    /// `text` cannot hold it), so that every store takes the same records.
    static let textWithoutNUL = "string without U+0000"

    /// `value` after `transforms`, in order; they change text values only.
    static func applying(_ transforms: [Transform], to value: StoredValue) -> StoredValue {
        transforms.reduce(value) { value, transform in
            guard case .text(let text) = value else { return value }
            switch transform {
            case .trim: return .text(text.trimmingCharacters(in: .whitespacesAndNewlines))
            case .lowercase: return .text(text.lowercased())
            case .uppercase: return .text(text.uppercased())
            case .emptyIsNull: return text.isEmpty ? .null : value
            }
        }
    }

    /// How an element of a `[T]` attribute is written in its stored JSON array: numbers for
    /// `int`, `double` and `date` (seconds), `true`/`false` for `bool`, strings otherwise.
    static func jsonElement(_ value: StoredValue, of type: ScalarType) -> String {
        switch value {
        case .null: return "null"
        case .integer(let v): return type == .bool ? (v != 0 ? "true" : "false") : String(v)
        case .real(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
        case .text(let s): return type == .json ? s : jsonString(s)
        }
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A scalar as JSON text.
    static func jsonText(_ value: LiteralValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let text): return text
        case .string(let s): return jsonString(s)
        }
    }

    // MARK: Per type

    private static func integer(_ value: LiteralValue) -> StoredValue? {
        switch value {
        case .number(let text) where NumberSyntax.isIntegerText(text):
            return Int64(text).map(StoredValue.integer)
        case .number(let text):
            // 1e3, 2.0: integral values written as floating point; 2^63 itself is out of range.
            guard let d = Double(text), d == d.rounded(), d >= -0x1p63, d < 0x1p63 else { return nil }
            return .integer(Int64(d))
        case .string(let s):
            let digits = s.hasPrefix("-") ? s.dropFirst() : Substring(s)
            // An int has at most 19 significant digits: a longer text (say, 100 MB of digits in
            // a payload) is refused without being walked whole.
            guard digits.utf8.drop(while: { $0 == UInt8(ascii: "0") }).count <= 19 else { return nil }
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int64(s).map(StoredValue.integer)
        default:
            return nil
        }
    }

    private static func real(_ value: LiteralValue) -> StoredValue? {
        switch value {
        case .number(let text): return Double(text).flatMap(storedReal)
        case .string(let s) where NumberSyntax.isJSONNumber(s): return Double(s).flatMap(storedReal)
        default: return nil
        }
    }

    /// `double` as a `double` attribute keeps it: `nil` when not finite, and `-0.0` as `0.0`,
    /// which SQLite stores it as (an integral REAL is stored as an integer), so that every store
    /// gives it back alike.
    static func storedReal(_ double: Double) -> StoredValue? {
        guard double.isFinite else { return nil }
        return .real(double == 0 ? 0 : double)
    }

    private static func boolean(_ value: LiteralValue) -> StoredValue? {
        switch value {
        case .bool(let b): return .integer(b ? 1 : 0)
        case .number("0"), .string("0"), .string("false"): return .integer(0)
        case .number("1"), .string("1"), .string("true"): return .integer(1)
        default: return nil
        }
    }

    private static func string(_ value: LiteralValue) -> StoredValue? {
        switch value {
        case .string(let s), .number(let s): return .text(s)
        case .bool(let b): return .text(b ? "true" : "false")
        case .null: return nil
        }
    }

    private static func date(_ value: LiteralValue, format: DateFormat) -> StoredValue? {
        switch (value, format) {
        case (.string(let s), _): return DateCoding.parse(s, format: format).map(StoredValue.real)
        case (.number(let text), .epoch), (.number(let text), .epochMillis):
            return DateCoding.parse(text, format: format).map(StoredValue.real)
        default: return nil
        }
    }

    private static func decimal(_ value: LiteralValue) -> StoredValue? {
        switch value {
        case .number(let text): return .text(text)
        case .string(let s) where NumberSyntax.isJSONNumber(s): return .text(s)
        default: return nil
        }
    }

    private static func uuid(_ value: LiteralValue) -> StoredValue? {
        guard case .string(let s) = value, s.utf8.count == 36 else { return nil }
        for (i, byte) in s.utf8.enumerated() {
            let isDash = i == 8 || i == 13 || i == 18 || i == 23
            let isHex = (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
            guard isDash ? byte == UInt8(ascii: "-") : isHex else { return nil }
        }
        return .text(s.lowercased())
    }

    private static func url(_ value: LiteralValue) -> StoredValue? {
        // Absolute: a relative reference (`nope`) parses as a URL too, but names nothing alone.
        guard case .string(let s) = value, !s.isEmpty, let url = URL(string: s), url.scheme?.isEmpty == false else { return nil }
        return .text(s)
    }
}
