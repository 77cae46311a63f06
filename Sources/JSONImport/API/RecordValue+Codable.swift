import Foundation

/// Records read as field/value objects (`pluck` of fields, `records`) are `Codable`: they
/// encode as the JSON they stand for, so they can be sent on, cached or logged as they are.
///
/// ```swift
/// let rows = try mapper.query(User.self).pluck(["login", "score"])
/// let json = try JSONEncoder().encode(rows)   // [{"login":"ana","score":71.5}, …]
/// ```
///
/// A number kept as its exact text (in a `json` attribute) encodes as a `Decimal`. Decoding
/// reads any JSON value; an object's keys keep the order the decoder gives them.
extension RecordValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: RecordObject.Key.self) {
            self = .object(try RecordObject(from: object))
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var items: [RecordValue] = []
            while !list.isAtEnd { items.append(try list.decode(RecordValue.self)) }
            self = .array(items)
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? value.decode(Int64.self) {
            self = .int(int)
        } else if let double = try? value.decode(Double.self) {
            self = .double(double)
        } else {
            self = .string(try value.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            try object.encode(to: encoder)
        case .array(let items):
            var list = encoder.unkeyedContainer()
            for item in items { try list.encode(item) }
        default:
            var value = encoder.singleValueContainer()
            switch self {
            case .null: try value.encodeNil()
            case .bool(let bool): try value.encode(bool)
            case .int(let int): try value.encode(int)
            case .double(let double): try value.encode(double)
            case .number(let text): try value.encode(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0)
            case .string(let string): try value.encode(string)
            case .object, .array: break
            }
        }
    }
}

extension RecordObject: Codable {
    /// Any key of a JSON object.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder.container(keyedBy: Key.self))
    }

    init(from container: KeyedDecodingContainer<Key>) throws {
        self.init()
        for key in container.allKeys { self[key.stringValue] = try container.decode(RecordValue.self, forKey: key) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in self { try container.encode(value, forKey: Key(stringValue: key)) }
    }
}
