import JSONImport

/// `jsonimport schema`: prints the SQL statements that create the store for the mappings.
///
/// Each statement is followed by `;` and a newline, so the output can be piped into
/// `sqlite3` (or, with `--dialect postgres`, `psql`). The DDL is the command's result: `--quiet` does not silence it. Never opens the
/// store.
struct SchemaCommand: Command {
    static let signature = CommandSignature(
        name: "schema",
        overview: "Prints the SQL that creates the store for the mappings.",
        discussion: [
            "Statements end with ';', one after another, ready for 'sqlite3' or, with "
                + "'--dialect postgres', for 'psql' (which runs them in the schema first on its search_path). "
                + "The store is never opened."
        ],
        options: [
            .value("--dialect", "DIALECT", help: "The SQL to print: the SQLite store's, or the PostgreSQL store's.",
                   default: "sqlite", allowed: SQLDialect.allCases.map(\.rawValue)),
        ])

    let dialect: SQLDialect

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        dialect = arguments.value(of: "--dialect").flatMap(SQLDialect.init(rawValue:)) ?? .sqlite
    }

    func run(in context: CommandContext) throws -> [String] {
        StorageSchema(spec: try context.loadMappings(), dialect: dialect).statements
    }

    func render(_ statements: [String], to output: Output) {
        output.result(statements.map { $0 + ";\n" }.joined())
    }
}
