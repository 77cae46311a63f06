import JSONImport

/// `jsonimport validate`: loads and checks the mappings and lists their entities.
///
/// On success it prints one aligned line per entity and a summary line (a text report, so
/// `--quiet` silences it). On failure every diagnostic goes to stderr as
/// `error: <file>:<line>:<col>: <message>` (see ``ErrorReport``) and the exit code is 1.
/// Never opens the store.
struct ValidateCommand: Command {
    static let signature = CommandSignature(
        name: "validate",
        overview: "Checks the mappings and lists each entity with its key and counts.",
        discussion: [
            "Every problem is reported, not only the first: one line per error on stderr, "
                + "'error: FILE:LINE:COLUMN: MESSAGE', and exit status 1. "
                + "The store is never opened."
        ])

    init(parsing arguments: ParsedArguments) throws(CLIError) {}

    func run(in context: CommandContext) throws -> MappingSpec {
        try context.loadMappings()
    }

    func render(_ spec: MappingSpec, to output: Output) {
        var table = TextTable()
        for entity in spec.entities {
            let key = entity.isOwned ? "owned" : "key: " + entity.primaryKey.joined(separator: ", ")
            table.append([
                entity.name, key, "attributes: \(entity.attributes.count)",
                "relationships: \(Set(entity.relationships.map(\.name)).count)",
            ])
        }
        for union in spec.unions {
            table.append([union.name, "union by: \(union.key)", "entities: " + union.entities.joined(separator: ", ")])
        }
        for document in spec.documents {
            table.append([document.name, "document", "roots: " + document.roots.map { "\($0.path): \($0.entity)" }.joined(separator: ", ")])
        }
        let entities = Self.count(spec.entities.count, "entity", "entities")
        let files = Self.count(spec.files.count, "file", "files")
        output.report(table.rendered + "\(entities) in \(files): the mappings are valid.\n")
    }

    private static func count(_ number: Int, _ singular: String, _ plural: String) -> String {
        "\(number) \(number == 1 ? singular : plural)"
    }
}
