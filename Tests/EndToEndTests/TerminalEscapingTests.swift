import Foundation
import Testing

/// Text meant for a terminal shows control characters from data as `\u{1B}`, so a payload
/// cannot retitle, clear or forge the user's terminal (SPEC 4); JSON output keeps JSON's own
/// escaping and is unchanged.
@Suite struct TerminalEscapingTests {
    /// ESC ] 0 ; … BEL (sets the window title), CR, DEL, the C1 control CSI, a tab, a newline.
    private static let hostile = #"a\u001b]0;pwned\u0007b\rc\u007fd\u009be\tf\ng"#
    private static let shown = #"a\u{1B}]0;pwned\u{7}b\u{D}c\u{7F}d\u{9B}e\u{9}f\u{A}g"#

    private static let mapping = """
        entities:
          Tag:
            primaryKey: name
            attributes:
              name: string
              count: int

        """

    private func workspace() throws -> Workspace {
        let workspace = try Workspace(mappings: ["tags.yml": Self.mapping])
        try workspace.importing(#"[{"name": "\#(Self.hostile)", "count": 1}]"#, as: "Tag", file: "tags.json")
        return workspace
    }

    /// No byte of `text` is a control character other than a line feed.
    private func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test func aTableShowsControlCharactersOfValuesEscaped() throws {
        let result = try workspace().run(["query", "Tag", "--format", "table"])
        let expected = "name" + String(repeating: " ", count: Self.shown.count - 2) + "count\n" + Self.shown + "  1\n"
        #expect(result == CLIResult(exitCode: 0, stdout: expected, stderr: ""))
    }

    @Test func jsonOutputKeepsJSONEscapingAndStaysValid() throws {
        let workspace = try workspace()
        // JSON escapes the C0 controls; DEL and C1 controls are valid in JSON text as they are.
        let json = #"{"name":"a\u001b]0;pwned\u0007b\rc"# + "\u{7F}d\u{9B}" + #"e\tf\ng","count":1}"#
        #expect(try workspace.run(["query", "Tag", "--format", "jsonl"]) == CLIResult(exitCode: 0, stdout: json + "\n", stderr: ""))
        #expect(try workspace.run(["export", "Tag", "--format", "jsonl"]) == CLIResult(exitCode: 0, stdout: json + "\n", stderr: ""))
        let report = try workspace.run(["delete", "Tag", "--where", "count = 1", "--explain", "--report", "json"])
        #expect(report.stdout.contains(#""key":"a\u001b]0;pwned\u0007b\rc"# + "\u{7F}d\u{9B}" + #"e\tf\ng""#), "\(report)")
        let parsed = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
        #expect(parsed?["entity"] as? String == "Tag")
    }

    @Test func explainTextShowsControlCharactersOfKeysEscaped() throws {
        let result = try workspace().run(["delete", "Tag", "--where", "count = 1", "--explain"])
        let expected = """
            delete Tag: 1 row deleted
              Tag: 0 inserted, 0 updated, 0 unchanged, 1 deleted
              deleted Tag "\(Self.shown)": delete

            """
        #expect(result == CLIResult(exitCode: 0, stdout: expected, stderr: ""))
    }

    @Test func errorsQuotingValuesShowControlCharactersEscaped() throws {
        let workspace = try workspace()
        try workspace.write(#"[{"name": "x", "count": "\#(Self.hostile)"}]"#, to: "bad.json")
        let refused = try workspace.run(["import", "Tag", "bad.json"])
        let message = #"bad.json: record 0 at $[0].count: expected int, found string "a\u001b]0;pwned\u0007b\rc\u{7F}d\u{9B}e\tf\ng""#
        #expect(refused == CLIResult(exitCode: 1, stdout: "", stderr: "error: \(message)\n"))
        let skipped = try workspace.run(["import", "Tag", "bad.json", "--on-error", "skip"])
        #expect(skipped.exitCode == 0, "\(skipped)")
        #expect(skipped.stdout.contains("  skipped: \(message)\n"), "\(skipped)")
        #expect(isClean(skipped.stdout), "\(skipped)")
        let badID = try CLI.run(["query", "Nope\u{1B}[2J", "--format", "json"], in: workspace.directory.url)
        #expect(badID.stderr.hasPrefix(#"error: unknown entity 'Nope\u{1B}[2J'"#), "\(badID)")
        #expect(isClean(badID.stderr), "\(badID)")
    }

    @Test func mappingErrorsShowControlCharactersEscapedWithTheCaretInPlace() throws {
        let workspace = try Workspace(mappings: ["bad.yml": "entities:\n  Item\u{07}: {}\n"])
        let expected = """
            error: Mappings/bad.yml:2:7: control characters are not allowed
              Item\\u{7}: {}
                  ^

            """
        #expect(try workspace.run(["--mappings", "Mappings", "validate"]) == CLIResult(exitCode: 1, stdout: "", stderr: expected))
        let named = try Workspace(mappings: ["bad.yml": "entities:\n  \"It\\eem\":\n    primaryKey: id\n    attributes: {id: int}\n"])
        let result = try named.run(["--mappings", "Mappings", "validate"])
        #expect(result.stderr.hasPrefix(#"error: Mappings/bad.yml:2:3: invalid entity name 'It\u{1B}em'"#), "\(result)")
        #expect(isClean(result.stderr), "\(result)")
    }
}
