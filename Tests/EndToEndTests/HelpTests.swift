import Testing

/// Help goes to stdout with exit 0, and every way of asking prints the same text.
@Suite struct HelpTests {
    /// Every registered command with its whole help text.
    static let commands: [(name: String, help: String)] = [
        ("import", HelpTexts.importCommand),
        ("fetch", HelpTexts.fetch),
        ("query", HelpTexts.query),
        ("export", HelpTexts.export),
        ("stats", HelpTexts.stats),
        ("migrate", HelpTexts.migrate),
        ("infer", HelpTexts.infer),
        ("validate", HelpTexts.validate),
        ("schema", HelpTexts.schema),
        ("delete", HelpTexts.delete),
        ("clean", HelpTexts.clean),
        ("codegen", HelpTexts.codegen),
    ]

    @Test func toolHelpShowsGlobalOptionsAndRegisteredCommands() throws {
        let result = try CLI.run(["--help"])
        #expect(result == CLIResult(exitCode: 0, stdout: HelpTexts.tool, stderr: ""))
    }

    @Test(arguments: [["-h"], ["help"], ["help", "--help"], ["--quiet", "--help"], ["--help", "--bogus"]])
    func everyWayOfAskingForToolHelpPrintsTheSameText(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result == CLIResult(exitCode: 0, stdout: HelpTexts.tool, stderr: ""))
    }

    @Test(arguments: commands.map(\.name))
    func commandHelpIsTheSameHoweverItIsAskedFor(_ command: String) throws {
        let help = try #require(Self.commands.first { $0.name == command }).help
        let spellings = [
            [command, "--help"], [command, "-h"], ["help", command], ["--help", command],
            [command, "--store", "x", "-h"], [command, "--bogus", "--help"],
        ]
        for arguments in spellings {
            let result = try CLI.run(arguments)
            #expect(result == CLIResult(exitCode: 0, stdout: help, stderr: ""), "\(arguments)")
        }
    }

    @Test func commandHelpHasOverviewUsageAndOptionsSections() throws {
        for (name, help) in Self.commands {
            #expect(help.hasPrefix("OVERVIEW: "), "\(name)")
            #expect(help.contains("\nUSAGE: jsonimport \(name) "), "\(name)")
            #expect(help.contains("\nOPTIONS:\n"), "\(name)")
            #expect(HelpTexts.tool.contains("\n  \(name) "), "\(name) is missing from the tool's help")
        }
    }
}
