/// The part of `JSONSupport.swift` that reads scalars as the mappings' type table does
/// (``SwiftSupportFile``).
extension SwiftSupportFile {
    static let scalars = #"""
    /// A scalar an API may send in more than one JSON form, read as the mappings' type table
    /// reads it: an `Int` from an integral number or a string holding one, a `Bool` from
    /// `true`/`false`, `0`/`1` or those as strings, a number from a string, a `String` from a
    /// number or a `Bool`.
    protocol JSONScalar: Codable {
        /// The value `json` holds in one of the forms the type accepts, or `nil`.
        static func converted(from json: JSONValue) -> Self?
    }

    extension Int: JSONScalar {
        static func converted(from json: JSONValue) -> Int? {
            switch json {
            case .number(let number): return Int(number.description)  // integral values only, every digit kept
            case .string(let text): return Int(text)
            default: return nil
            }
        }
    }

    extension Double: JSONScalar {
        static func converted(from json: JSONValue) -> Double? {
            switch json {
            case .number(let number): return Double(number.description)
            case .string(let text): return Double(text)
            default: return nil
            }
        }
    }

    extension Decimal: JSONScalar {
        static func converted(from json: JSONValue) -> Decimal? {
            switch json {
            case .number(let number): return number
            case .string(let text): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            default: return nil
            }
        }
    }

    extension Bool: JSONScalar {
        static func converted(from json: JSONValue) -> Bool? {
            switch json {
            case .bool(let value): return value
            case .number(let number) where number == 0 || number == 1: return number == 1
            case .string("true"), .string("1"): return true
            case .string("false"), .string("0"): return false
            default: return nil
            }
        }
    }

    extension String: JSONScalar {
        static func converted(from json: JSONValue) -> String? {
            switch json {
            case .string(let text): return text
            case .number(let number): return number.description
            case .bool(let value): return value ? "true" : "false"
            default: return nil
            }
        }
    }

    extension UUID: JSONScalar {
        static func converted(from json: JSONValue) -> UUID? {
            if case .string(let text) = json { return UUID(uuidString: text) }
            return nil
        }
    }

    extension URL: JSONScalar {
        static func converted(from json: JSONValue) -> URL? {
            if case .string(let text) = json { return URL(string: text) }
            return nil
        }
    }
    """#
}
