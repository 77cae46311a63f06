import Foundation
import JSONImport

/// `jsonimport query ENTITY`: prints stored records as JSON, JSON Lines or a table.
struct QueryCommand: Command {
    static let signature = CommandSignature(
        name: "query",
        overview: "Prints stored records of an entity, filtered, ordered and paged.",
        discussion: [
            "Attributes appear in their JSON form; a relationship appears as the target's primary key "
                + "(an array of keys for 'many'), an owned target as the nested object. "
                + "Rows come in primary-key order unless --order is given.",
            "Filter expressions: comparisons (= != < <= > >=), IN (...), IS [NOT] NULL, LIKE, "
                + "AND, OR, NOT and parentheses; paths follow relationships: \"address.city = 'Oslo'\".",
        ],
        arguments: [ArgumentSpec("ENTITY", help: "The entity to read.")],
        options: [
            .value("--id", "VALUE", help: "A primary key to select (a composite key as its values joined by commas).",
                   isRepeatable: true),
            .value("--where", "EXPR", help: "A filter expression."),
            .value("--order", "FIELD[:desc]", help: "Sort by an attribute, or a path through to-one relationships (address.city), ascending unless ':desc' follows.",
                   isRepeatable: true),
            .value("--limit", "N", help: "Print at most N rows."),
            .value("--offset", "N", help: "Skip the first N rows."),
            .value("--fields", "A,B,...", help: "Print only these properties, in this order."),
            .flag("--meta", help: "Add _createdAt, _updatedAt, _seenAt and _stub to each row."),
            .value("--format", "FORMAT", help: "Output format.", default: "table on a terminal, else json",
                   allowed: ["json", "jsonl", "table"]),
        ])

    let query: RecordQuery
    let format: String

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        var query = RecordQuery(entity: arguments.argument("ENTITY") ?? "")
        query.ids = arguments.values(of: "--id")
        query.filter = arguments.value(of: "--where")
        for order in arguments.values(of: "--order") {
            if order.hasSuffix(":desc") {
                query.order.append(.init(String(order.dropLast(5)), descending: true))
            } else if order.hasSuffix(":asc") {
                query.order.append(.init(String(order.dropLast(4))))
            } else if order.contains(":") {
                throw .invalidValue(order, for: "--order", expected: "FIELD, FIELD:asc or FIELD:desc")
            } else {
                query.order.append(.init(order))
            }
        }
        query.limit = try arguments.integer(of: "--limit", minimum: 0)
        query.offset = try arguments.integer(of: "--offset", minimum: 0)
        query.fields = arguments.value(of: "--fields").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        query.includesMeta = arguments.isSet("--meta")
        self.query = query
        format = arguments.value(of: "--format") ?? (isatty(STDOUT_FILENO) == 1 ? "table" : "json")
    }

    func run(in context: CommandContext) throws -> [RecordObject] {
        try context.openMapper(createsStore: false).records(query)
    }

    func render(_ records: [RecordObject], to output: Output) {
        switch format {
        case "jsonl":
            output.result(records.map { RecordValue.object($0).jsonText + "\n" }.joined())
        case "table":
            var table = TextTable()
            if let first = records.first { table.append(first.keys) }
            for record in records {
                table.append(record.values.map { value in
                    if case .string(let text) = value { return text }
                    return value.jsonText
                })
            }
            output.result(records.isEmpty ? "(no rows)\n" : table.rendered)
        default:
            output.result(records.isEmpty ? "[]\n" : "[\n" + records.map { RecordValue.object($0).jsonText }.joined(separator: ",\n") + "\n]\n")
        }
    }
}
