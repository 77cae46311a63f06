import Testing

@testable import jsonimport
import JSONImport

/// The parser's rules for what no registered command exercises yet: repeatable options, closed
/// value sets, variadic arguments. Run in process; everything else here runs the binary.
@Suite struct ArgumentParserTests {
    /// Options and arguments shaped like `import ENTITY FILE...`.
    private let parser = ArgumentParser(
        options: [
            .value("--id", "VALUE", help: "", isRepeatable: true),
            .value("--format", "FORMAT", help: "", allowed: ["json", "jsonl"]),
            .flag("--prune", help: ""),
        ],
        arguments: [ArgumentSpec("ENTITY", help: ""), ArgumentSpec("FILE", help: "", isRepeatable: true)])

    @Test func repeatableOptionKeepsEveryValueInOrder() throws {
        let parsed = try parser.parse(["User", "--id", "3", "a.json", "--id=1", "-", "--id", "-2"])
        #expect(parsed.values(of: "--id") == ["3", "1", "-2"])
        #expect(parsed.argument("ENTITY") == "User")
        #expect(parsed.arguments("FILE") == ["a.json", "-"])
    }

    @Test func valueOutsideTheAllowedSetSuggestsTheClosest() {
        let expected = "for option '--format': expected one of json, jsonl"
        #expect(throws: CLIError(.usage, "invalid value 'jsnl' \(expected) (did you mean 'jsonl'?)")) {
            try parser.parse(["User", "a.json", "--format", "jsnl"])
        }
        #expect(throws: CLIError(.usage, "invalid value 'xml' \(expected)")) {
            try parser.parse(["User", "a.json", "--format=xml"])
        }
    }

    @Test func optionWithSuggestionAmongTheCommandsOptions() {
        #expect(throws: CLIError(.usage, "unknown option '--prun' (did you mean '--prune'?)")) {
            try parser.parse(["User", "a.json", "--prun"])
        }
    }

    @Test func variadicArgumentNeedsAtLeastOneValue() {
        #expect(throws: CLIError(.usage, "missing argument 'FILE'")) { try parser.parse(["User"]) }
        #expect(throws: CLIError(.usage, "missing argument 'ENTITY'")) { try parser.parse([]) }
    }

    @Test func optionalArgumentTakesOnlyWhatRequiredOnesLeave() throws {
        let topic = ArgumentParser(
            options: [],
            arguments: [ArgumentSpec("COMMAND", help: "", isOptional: true), ArgumentSpec("NAME", help: "")])
        #expect(try topic.parse(["x"]).argument("COMMAND") == nil)
        #expect(try topic.parse(["x"]).argument("NAME") == "x")
        #expect(try topic.parse(["x", "y"]).argument("COMMAND") == "x")
        #expect(throws: CLIError(.usage, "unexpected argument 'z'")) { try topic.parse(["x", "y", "z"]) }
    }

    @Test func everythingAfterDoubleDashIsPositional() throws {
        let parsed = try parser.parse(["--prune", "--", "User", "--id", "-"])
        #expect(parsed.isSet("--prune"))
        #expect(parsed.values(of: "--id").isEmpty)
        #expect(parsed.arguments("FILE") == ["--id", "-"])
    }

    @Test func integerValuesAreChecked() throws {
        let limit = ArgumentParser(options: [.value("--limit", "N", help: "")])
        #expect(try limit.parse(["--limit", "10"]).integer(of: "--limit", minimum: 0) == 10)
        #expect(try limit.parse([]).integer(of: "--limit", minimum: 0) == nil)
        let message = "invalid value '-1' for option '--limit': expected an integer of at least 0"
        #expect(throws: CLIError(.usage, message)) {
            try limit.parse(["--limit=-1"]).integer(of: "--limit", minimum: 0)
        }
    }

    @Test func suggestionsAreOnlyForCloseTokens() {
        #expect(Suggestion.closest(to: "--prun", in: ["--prune", "--root"]) == "--prune")
        #expect(Suggestion.closest(to: "imoprt", in: ["import", "export"]) == "import")
        #expect(Suggestion.closest(to: "xyz", in: ["import", "export"]) == nil)
    }
}
