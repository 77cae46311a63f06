import Foundation
import JSONImport

/// `jsonimport export ENTITY`: prints stored records shaped like the API payload (SPEC 4.4).
///
/// The records are the command's result, but they are streamed: `run` writes each chunk to
/// standard output as the library produces it, so a large store exports in constant memory,
/// and `render` has nothing left to write. Every name and value is checked before the first
/// byte is written, so a usage error leaves standard output empty.
struct ExportCommand: Command {
    static let signature = CommandSignature(
        name: "export",
        overview: "Prints stored records of an entity shaped like the API payload they came from.",
        discussion: [
            "Attributes appear at their JSON keys, in their JSON form (dates in their format); "
                + "attributes declared 'export: false' are left out. Forward relationships are nested "
                + "as objects down to --depth levels and written as primary keys below it; 'by: id' "
                + "relationships and back sides are always keys, owned targets always nested. Stubs "
                + "appear only as keys.",
            "With --format json the records are wrapped under the entity's 'root' key path, so "
                + "'jsonimport import' reads the output back unchanged.",
        ],
        arguments: [ArgumentSpec("ENTITY", help: "The entity to export.")],
        options: [
            .value("--id", "VALUE", help: "A primary key to select (a composite key as its values joined by commas).",
                   isRepeatable: true),
            .value("--where", "EXPR", help: "A filter expression."),
            .value("--depth", "N", help: "Levels of relationships nested as objects.", default: "1"),
            .value("--fields", "A,B,...", help: "Write only these properties of the root records."),
            .value("--except", "A,B,...", help: "Write every property of the root records but these."),
            .value("--format", "FORMAT", help: "Output format.", default: "json", allowed: ["json", "jsonl"]),
        ])

    let request: ExportRequest

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        var request = ExportRequest(entity: arguments.argument("ENTITY") ?? "")
        request.ids = arguments.values(of: "--id")
        request.filter = arguments.value(of: "--where")
        request.depth = try arguments.integer(of: "--depth", minimum: 0) ?? 1
        request.format = arguments.value(of: "--format") == "jsonl" ? .jsonl : .json
        let included = try arguments.names(of: "--fields")
        let excepted = try arguments.names(of: "--except")
        switch (included, excepted) {
        case (.some, .some): throw .usage("--fields and --except cannot be used together")
        case (let names?, nil): request.fields = .included(names)
        case (nil, let names?): request.fields = .excepted(names)
        case (nil, nil): break
        }
        self.request = request
    }

    func run(in context: CommandContext) throws {
        var stream = ResultStream(output: context.output)
        try context.openMapper(createsStore: false).export(request, to: &stream)
    }

    func render(_ result: Void, to output: Output) {}
}

/// Standard output as a `TextOutputStream`, for library calls that stream their result.
private struct ResultStream: TextOutputStream {
    let output: Output

    mutating func write(_ string: String) { output.result(string) }
}
