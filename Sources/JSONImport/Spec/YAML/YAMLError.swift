/// A problem found while reading YAML text, with its 1-based position.
///
/// Syntax errors carry libyaml's position (converted from its 0-based marks); the other
/// problems (aliases, tags, documents, size limits) point at the offending node.
struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    let message: String
    let line: Int
    let column: Int

    init(_ message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    init(_ message: String, at mark: YAMLMark) {
        self.init(message, line: mark.line, column: mark.column)
    }

    var description: String { "\(line):\(column): \(message)" }
}
