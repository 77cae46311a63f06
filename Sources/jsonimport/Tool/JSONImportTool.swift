import JSONImport

/// The `jsonimport` tool: reads the command line, runs one command, reports, returns the exit code.
///
/// Global options may come before or after the command name. `--help` (or `-h`) anywhere
/// before `--` prints help, whatever else is wrong with the line: the command's help when a
/// command is named, else the tool's. `--version` before the command name prints the version.
struct JSONImportTool {
    let environment: [String: String]
    let output: Output
    /// Whether this is the program itself, whose allocator a command importing in bulk sets to
    /// keep the memory it frees (see ``KeptMemory``); not a tool run inside another program.
    var isProgram = false

    /// Options the tool reads before the command name.
    private static let toolOptions = GlobalOptions.options + [HelpText.versionOption, HelpText.helpOption]

    /// Runs the command line `arguments` (without the tool's own name).
    func run(_ arguments: [String]) -> ExitCode {
        var command: String?
        do {
            return try dispatch(arguments, command: &command)
        } catch {
            let report = ErrorReport(for: error, command: command)
            output.diagnostic(report.rendered)
            return finish(report.exitCode)
        }
    }

    /// Handles help and version, finds the command and runs it; `command` is set once known,
    /// so usage errors can point at its help.
    private func dispatch(_ arguments: [String], command: inout String?) throws -> ExitCode {
        let isHelpRequested = ArgumentParser.requestsHelp(arguments)
        let parser = ArgumentParser(options: Self.toolOptions)
        let toolParsed: ParsedArguments
        let rest: ArraySlice<String>
        switch Result(catching: { () throws(CLIError) in try parser.parsePrefix(arguments) }) {
        case .success(let prefix): (toolParsed, rest) = prefix
        case .failure where isHelpRequested: return printHelp(HelpText.forTool())
        case .failure(let error): throw error
        }
        if toolParsed.isSet("--version") {
            output.result("\(HelpText.toolName) \(JSONImportVersion.current)\n")
            return finish(.success)
        }
        guard let name = rest.first else {
            guard isHelpRequested else { throw CLIError.usage("missing command") }
            return printHelp(HelpText.forTool())
        }
        let commandArguments = Array(rest.dropFirst())
        if name == HelpText.helpCommandName {
            return printHelp(try helpText(for: commandArguments))
        }
        guard let type = CommandTable.command(named: name) else {
            throw CLIError.unknownCommand(name, candidates: CommandTable.names)
        }
        command = name
        if isHelpRequested { return printHelp(HelpText.forCommand(type.signature)) }
        if isProgram, type.importsInBulk { KeptMemory.apply(tunables: environment["GLIBC_TUNABLES"]) }
        return try execute(type, commandArguments, toolParsed: toolParsed)
    }

    /// Parses the command's tokens, then parses, runs and renders the command.
    private func execute<C: Command>(
        _ type: C.Type, _ tokens: [String], toolParsed: ParsedArguments
    ) throws -> ExitCode {
        let signature = type.signature
        let parser = ArgumentParser(
            options: signature.options + GlobalOptions.options + [HelpText.helpOption],
            arguments: signature.arguments)
        let parsed = try parser.parse(tokens).merging(toolParsed, options: GlobalOptions.options)
        let globals = try GlobalOptions(parsed, environment: environment)
        let command = try C(parsing: parsed)
        output.isQuiet = globals.isQuiet
        let context = CommandContext(
            globals: globals, environment: environment,
            showsProgress: output.isErrorTerminal && !globals.isQuiet && !globals.isProgressDisabled,
            output: output)
        let result = try command.run(in: context)
        command.render(result, to: output)
        return finish(.success)
    }

    /// `jsonimport help [COMMAND]`.
    private func helpText(for arguments: [String]) throws(CLIError) -> String {
        let topic = ArgumentSpec("COMMAND", help: "", isOptional: true)
        let parser = ArgumentParser(options: [HelpText.helpOption], arguments: [topic])
        let parsed = try parser.parse(arguments)
        guard let name = parsed.argument("COMMAND") else { return HelpText.forTool() }
        guard let type = CommandTable.command(named: name) else {
            throw .unknownCommand(name, candidates: CommandTable.names)
        }
        return HelpText.forCommand(type.signature)
    }

    private func printHelp(_ text: String) -> ExitCode {
        output.result(text)
        return finish(.success)
    }

    private func finish(_ code: ExitCode) -> ExitCode {
        output.flush()
        return code
    }
}
