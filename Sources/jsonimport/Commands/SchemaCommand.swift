import JSONImport

/// `jsonimport schema`: prints the SQL statements that create the store for the mappings.
///
/// Each statement is followed by `;` and a newline, so the output can be piped into
/// `sqlite3`. The DDL is the command's result: `--quiet` does not silence it. Never opens the
/// store.
struct SchemaCommand: Command {
    static let signature = CommandSignature(
        name: "schema",
        overview: "Prints the SQL that creates the store for the mappings.",
        discussion: [
            "Statements end with ';', one after another, ready for 'sqlite3'. "
                + "The store is never opened."
        ])

    init(parsing arguments: ParsedArguments) throws(CLIError) {}

    func run(in context: CommandContext) throws -> [String] {
        StorageSchema(spec: try context.loadMappings()).statements
    }

    func render(_ statements: [String], to output: Output) {
        output.result(statements.map { $0 + ";\n" }.joined())
    }
}
