import JSONImport
import Testing

/// The command line itself is wrong: exit 2, one `error:` line quoting the token, a pointer to help.
@Suite struct UsageErrorTests {
    /// Runs `arguments` and expects exactly the usage error `message`, pointing at the help of
    /// `command` (the tool's when `nil`), with nothing on stdout.
    private func expectUsageError(
        _ arguments: [String], _ message: String, command: String? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let help = ["jsonimport", command, "--help"].compactMap { $0 }.joined(separator: " ")
        let expected = CLIResult(exitCode: 2, stdout: "", stderr: "error: \(message)\nSee '\(help)'.\n")
        let result = try CLI.run(arguments)
        #expect(result == expected, "\(arguments)", sourceLocation: sourceLocation)
    }

    @Test func versionPrintsToolNameAndVersion() throws {
        let expected = CLIResult(exitCode: 0, stdout: "jsonimport \(JSONImportVersion.current)\n", stderr: "")
        #expect(try CLI.run(["--version"]) == expected)
        #expect(try CLI.run(["--quiet", "--version", "validate"]) == expected)
    }

    @Test func unknownCommandSuggestsTheClosestOne() throws {
        try expectUsageError(["valdate"], "unknown command 'valdate' (did you mean 'validate'?)")
        try expectUsageError(["shema"], "unknown command 'shema' (did you mean 'schema'?)")
        try expectUsageError(["--", "--help"], "unknown command '--help' (did you mean 'help'?)")
    }

    @Test func unknownCommandFarFromAnyGetsNoSuggestion() throws {
        try expectUsageError(["frobnicate"], "unknown command 'frobnicate'")
    }

    /// A list of names with an empty one (`--fields ""`, `id,,login`, `id,`) names nothing to
    /// print: before, `--fields ""` printed an empty object per row.
    @Test func anEmptyNameInAFieldListIsAUsageError() throws {
        let expected = "expected names separated by commas"
        try expectUsageError(["query", "User", "--fields", ""], "invalid value '' for option '--fields': \(expected)", command: "query")
        try expectUsageError(["query", "User", "--fields", "id,"], "invalid value 'id,' for option '--fields': \(expected)", command: "query")
        try expectUsageError(
            ["export", "User", "--except", "id,,login"], "invalid value 'id,,login' for option '--except': \(expected)", command: "export")
    }

    @Test func missingCommandIsAUsageError() throws {
        try expectUsageError([], "missing command")
        try expectUsageError(["--quiet"], "missing command")
    }

    @Test func unknownOptionAfterCommandPointsAtTheCommandsHelp() throws {
        try expectUsageError(
            ["validate", "--mapings", "x"], "unknown option '--mapings' (did you mean '--mappings'?)",
            command: "validate")
        try expectUsageError(
            ["schema", "--no-progres"], "unknown option '--no-progres' (did you mean '--no-progress'?)",
            command: "schema")
    }

    @Test func unknownOptionBeforeCommandPointsAtTheToolsHelp() throws {
        try expectUsageError(["--stor", "x", "validate"], "unknown option '--stor' (did you mean '--store'?)")
        try expectUsageError(["-x", "validate"], "unknown option '-x'")
    }

    @Test func optionWithoutItsValueIsAUsageError() throws {
        try expectUsageError(
            ["validate", "--mappings"], "missing value for option '--mappings'",
            command: "validate")
        try expectUsageError(
            ["validate", "--mappings", "--quiet"],
            "missing value for option '--mappings'", command: "validate")
        try expectUsageError(
            ["validate", "--store="],
            "invalid value '' for option '--store': expected a path", command: "validate")
    }

    @Test func malformedBusyTimeoutIsAUsageError() throws {
        let expected = "for option '--busy-timeout': expected a number of at least 0"
        try expectUsageError(
            ["--busy-timeout", "soon", "schema"], "invalid value 'soon' \(expected)",
            command: "schema")
        try expectUsageError(
            ["schema", "--busy-timeout=-1"], "invalid value '-1' \(expected)",
            command: "schema")
    }

    @Test func nonRepeatableOptionGivenTwiceIsAUsageError() throws {
        try expectUsageError(
            ["--store", "a", "validate", "--store", "b"],
            "option '--store' given more than once", command: "validate")
    }

    @Test func flagGivenAValueIsAUsageError() throws {
        try expectUsageError(
            ["validate", "--quiet=yes"], "option '--quiet' does not take a value", command: "validate")
    }

    @Test func unexpectedArgumentIsAUsageError() throws {
        try expectUsageError(["schema", "User"], "unexpected argument 'User'", command: "schema")
    }

    @Test func doubleDashEndsOptions() throws {
        try expectUsageError(
            ["validate", "--", "--quiet"], "unexpected argument '--quiet'",
            command: "validate")
        try expectUsageError(
            ["validate", "--", "--help"], "unexpected argument '--help'",
            command: "validate")
    }

    @Test func helpForUnknownCommandSuggestsTheClosestOne() throws {
        try expectUsageError(["help", "schem"], "unknown command 'schem' (did you mean 'schema'?)")
        try expectUsageError(["help", "schema", "validate"], "unexpected argument 'validate'")
    }
}
