/// How a property name becomes a JSON key when the mapping gives no `key` (SPEC 1.1).
///
/// Names are split into words at `_`, `-` and case changes (`htmlURL` → `html`, `URL`;
/// `URLValue` → `URL`, `Value`); digits stay with the word before them.
///
/// ```swift
/// KeyStyle.snakeCase.key(for: "createdAt")   // "created_at"
/// KeyStyle.kebabCase.key(for: "createdAt")   // "created-at"
/// KeyStyle.camelCase.key(for: "created_at")  // "createdAt"
/// ```
enum KeyStyle: String, CaseIterable, Sendable {
    case asIs
    case snakeCase = "snake_case"
    case camelCase
    case kebabCase = "kebab-case"

    /// The JSON key for property `name`.
    func key(for name: String) -> String {
        switch self {
        case .asIs:
            return name
        case .snakeCase:
            return Self.words(of: name).map { $0.lowercased() }.joined(separator: "_")
        case .kebabCase:
            return Self.words(of: name).map { $0.lowercased() }.joined(separator: "-")
        case .camelCase:
            let words = Self.words(of: name)
            guard let first = words.first else { return name }
            // Later words keep their capitals, so acronyms survive: `html_URL` → `htmlURL`.
            return first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }
    }

    /// Splits a name into words at separators and case changes.
    static func words(of name: String) -> [String] {
        let chars = Array(name)
        var words: [String] = []
        var current = ""
        for (i, c) in chars.enumerated() {
            if c == "_" || c == "-" {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if c.isUppercase, let last = current.last {
                let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                // A new word starts at lower→Upper, digit→Upper, and at the last capital of an
                // acronym that is followed by a lowercase word (`URLValue`).
                if !last.isUppercase || nextIsLower {
                    words.append(current)
                    current = ""
                }
            }
            current.append(c)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
