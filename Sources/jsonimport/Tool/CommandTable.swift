/// Every command the tool runs, in the order `jsonimport --help` lists them.
///
/// To add a command: write one file `Commands/<Name>Command.swift` with a type conforming to
/// ``Command`` (its ``CommandSignature`` declares name, arguments and options, and is all the
/// help and parsing need), then add `<Name>Command.self` to ``commands`` below. Nothing else
/// changes; the end-to-end help tests compare whole help texts, so extend them with the new
/// command's help as well.
enum CommandTable {
    static let commands: [any Command.Type] = [
        ImportCommand.self,
        FetchCommand.self,
        QueryCommand.self,
        ExportCommand.self,
        StatsCommand.self,
        MigrateCommand.self,
        InferCommand.self,
        ValidateCommand.self,
        SchemaCommand.self,
        DeleteCommand.self,
        CleanCommand.self,
        CodegenCommand.self,
    ]

    /// The command called `name`, or `nil`.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.signature.name == name }
    }

    /// Every name that selects a command, `help` included (for did-you-mean suggestions).
    static var names: [String] {
        commands.map { $0.signature.name } + [HelpText.helpCommandName]
    }
}
