/// The keys of one YAML mapping, checked against the keys a place allows.
struct Fields {
    private var pairs: [String: YAMLPair] = [:]

    init(_ pairs: [String: YAMLPair]) { self.pairs = pairs }

    subscript(key: String) -> YAMLNode? { pairs[key]?.value }

    /// The key node of `key`, for problems about the key itself.
    func keyNode(_ key: String) -> YAMLNode? { pairs[key]?.key }
}

/// Typed reading of YAML nodes; each reader reports what is wrong and returns `nil`.
extension MappingLoader {
    /// The pairs of a mapping node, keyed by their text. Unknown keys (with a suggestion) and
    /// repeated keys are reported; `place` says where, as in "in entity 'User'".
    mutating func fields(_ node: YAMLNode, allowed: [String], place: String) -> Fields? {
        guard let pairs = pairs(node, place: place) else { return nil }
        var found: [String: YAMLPair] = [:]
        for pair in pairs {
            guard let name = pair.key.scalar?.value else { continue }
            if let first = found[name] {
                report(
                    .duplicateName, "duplicate key '\(name)' \(place) (first at line \(first.key.mark.line))",
                    at: pair.key)
            } else if allowed.contains(name) {
                found[name] = pair
            } else {
                report(
                    .unknownKey, "unknown key '\(name)' \(place)\(Suggestion.hint(for: name, among: allowed))",
                    at: pair.key)
            }
        }
        return Fields(found)
    }

    /// The pairs of a mapping node whose keys are scalars; `null` is an empty mapping.
    mutating func pairs(_ node: YAMLNode, place: String) -> [YAMLPair]? {
        if node.resolved == .null { return [] }
        guard let pairs = node.mapping else {
            report(.invalidValue, "expected a mapping \(place), found \(node.summary)", at: node)
            return nil
        }
        return pairs.filter { pair in
            guard pair.key.scalar == nil else { return true }
            report(.invalidValue, "keys must be names, found \(pair.key.summary) \(place)", at: pair.key)
            return false
        }
    }

    /// A scalar's text; `null` and collections are reported.
    mutating func text(_ node: YAMLNode, for key: String) -> String? {
        guard let scalar = node.scalar, node.resolved != .null else {
            report(.invalidValue, "expected a string for '\(key)', found \(node.summary)", at: node)
            return nil
        }
        return scalar.value
    }

    /// A YAML boolean (`true` / `false`).
    mutating func bool(_ node: YAMLNode, for key: String) -> Bool? {
        guard case .bool(let value) = node.resolved else {
            report(.invalidValue, "expected true or false for '\(key)', found \(node.summary)", at: node)
            return nil
        }
        return value
    }

    /// A finite YAML number.
    mutating func number(_ node: YAMLNode, for key: String) -> Double? {
        switch node.resolved {
        case .int(let v, let text):
            if let d = v.map(Double.init) ?? Double(text) { return d }
        case .float(let d, _) where d.isFinite:
            return d
        default: break
        }
        report(.invalidValue, "'\(key)' must be a number, found \(node.summary)", at: node)
        return nil
    }

    /// One of a fixed set of words, with a suggestion when the value is close to one.
    mutating func option<Value>(_ node: YAMLNode, for key: String, _ cases: [(String, Value)]) -> Value? {
        guard let word = text(node, for: key) else { return nil }
        if let match = cases.first(where: { $0.0 == word }) { return match.1 }
        let names = cases.map(\.0)
        let hint =
            Suggestion.closest(to: word, among: names).map { "did you mean '\($0)'?" }
            ?? "expected one of: \(names.joined(separator: ", "))"
        report(.invalidValue, "invalid \(key) '\(word)' (\(hint))", at: node)
        return nil
    }

    /// A JSON key path: a dotted string, or a list of literal segments.
    mutating func keyPath(_ node: YAMLNode, for key: String) -> JSONKeyPath? {
        let path: JSONKeyPath
        if let items = node.sequence {
            var segments: [String] = []
            for item in items {
                guard let segment = text(item, for: key) else { return nil }
                segments.append(segment)
            }
            path = JSONKeyPath(segments: segments)
        } else {
            guard let dotted = text(node, for: key) else { return nil }
            path = JSONKeyPath(dotted: dotted)
        }
        guard !path.segments.isEmpty, !path.segments.contains(where: \.isEmpty) else {
            report(.invalidValue, "invalid key path for '\(key)': segments must not be empty", at: node)
            return nil
        }
        return path
    }

    /// Checks an entity, property or table name against `[A-Za-z_][A-Za-z0-9_]*`, no leading `_`.
    @discardableResult
    mutating func checkName(_ name: String, kind: String, at location: SourceLocation) -> Bool {
        let isValid = name.utf8.enumerated().allSatisfy { index, byte in
            let isLetter = (65...90).contains(byte) || (97...122).contains(byte) || byte == UInt8(ascii: "_")
            return isLetter || (index > 0 && (48...57).contains(byte))
        }
        if !isValid || name.isEmpty {
            report(
                .invalidName, "invalid \(kind) name '\(name)': names must match [A-Za-z_][A-Za-z0-9_]*", at: location)
            return false
        }
        if name.hasPrefix("_") {
            report(.invalidName, "invalid \(kind) name '\(name)': names beginning with '_' are reserved", at: location)
            return false
        }
        return true
    }

    /// A YAML scalar as a value to convert: numbers keep their text in JSON syntax.
    static func literal(_ node: YAMLNode) -> LiteralValue? {
        switch node.resolved {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(_, let text): return NumberSyntax.isJSONNumber(text) ? .number(text) : .string(text)
        case .float(let d, let text):
            guard d.isFinite else { return .string(text) }
            return .number(NumberSyntax.isJSONNumber(text) ? text : String(d))
        case .string(let s): return .string(s)
        case .sequence, .mapping: return nil
        }
    }

    /// A YAML subtree as minified JSON text, or `nil` for a mapping with a non-scalar key.
    static func jsonText(_ node: YAMLNode) -> String? {
        switch node.content {
        case .scalar:
            return literal(node).map(ValueConversion.jsonText)
        case .sequence(let items):
            var parts: [String] = []
            for item in items {
                guard let part = jsonText(item) else { return nil }
                parts.append(part)
            }
            return "[" + parts.joined(separator: ",") + "]"
        case .mapping(let pairs):
            var parts: [String] = []
            for pair in pairs {
                guard let key = pair.key.scalar?.value, let value = jsonText(pair.value) else { return nil }
                parts.append(ValueConversion.jsonString(key) + ":" + value)
            }
            return "{" + parts.joined(separator: ",") + "}"
        }
    }
}
