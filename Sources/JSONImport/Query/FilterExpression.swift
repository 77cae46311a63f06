/// A parsed filter expression (SPEC 4.3).
indirect enum FilterExpression: Equatable, Sendable {
    case or([FilterExpression])
    case and([FilterExpression])
    case not(FilterExpression)
    case compare(path: [String], op: Operator, value: Literal)
    case isIn(path: [String], values: [Literal])
    case isNull(path: [String], negated: Bool)
    case like(path: [String], pattern: String)
    /// The `[T]` attribute at `path` holds `value` as an element.
    case contains(path: [String], value: Literal)

    enum Operator: String, Equatable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    enum Literal: Equatable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)

        var literalValue: LiteralValue {
            switch self {
            case .null: return .null
            case .bool(let b): return .bool(b)
            case .number(let n): return .number(n)
            case .string(let s): return .string(s)
            }
        }
    }
}

/// A malformed filter or a name the mappings do not have; a usage error (exit 2).
public struct FilterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the filter.
    public let message: String
    /// 1-based character column in the expression, when known.
    public let column: Int?

    /// `invalid filter at column C: message`, or `invalid filter: message` without a column.
    public var description: String {
        column.map { "invalid filter at column \($0): \(message)" } ?? "invalid filter: \(message)"
    }
}

/// Parses the grammar of SPEC 4.3.
struct FilterParser {
    private var tokens: [Token]
    private var position = 0
    private var depth = 0
    private var conditions = 0
    private var values = 0

    /// The deepest nesting of parentheses: the parser recurses on it. (What may run is
    /// checked after parsing, by ``FilterExpression/normalized()``.)
    static let maximumDepth = 64

    struct Token: Equatable {
        enum Kind: Equatable { case name, number, string, symbol, end }
        let kind: Kind
        let text: String
        let column: Int
    }

    static func parse(_ text: String) throws(FilterError) -> FilterExpression {
        var parser = FilterParser(tokens: try tokenize(text))
        let expression = try parser.parseOr()
        guard parser.peek.kind == .end else { throw parser.error("unexpected '\(parser.peek.text)'") }
        return expression
    }

    private init(tokens: [Token]) { self.tokens = tokens }

    private var peek: Token { tokens[position] }

    private mutating func advance() -> Token {
        let token = tokens[position]
        if token.kind != .end { position += 1 }
        return token
    }

    private func isKeyword(_ token: Token, _ word: String) -> Bool {
        token.kind == .name && token.text.uppercased() == word
    }

    private mutating func accept(keyword: String) -> Bool {
        if isKeyword(peek, keyword) {
            position += 1
            return true
        }
        return false
    }

    private mutating func accept(symbol: String) -> Bool {
        if peek.kind == .symbol && peek.text == symbol {
            position += 1
            return true
        }
        return false
    }

    private func error(_ message: String) -> FilterError {
        FilterError(message: message, column: peek.column)
    }

    private mutating func parseOr() throws(FilterError) -> FilterExpression {
        var parts = [try parseAnd()]
        while accept(keyword: "OR") { parts.append(try parseAnd()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func parseAnd() throws(FilterError) -> FilterExpression {
        var parts = [try parseNot()]
        while accept(keyword: "AND") { parts.append(try parseNot()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func parseNot() throws(FilterError) -> FilterExpression {
        // A run of NOTs is counted, not recursed on: an even number of them cancels out.
        var isNegated = false
        while accept(keyword: "NOT") { isNegated.toggle() }
        let operand = try parseOperand()
        return isNegated ? .not(operand) : operand
    }

    private mutating func parseOperand() throws(FilterError) -> FilterExpression {
        if peek.kind == .symbol && peek.text == "(" {
            guard depth < Self.maximumDepth else {
                throw error("parentheses nested more than \(Self.maximumDepth) levels deep")
            }
            depth += 1
            defer { depth -= 1 }
            position += 1
            let inner = try parseOr()
            guard accept(symbol: ")") else { throw error("expected ')'") }
            return inner
        }
        conditions += 1
        // The limits of FilterExpression, checked here too so a huge filter stops early, at the
        // column where it passes them.
        guard conditions <= FilterExpression.maximumConditions else {
            throw error("more than \(FilterExpression.maximumConditions) conditions in one filter")
        }
        return try parseCompare()
    }

    private static let keywords: Set<String> = ["AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "CONTAINS", "TRUE", "FALSE"]

    private mutating func parseCompare() throws(FilterError) -> FilterExpression {
        let path = try parsePath()
        if accept(keyword: "IN") {
            guard accept(symbol: "(") else { throw error("expected '(' after IN") }
            var values = [try parseValue()]
            while accept(symbol: ",") { values.append(try parseValue()) }
            guard accept(symbol: ")") else { throw error("expected ')' after the IN list") }
            return .isIn(path: path, values: values)
        }
        if accept(keyword: "IS") {
            let negated = accept(keyword: "NOT")
            guard accept(keyword: "NULL") else { throw error("expected NULL after IS") }
            return .isNull(path: path, negated: negated)
        }
        if accept(keyword: "CONTAINS") {
            return .contains(path: path, value: try parseValue())
        }
        if accept(keyword: "LIKE") {
            guard peek.kind == .string else { throw error("expected a quoted pattern after LIKE") }
            return .like(path: path, pattern: advance().text)
        }
        guard peek.kind == .symbol, let op = FilterExpression.Operator(rawValue: peek.text) else {
            throw error(peek.kind == .end ? "expected an operator after '\(path.joined(separator: "."))'" : "expected an operator, found '\(peek.text)'")
        }
        position += 1
        return .compare(path: path, op: op, value: try parseValue())
    }

    private mutating func parsePath() throws(FilterError) -> [String] {
        guard peek.kind == .name, !Self.keywords.contains(peek.text.uppercased()) else {
            throw error(peek.kind == .end ? "expected a field name" : "expected a field name, found '\(peek.text)'")
        }
        var path = [advance().text]
        while accept(symbol: ".") {
            guard peek.kind == .name else { throw error("expected a field name after '.'") }
            path.append(advance().text)
        }
        return path
    }

    private mutating func parseValue() throws(FilterError) -> FilterExpression.Literal {
        values += 1
        guard values <= FilterExpression.maximumValues else {
            throw error("more than \(FilterExpression.maximumValues) values in one filter")
        }
        let token = peek
        switch token.kind {
        case .number: position += 1; return .number(token.text)
        case .string: position += 1; return .string(token.text)
        case .name where isKeyword(token, "TRUE"): position += 1; return .bool(true)
        case .name where isKeyword(token, "FALSE"): position += 1; return .bool(false)
        case .name where isKeyword(token, "NULL"): position += 1; return .null
        case .symbol where token.text == "-":
            position += 1
            guard peek.kind == .number else { throw error("expected a number after '-'") }
            return .number("-" + advance().text)
        default:
            throw error(token.kind == .end ? "expected a value" : "expected a value, found '\(token.text)'")
        }
    }

    private static func tokenize(_ text: String) throws(FilterError) -> [Token] {
        var tokens: [Token] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let column = i + 1
            if c.isWhitespace {
                i += 1
            } else if c.isLetter || c == "_" {
                var j = i
                while j < chars.count && (chars[j].isLetter || chars[j].isNumber || chars[j] == "_") { j += 1 }
                tokens.append(Token(kind: .name, text: String(chars[i..<j]), column: column))
                i = j
            } else if c.isASCII && c.isNumber {
                var j = i
                while j < chars.count && (chars[j].isNumber || chars[j] == "." || chars[j] == "e" || chars[j] == "E"
                    || ((chars[j] == "+" || chars[j] == "-") && (chars[j - 1] == "e" || chars[j - 1] == "E"))) { j += 1 }
                let number = String(chars[i..<j])
                guard NumberSyntax.isJSONNumber(number) else {
                    throw FilterError(message: "invalid number '\(number)'", column: column)
                }
                tokens.append(Token(kind: .number, text: number, column: column))
                i = j
            } else if c == "'" || c == "\"" {
                var j = i + 1
                var value = ""
                var closed = false
                while j < chars.count {
                    if chars[j] == c {
                        if j + 1 < chars.count && chars[j + 1] == c {
                            value.append(c)
                            j += 2
                            continue
                        }
                        closed = true
                        break
                    }
                    value.append(chars[j])
                    j += 1
                }
                guard closed else { throw FilterError(message: "unterminated string", column: column) }
                tokens.append(Token(kind: .string, text: value, column: column))
                i = j + 1
            } else {
                let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
                if ["!=", "<=", ">=", "<>"].contains(two) {
                    tokens.append(Token(kind: .symbol, text: two == "<>" ? "!=" : two, column: column))
                    i += 2
                } else if "=<>(),.-".contains(c) {
                    tokens.append(Token(kind: .symbol, text: String(c), column: column))
                    i += 1
                } else {
                    // A control or invisible character would print as nothing: name its code point.
                    let shown = c.unicodeScalars.allSatisfy { $0.properties.isGraphemeBase || $0 == " " }
                        ? "'\(c)'" : c.unicodeScalars.map(Self.codePoint).joined(separator: " ")
                    throw FilterError(message: "unexpected character \(shown)", column: column)
                }
            }
        }
        tokens.append(Token(kind: .end, text: "", column: chars.count + 1))
        return tokens
    }

    /// `U+0007`.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
