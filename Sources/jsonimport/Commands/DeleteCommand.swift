import JSONImport

/// `jsonimport delete ENTITY`: deletes rows by primary key or filter with their `onDelete`
/// rules, then runs the clean-up pass (SPEC 2.5, 4.1).
///
/// A `deny` refusal leaves the store unchanged and exits 1 with one `error:` line per refused
/// row; unknown names, a malformed filter or key exit 2; a missing store exits 3.
struct DeleteCommand: Command {
    static let signature = CommandSignature(
        name: "delete",
        overview: "Deletes rows by key or filter, with their onDelete rules and clean-up.",
        discussion: [
            "Each relationship of a deleted row applies its onDelete rule: nullify drops the links, "
                + "cascade deletes the linked rows too, deny refuses the whole deletion while links "
                + "to rows that would stay exist (exit 1, nothing deleted). Then the clean-up pass "
                + "removes the rows of 'cleanup: orphans' entities that nothing links to any more. "
                + "Everything happens in one transaction.",
            "Rows are picked by --id, by --where, or by both (rows matching both).",
        ],
        arguments: [ArgumentSpec("ENTITY", help: "The entity to delete rows from.")],
        options: [
            .value(
                "--id", "VALUE",
                help: "Primary key of a row to delete; a composite key as its values joined by commas, in key order.",
                isRepeatable: true),
            .value("--where", "EXPR", help: "Filter expression picking the rows to delete, as for 'query'."),
            .flag("--no-cascade", help: "Deletes the named rows only and drops their links; cascade rules are not followed."),
            .flag("--no-cleanup", help: "Skips the clean-up pass after the deletion."),
        ] + ReportFormat.options)

    let entity: String
    let ids: [String]
    let filter: String?
    let options: DeleteOptions
    let format: ReportFormat

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        entity = arguments.argument("ENTITY")!
        ids = arguments.values(of: "--id")
        filter = arguments.value(of: "--where")
        guard !ids.isEmpty || filter != nil else {
            throw .usage("name the rows to delete with --id or --where")
        }
        format = ReportFormat(arguments)
        options = DeleteOptions(
            cascade: !arguments.isSet("--no-cascade"), cleanup: !arguments.isSet("--no-cleanup"),
            explain: format.explains)
    }

    func run(in context: CommandContext) throws -> ImportReport {
        try format.reportingFailure(of: entity, command: Self.signature.name, to: context.output) {
            try context.openMapper(createsStore: false).delete(entity, ids: ids, where: filter, options: options)
        }
    }

    func render(_ report: ImportReport, to output: Output) {
        format.render(report, to: output)
    }
}
