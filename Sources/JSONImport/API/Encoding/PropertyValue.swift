import Foundation

/// A Swift value encoded as a tree keyed by property name, before the mapping gives it JSON
/// keys. Foundation's dates, URLs, UUIDs and decimals keep their type, so each can be written
/// the way its attribute expects.
indirect enum PropertyValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case date(Date)
    case decimal(Decimal)
    case url(URL)
    case uuid(UUID)
    case array([PropertyValue])
    case object([(String, PropertyValue)])

    static func == (a: PropertyValue, b: PropertyValue) -> Bool {
        a.json == b.json
    }

    /// The value of property `name` of an object.
    subscript(name: String) -> PropertyValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == name }?.1
    }

    /// The value as generic JSON: dates as ISO 8601 strings, decimals as numbers, URLs and
    /// UUIDs as strings (what a `json` attribute stores).
    var json: RecordValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let v): return .int(v)
        case .double(let v): return .double(v)
        case .string(let s): return .string(s)
        case .date(let d): return .string(DateCoding.format(d.timeIntervalSince1970, format: .iso8601))
        case .decimal(let d): return .number(d.description)
        case .url(let u): return .string(u.absoluteString)
        case .uuid(let u): return .string(u.uuidString.lowercased())
        case .array(let items): return .array(items.map(\.json))
        case .object(let pairs): return .object(RecordObject(pairs.map { ($0.0, $0.1.json) }))
        }
    }

    /// The value as a filter literal (SPEC 4.3), or `nil` for arrays and objects.
    var literal: FilterExpression.Literal? {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let v): return .number(String(v))
        case .double(let v): return v.isFinite ? .number(JSONTextWriter.number(v)) : nil
        case .decimal(let d): return .number(d.description)
        case .string, .date, .url, .uuid:
            guard case .string(let text) = json else { return nil }
            return .string(text)
        case .array, .object: return nil
        }
    }

    /// How messages show the value.
    var summary: String {
        switch self {
        case .array: return "an array"
        case .object: return "an object"
        default: return json.jsonText
        }
    }
}
