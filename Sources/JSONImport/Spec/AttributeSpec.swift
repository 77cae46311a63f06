import Foundation

/// One attribute of an entity (SPEC 1.2).
public struct AttributeSpec: Sendable, Hashable {
    /// The property name; also the name of its column.
    public let name: String
    /// The type values convert to and are stored as.
    public let type: AttributeType
    /// Where the value is read in a record.
    public let key: JSONKeyPath
    /// `null` is a record error, and so is a missing key when a row is inserted without a default.
    public let isRequired: Bool
    /// Stored when a row is inserted and the key is missing; already converted to `type`.
    public let defaultValue: StoredValue?
    /// How `date` values are read and written.
    public let dateFormat: DateFormat
    /// Allowed values, converted to `type` (to its element type for `[T]`: each element must be one).
    public let allowedValues: [StoredValue]?
    /// Inclusive lower bound on a number's value, a string's length in characters or an array's
    /// count; `nil` for none.
    public let minimum: Double?
    /// Inclusive upper bound on a number's value, a string's length in characters or an array's
    /// count; `nil` for none.
    public let maximum: Double?
    /// Regular expression the whole string must match.
    public let pattern: String?
    /// Transforms of text values, applied in order after conversion and before validation.
    public let transforms: [Transform]
    /// The column has an index.
    public let isIndexed: Bool
    /// The column has a unique index: a duplicate value is a record error.
    public let isUnique: Bool
    /// `false` leaves the attribute out of `export`; never `false` on a primary-key attribute.
    public let isExported: Bool
    /// JSON values read as `null` before conversion (`nullIf`).
    let nullValues: [LiteralValue]
    /// The value map applied before conversion (`map`): a JSON value found among the keys is
    /// stored as its value, already converted; `nil` when the attribute has none.
    let valueMap: [ValueMapEntry]?
    /// What a JSON value not in ``valueMap`` is stored as (`mapDefault`); without one it is a
    /// record error.
    let mapDefault: StoredValue?
    /// `present: true`: a `bool` that says whether the record has the key, with any value but
    /// `null`.
    public let isPresence: Bool
    /// Where the attribute's name is written in its mapping file.
    public let location: SourceLocation

    package init(
        name: String, type: AttributeType, key: JSONKeyPath, isRequired: Bool = false,
        defaultValue: StoredValue? = nil, dateFormat: DateFormat = .iso8601,
        allowedValues: [StoredValue]? = nil, minimum: Double? = nil, maximum: Double? = nil,
        pattern: String? = nil, transforms: [Transform] = [], isIndexed: Bool = false,
        isUnique: Bool = false, isExported: Bool = true, nullValues: [LiteralValue] = [],
        valueMap: [ValueMapEntry]? = nil, mapDefault: StoredValue? = nil, isPresence: Bool = false,
        location: SourceLocation
    ) {
        self.name = name
        self.type = type
        self.key = key
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.dateFormat = dateFormat
        self.allowedValues = allowedValues
        self.minimum = minimum
        self.maximum = maximum
        self.pattern = pattern
        self.transforms = transforms
        self.isIndexed = isIndexed
        self.isUnique = isUnique
        self.isExported = isExported
        self.nullValues = nullValues
        self.valueMap = valueMap
        self.mapDefault = mapDefault
        self.isPresence = isPresence
        self.location = location
    }

    /// The JSON value a stored value is written back as: the first key of ``valueMap`` that
    /// maps to it, so that an export imports back to the same value; `nil` when none does.
    func mappedKey(of stored: StoredValue) -> LiteralValue? {
        valueMap?.first { $0.value == stored }?.key
    }
}

/// One entry of an attribute's value map: a JSON value, and the value stored for it.
package struct ValueMapEntry: Sendable, Hashable {
    package let key: LiteralValue
    package let value: StoredValue
}

/// The scalar types an attribute or an array element can have.
public enum ScalarType: String, Sendable, Hashable, CaseIterable {
    /// Text; a JSON number is taken as its source text, a Boolean as `"true"`/`"false"`.
    case string
    /// A 64-bit integer; out-of-range values are errors, never wrapped.
    case int
    /// A binary floating-point number.
    case double
    /// `true`/`false`, also `0`/`1` and their string forms; stored as 0/1.
    case bool
    /// An instant, read in the attribute's `format`; stored as seconds since 1970 UTC.
    case date
    /// An exact decimal number, kept as its text.
    case decimal
    /// A UUID, stored lowercase.
    case uuid
    /// An absolute URL.
    case url
    /// Any JSON subtree, kept as minified JSON text.
    case json
}

/// An attribute's type: a scalar, or `[T]`, an array of a scalar type (SPEC 1.2).
public enum AttributeType: Sendable, Hashable, CustomStringConvertible {
    case scalar(ScalarType)
    case array(ScalarType)

    /// `string`: text.
    public static let string = AttributeType.scalar(.string)
    /// `int`: a 64-bit integer.
    public static let int = AttributeType.scalar(.int)
    /// `double`: a floating-point number.
    public static let double = AttributeType.scalar(.double)
    /// `bool`: `true` or `false`, stored as 0 or 1.
    public static let bool = AttributeType.scalar(.bool)
    /// `date`: an instant, stored as seconds since 1970 UTC.
    public static let date = AttributeType.scalar(.date)
    /// `decimal`: a number kept as its exact text.
    public static let decimal = AttributeType.scalar(.decimal)
    /// `uuid`: a UUID, stored in lowercase.
    public static let uuid = AttributeType.scalar(.uuid)
    /// `url`: a URL, stored as text.
    public static let url = AttributeType.scalar(.url)
    /// `json`: any JSON value, stored as minified JSON text.
    public static let json = AttributeType.scalar(.json)

    /// Parses `string`, `[int]`, … ; `nil` for anything else.
    public init?(parsing text: String) {
        if text.hasPrefix("[") && text.hasSuffix("]") {
            guard let element = ScalarType(rawValue: String(text.dropFirst().dropLast())),
                element != .json
            else { return nil }
            self = .array(element)
        } else {
            guard let scalar = ScalarType(rawValue: text) else { return nil }
            self = .scalar(scalar)
        }
    }

    /// The type as written in the mappings: `int`, `[string]`.
    public var description: String {
        switch self {
        case .scalar(let t): return t.rawValue
        case .array(let t): return "[\(t.rawValue)]"
        }
    }
}

/// How a `date` attribute is written in JSON.
public enum DateFormat: Sendable, Hashable, CustomStringConvertible {
    /// ISO 8601, with optional fractional seconds and offset.
    case iso8601
    /// Seconds since 1970 (a number or a string holding one).
    case epoch
    /// Milliseconds since 1970.
    case epochMillis
    /// A fixed pattern such as `yyyy-MM-dd HH:mm:ss`, interpreted in UTC.
    case pattern(String)

    /// Reads a `format` value: `iso8601`, `epoch` or `epochMillis`; any other text is a pattern.
    ///
    /// - Parameter text: the value of the attribute's `format` key.
    public init(parsing text: String) {
        switch text {
        case "iso8601": self = .iso8601
        case "epoch": self = .epoch
        case "epochMillis": self = .epochMillis
        default: self = .pattern(text)
        }
    }

    /// The format as written in the mappings: its name, or the pattern itself.
    public var description: String {
        switch self {
        case .iso8601: return "iso8601"
        case .epoch: return "epoch"
        case .epochMillis: return "epochMillis"
        case .pattern(let p): return p
        }
    }
}

/// A value transform applied after conversion and before validation.
public enum Transform: String, Sendable, Hashable, CaseIterable {
    /// Removes Unicode whitespace at both ends.
    case trim
    /// Lowercases the text.
    case lowercase
    /// Uppercases the text.
    case uppercase
    /// Turns an empty string into `null`.
    case emptyIsNull
}

/// A value as a store holds it in a column: null, an integer, a floating-point number or text.
///
/// Storage conventions: `int` → integer; `double` → real; `bool` → integer 0/1; `date` → real,
/// seconds since 1970 UTC; `string`, `decimal` (exact text), `uuid` (lowercase), `url` → text;
/// `json` and `[T]` → text holding minified JSON. In a `[T]` array, elements are written as JSON
/// numbers for `int`, `double` and `date` (seconds), `true`/`false` for `bool`, and strings
/// otherwise (see `ValueConversion.jsonElement`).
///
/// Two text values are equal when they hold the same code points, as every store compares text:
/// `"é"` (U+00E9) and `"e\u{301}"` are two values, which `String`'s `==` would take for one.
public enum StoredValue: Sendable, Hashable, CustomStringConvertible {
    /// No value (`NULL`).
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// Text.
    case text(String)

    /// The value for messages: `null`, a number as is, or text in double quotes.
    public var description: String {
        switch self {
        case .null: return "null"
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let v): return "\"\(v)\""
        }
    }

    public static func == (a: StoredValue, b: StoredValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x == y
        case (.text(let x), .text(let y)): return x.hasSameCodePoints(as: y)
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .integer(let v):
            hasher.combine(1 as UInt8)
            hasher.combine(v)
        case .real(let v):
            hasher.combine(2 as UInt8)
            hasher.combine(v)
        case .text(let v):
            hasher.combine(3 as UInt8)
            v.hashCodePoints(into: &hasher)
        }
    }
}
