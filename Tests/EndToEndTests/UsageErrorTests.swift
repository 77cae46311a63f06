import JSONImport
import Testing

/// The command line itself is wrong: exit 2, one `error:` line quoting the token, a pointer to help.
@Suite struct UsageErrorTests {
    /// A usage error as the tool renders it.
    private func usageError(_ message: String, help: String = "jsonimport --help") -> CLIResult {
        CLIResult(exitCode: 2, stdout: "", stderr: "error: \(message)\nSee '\(help)'.\n")
    }

    @Test func versionPrintsToolNameAndVersion() throws {
        let expected = CLIResult(exitCode: 0, stdout: "jsonimport \(JSONImportVersion.current)\n", stderr: "")
        #expect(try CLI.run(["--version"]) == expected)
        #expect(try CLI.run(["--quiet", "--version", "validate"]) == expected)
    }

    @Test func unknownCommandSuggestsTheClosestOne() throws {
        #expect(try CLI.run(["valdate"]) == usageError("unknown command 'valdate' (did you mean 'validate'?)"))
        #expect(try CLI.run(["shema"]) == usageError("unknown command 'shema' (did you mean 'schema'?)"))
    }

    @Test func unknownCommandFarFromAnyGetsNoSuggestion() throws {
        #expect(try CLI.run(["frobnicate"]) == usageError("unknown command 'frobnicate'"))
    }

    @Test func missingCommandIsAUsageError() throws {
        #expect(try CLI.run([]) == usageError("missing command"))
        #expect(try CLI.run(["--quiet"]) == usageError("missing command"))
    }

    @Test func unknownOptionAfterCommandPointsAtTheCommandsHelp() throws {
        #expect(
            try CLI.run(["validate", "--mapings", "x"])
                == usageError("unknown option '--mapings' (did you mean '--mappings'?)", help: "jsonimport validate --help"))
        #expect(
            try CLI.run(["schema", "--no-progres"])
                == usageError("unknown option '--no-progres' (did you mean '--no-progress'?)", help: "jsonimport schema --help"))
    }

    @Test func unknownOptionBeforeCommandPointsAtTheToolsHelp() throws {
        #expect(try CLI.run(["--stor", "x", "validate"]) == usageError("unknown option '--stor' (did you mean '--store'?)"))
        #expect(try CLI.run(["-x", "validate"]) == usageError("unknown option '-x'"))
    }

    @Test func optionWithoutItsValueIsAUsageError() throws {
        #expect(
            try CLI.run(["validate", "--mappings"])
                == usageError("missing value for option '--mappings'", help: "jsonimport validate --help"))
        #expect(
            try CLI.run(["validate", "--mappings", "--quiet"])
                == usageError("missing value for option '--mappings'", help: "jsonimport validate --help"))
        #expect(
            try CLI.run(["validate", "--store="])
                == usageError("invalid value '' for option '--store': expected a path", help: "jsonimport validate --help"))
    }

    @Test func malformedBusyTimeoutIsAUsageError() throws {
        let expected = "invalid value 'soon' for option '--busy-timeout': expected a number of at least 0"
        #expect(try CLI.run(["--busy-timeout", "soon", "schema"]) == usageError(expected, help: "jsonimport schema --help"))
        #expect(
            try CLI.run(["schema", "--busy-timeout=-1"])
                == usageError(
                    "invalid value '-1' for option '--busy-timeout': expected a number of at least 0",
                    help: "jsonimport schema --help"))
    }

    @Test func nonRepeatableOptionGivenTwiceIsAUsageError() throws {
        #expect(
            try CLI.run(["--store", "a", "validate", "--store", "b"])
                == usageError("option '--store' given more than once", help: "jsonimport validate --help"))
    }

    @Test func flagGivenAValueIsAUsageError() throws {
        #expect(
            try CLI.run(["validate", "--quiet=yes"])
                == usageError("option '--quiet' does not take a value", help: "jsonimport validate --help"))
    }

    @Test func unexpectedArgumentIsAUsageError() throws {
        #expect(
            try CLI.run(["schema", "User"])
                == usageError("unexpected argument 'User'", help: "jsonimport schema --help"))
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(
            try CLI.run(["validate", "--", "--quiet"])
                == usageError("unexpected argument '--quiet'", help: "jsonimport validate --help"))
        #expect(
            try CLI.run(["--", "--help"])
                == usageError("unknown command '--help' (did you mean 'help'?)"))
    }

    @Test func helpForUnknownCommandSuggestsTheClosestOne() throws {
        #expect(try CLI.run(["help", "schem"]) == usageError("unknown command 'schem' (did you mean 'schema'?)"))
        #expect(try CLI.run(["help", "schema", "validate"]) == usageError("unexpected argument 'validate'"))
    }
}
