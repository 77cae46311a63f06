/// The comments written next to declarations in a mapping file, for generated documentation.
///
/// libyaml drops comments, so they are read from the file's text by line: a declaration's
/// comment is the block of whole-line comments right above its line (no blank line between)
/// followed by the comment at the end of the line itself.
///
/// ```yaml
/// # Repositories the user owns.      ← block above
/// repos: { to: Repo, kind: many }    # newest first   ← end of line
/// ```
///
/// gives `["Repositories the user owns.", "newest first"]` for line 2.
struct YAMLComments {
    private let lines: [Substring]

    init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    }

    /// The comment lines for the declaration on 1-based line `line`, without their `#`.
    func comment(forLine line: Int) -> [String] {
        guard line >= 1, line <= lines.count else { return [] }
        var above: [String] = []
        var index = line - 2
        while index >= 0, let text = Self.wholeLineComment(lines[index]) {
            above.insert(text, at: 0)
            index -= 1
        }
        if let trailing = Self.trailingComment(lines[line - 1]) { above.append(trailing) }
        return above
    }

    /// The text of a line that holds only a comment.
    private static func wholeLineComment(_ line: Substring) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("#") else { return nil }
        return text(ofComment: trimmed.dropFirst())
    }

    /// The comment after the content of a line: a `#` outside quotes, after a space.
    private static func trailingComment(_ line: Substring) -> String? {
        var quote: Character?
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" && (previous == " " || previous == "\t") {
                let comment = text(ofComment: line.dropFirst(offset + 1))
                return comment.isEmpty ? nil : comment
            }
            previous = character
        }
        return nil
    }

    private static func text(ofComment comment: Substring) -> String {
        String(comment.drop { $0 == "#" }.trimmingPrefix(" ")).trimmingTrailingSpaces()
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
