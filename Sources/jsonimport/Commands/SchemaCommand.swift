import JSONImport

/// `jsonimport schema`: prints the SQL statements that create the store for the mappings.
///
/// Each statement is followed by `;` and a newline, so the output can be piped into
/// `sqlite3` (or, with `--dialect postgres`, `psql`; `--dialect citus` adds the calls that
/// spread the tables of distributed and reference entities). The DDL is the command's result:
/// `--quiet` does not silence it. Never opens the store.
struct SchemaCommand: Command {
    static let signature = CommandSignature(
        name: "schema",
        overview: "Prints the SQL that creates the store for the mappings.",
        discussion: [
            "Statements end with ';', one after another, ready for 'sqlite3' or, with "
                + "'--dialect postgres', for 'psql' (which runs them in the schema first on its search_path). "
                + "'--dialect citus' prints the PostgreSQL statements, then the Citus calls that distribute the tables "
                + "of entities with 'distribution: { key: … }' by their tenant and make those of 'distribution: reference' "
                + "reference tables. The store is never opened."
        ],
        options: [
            .value("--dialect", "DIALECT",
                   help: "The SQL to print: the SQLite store's, the PostgreSQL store's, or that with Citus's distribution calls.",
                   default: "sqlite", allowed: SQLDialect.allCases.map(\.rawValue) + ["citus"]),
        ])

    let dialect: SQLDialect
    /// `--dialect citus`: the distribution calls follow the DDL.
    let distributes: Bool

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        let name = arguments.value(of: "--dialect") ?? "sqlite"
        distributes = name == "citus"
        dialect = distributes ? .postgres : SQLDialect(rawValue: name) ?? .sqlite
    }

    func run(in context: CommandContext) throws -> [String] {
        let schema = StorageSchema(spec: try context.loadMappings(), dialect: dialect)
        return schema.statements + (distributes ? schema.distributionStatements : [])
    }

    func render(_ statements: [String], to output: Output) {
        output.result(statements.map { $0 + ";\n" }.joined())
    }
}
