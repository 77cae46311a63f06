import Testing

@testable import JSONImport

/// Control characters (C0, DEL, C1) are written as `\u{…}`; every other character is kept.
@Suite struct TerminalTextTests {
    @Test func everyControlCharacterIsWrittenAsItsCodePoint() {
        let controls = (0..<0x20).map { $0 } + (0x7F...0x9F).map { $0 }
        for value in controls {
            let scalar = Unicode.Scalar(UInt32(value))!
            let hex = String(value, radix: 16, uppercase: true)
            #expect(TerminalText.escaped("a\(Character(scalar))b") == "a\\u{\(hex)}b")
        }
    }

    @Test func otherCharactersAndKeptControlsStayAsTheyAre() {
        let text = "plain é ü 日本 🙂 \u{A0} \u{2028} \\u{1B}"
        #expect(TerminalText.escaped(text) == text)
        #expect(TerminalText.escaped("a\tb\nc\u{1B}", keeping: ["\t", "\n"]) == "a\tb\nc\\u{1B}")
    }
    @Test func aReportsTextAndAMappingErrorsExcerptAreEscaped() throws {
        let mapper = try makeMapper("entities:\n  Tag:\n    primaryKey: name\n    attributes: {name: string}\n")
        try mapper.importJSON(#"[{"name": "a\u001b[2Jb"}]"#, as: "Tag")
        let report = try mapper.delete("Tag", where: "name LIKE 'a%'", options: .init(explain: true))
        #expect(report.text.hasSuffix(#"deleted Tag "a\u{1B}[2Jb": delete"#))
        let diagnostic = MappingDiagnostic(
            code: .syntax, location: SourceLocation(file: "m.yml", line: 2, column: 5),
            message: "control characters are not allowed", sourceLine: "\tI\u{7}\u{7}x")
        // The caret stays under the column: past one escaped character, kept tab included.
        #expect(diagnostic.description == "m.yml:2:5: error: control characters are not allowed\n\tI\\u{7}\\u{7}x\n\t" + String(repeating: " ", count: 11) + "^")
    }
}
