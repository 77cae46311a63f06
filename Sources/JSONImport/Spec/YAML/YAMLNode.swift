/// A 1-based position in YAML text (column counted in characters, as libyaml counts).
struct YAMLMark: Sendable, Hashable {
    let line: Int
    let column: Int
}

/// One node of a composed YAML document: aliases already replaced by their anchored node and
/// merge keys (`<<`) already applied.
struct YAMLNode: Sendable {
    /// What the node holds.
    enum Content: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    let content: Content
    /// The node's explicit tag in full (`tag:yaml.org,2002:str`, `!`), or `nil` when untagged.
    let tag: String?
    let mark: YAMLMark
    /// Number of nodes in this subtree, itself included, with aliases expanded.
    let size: Int

    init(_ content: Content, tag: String?, mark: YAMLMark) {
        self.content = content
        self.tag = tag
        self.mark = mark
        switch content {
        case .scalar: size = 1
        case .sequence(let items): size = items.reduce(1) { $0 + $1.size }
        case .mapping(let pairs): size = pairs.reduce(1) { $0 + $1.key.size + $1.value.size }
        }
    }

    var scalar: YAMLScalar? {
        if case .scalar(let s) = content { return s }
        return nil
    }

    var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The value as the YAML 1.2 core schema resolves it (explicit tags first).
    var resolved: YAMLValue {
        switch content {
        case .sequence: return .sequence
        case .mapping: return .mapping
        case .scalar(let s): return YAMLValue.resolve(s, tag: tag)
        }
    }

    /// A short phrase naming what the node holds, for messages: `string "x"`, `a mapping`.
    var summary: String { resolved.summary(text: scalar?.value ?? "") }
}

/// A key and its value in a YAML mapping.
struct YAMLPair: Sendable {
    let key: YAMLNode
    let value: YAMLNode
}

/// A scalar's text and how it was written.
struct YAMLScalar: Sendable, Hashable {
    enum Style: Sendable, Hashable { case plain, singleQuoted, doubleQuoted, literal, folded }

    let value: String
    let style: Style

    var isPlain: Bool { style == .plain }
}

/// A scalar resolved by the YAML 1.2 core schema.
enum YAMLValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An integer, with its value when it fits in 64 bits and its decimal text.
    case int(Int64?, text: String)
    /// A floating-point number with its source text.
    case float(Double, text: String)
    case string(String)
    case sequence
    case mapping

    static let coreTag = "tag:yaml.org,2002:"

    static func resolve(_ scalar: YAMLScalar, tag: String?) -> YAMLValue {
        let text = scalar.value
        switch tag {
        case coreTag + "str", "!": return .string(text)
        case coreTag + "null": return .null
        case coreTag + "bool": return resolveBool(text).map(YAMLValue.bool) ?? .string(text)
        case coreTag + "int": return resolveInt(text) ?? .string(text)
        case coreTag + "float": return resolveInt(text).map(\.asFloat) ?? resolveFloat(text) ?? .string(text)
        case nil where scalar.isPlain: return resolvePlain(text)
        default: return .string(text)
        }
    }

    private static func resolvePlain(_ text: String) -> YAMLValue {
        if ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
        if let b = resolveBool(text) { return .bool(b) }
        return resolveInt(text) ?? resolveFloat(text) ?? .string(text)
    }

    private static func resolveBool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    private static func resolveInt(_ text: String) -> YAMLValue? {
        var body = Substring(text)
        var radix = 10
        var isNegative = false
        if body.hasPrefix("0x") {
            radix = 16
            body = body.dropFirst(2)
        } else if body.hasPrefix("0o") {
            radix = 8
            body = body.dropFirst(2)
        } else if let sign = body.first, sign == "-" || sign == "+" {
            isNegative = sign == "-"
            body = body.dropFirst()
        }
        guard !body.isEmpty, body.utf8.allSatisfy({ isDigit($0, radix: radix) }) else { return nil }
        let value = UInt64(body, radix: radix).flatMap { magnitude -> Int64? in
            guard isNegative else { return Int64(exactly: magnitude) }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : Int64(exactly: magnitude).map { -$0 }
        }
        let decimal = value.map { String($0) } ?? (radix == 10 ? (isNegative ? "-" : "") + body : text)
        return .int(value, text: decimal)
    }

    private static func resolveFloat(_ text: String) -> YAMLValue? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .float(.infinity, text: text)
        case "-.inf", "-.Inf", "-.INF": return .float(-.infinity, text: text)
        case ".nan", ".NaN", ".NAN": return .float(.nan, text: text)
        default: break
        }
        // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        let intDigits = bytes.prefix { isDigit($0, radix: 10) }
        bytes = bytes.dropFirst(intDigits.count)
        var fracDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fracDigits = bytes.prefix { isDigit($0, radix: 10) }.count
            bytes = bytes.dropFirst(fracDigits)
            guard intDigits.count > 0 || fracDigits > 0 else { return nil }
        } else if intDigits.isEmpty {
            return nil
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let s = bytes.first, s == UInt8(ascii: "-") || s == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let expDigits = bytes.prefix { isDigit($0, radix: 10) }.count
            guard expDigits > 0 else { return nil }
            bytes = bytes.dropFirst(expDigits)
        }
        guard bytes.isEmpty, let value = Double(text) else { return nil }
        return .float(value, text: text)
    }

    private static func isDigit(_ byte: UInt8, radix: Int) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "7"): return true
        case UInt8(ascii: "8"), UInt8(ascii: "9"): return radix >= 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): return radix == 16
        default: return false
        }
    }

    private var asFloat: YAMLValue {
        if case .int(let v, let text) = self { return .float(v.map(Double.init) ?? Double(text) ?? .nan, text: text) }
        return self
    }

    /// A short phrase for messages: `string "x"`, `number 1.5`, `bool true`, `null`, `a mapping`.
    func summary(text: String) -> String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "bool \(b)"
        case .int(_, let t), .float(_, let t): return "number \(LiteralValue.shortened(t))"
        case .string(let s): return LiteralValue.string(s).summary
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}
