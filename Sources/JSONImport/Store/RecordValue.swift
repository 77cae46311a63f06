/// A value read back from the store, in its JSON form (SPEC 4.2): what queries return and what
/// ``RecordValue/jsonText`` prints.
public indirect enum RecordValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A binary floating-point number.
    case double(Double)
    /// A JSON number kept as its exact text (numbers inside `json` attributes).
    case number(String)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([RecordValue])
    /// An object, keys in order.
    case object(RecordObject)

    /// Minified JSON text.
    public var jsonText: String {
        var writer = JSONTextWriter()
        writer.append(self)
        return writer.text
    }
}

/// An ordered JSON object: keys keep the order they were added in.
public struct RecordObject: Sendable, Hashable, Sequence {
    public private(set) var keys: [String] = []
    public private(set) var values: [RecordValue] = []

    /// Creates an empty object.
    public init() {}

    /// Creates an object from key-value pairs, in their order.
    ///
    /// - Parameter pairs: keys and values; a repeated key keeps its first position and its last value.
    public init(_ pairs: [(String, RecordValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    /// The value for `key`; setting a new key appends it. Keys compare as JSON compares them,
    /// by their code points: `"é"` (U+00E9) and `"e\u{301}"` are two keys, where Swift's `==`
    /// takes them for one.
    public subscript(key: String) -> RecordValue? {
        get { index(of: key).map { values[$0] } }
        set {
            if let index = index(of: key) {
                if let newValue { values[index] = newValue } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    private func index(of key: String) -> Int? {
        keys.firstIndex { $0.unicodeScalars.elementsEqual(key.unicodeScalars) }
    }

    /// Returns an iterator over the key-value pairs, in key order.
    ///
    /// - Returns: an iterator of `(key, value)` pairs.
    public func makeIterator() -> Zip2Sequence<[String], [RecordValue]>.Iterator {
        zip(keys, values).makeIterator()
    }

    /// The number of keys.
    public var count: Int { keys.count }
}

extension JSONTextWriter {
    mutating func append(_ value: RecordValue) {
        switch value {
        case .null: append("null")
        case .bool(let b): b ? append("true") : append("false")
        case .int(let v): appendRaw(String(v))
        case .double(let v): appendRaw(v.isFinite ? JSONTextWriter.number(v) : "null")
        case .number(let text): appendRaw(text)
        case .string(let s): appendString(s)
        case .array(let items):
            append("[")
            for (i, item) in items.enumerated() {
                if i > 0 { append(",") }
                append(item)
            }
            append("]")
        case .object(let object):
            append("{")
            for (i, (key, item)) in object.enumerated() {
                if i > 0 { append(",") }
                appendString(key)
                append(":")
                append(item)
            }
            append("}")
        }
    }

    /// A double as JSON text: integral values keep a `.0` so they read back as doubles.
    static func number(_ value: Double) -> String {
        value.description
    }
}

extension RecordValue {
    /// Builds a value tree from a parsed JSON value.
    init(_ json: JSONValue) {
        switch json.kind {
        case .null: self = .null
        case .bool: self = .bool(json.bool!)
        case .number: self = .number(String(decoding: json.numberText!, as: UTF8.self))
        case .string: self = .string(json.string!)
        case .array: self = .array(json.elements.map(RecordValue.init))
        case .object:
            var object = RecordObject()
            for (key, value) in json.members { object[String(decoding: key, as: UTF8.self)] = RecordValue(value) }
            self = .object(object)
        }
    }

    /// Parses stored JSON text (`json` and `[T]` attributes); invalid text reads as a string.
    init(jsonText text: String) {
        let parser = JSONParser()
        guard let document = try? parser.parse(JSONInput(text)) else {
            self = .string(text)
            return
        }
        // Values point into the document's tape and bytes: both live to the end of the scope.
        defer { withExtendedLifetime(document) {} }
        self = RecordValue(document.root)
    }
}

extension RecordValue {
    /// A JSON value of the mappings (a `map` key) as a record value.
    init(_ literal: LiteralValue) {
        switch literal {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let text): self = .number(text)
        case .string(let text): self = .string(text)
        }
    }
}
