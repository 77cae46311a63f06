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
                + "CONTAINS (an array attribute holding an element: \"topics CONTAINS 'swift'\"), AND, OR, NOT and parentheses; paths follow relationships: \"address.city = 'Oslo'\".",
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

    let entity: String
    let ids: [String]
    let filter: String?
    let order: [(field: String, descending: Bool)]
    let limit: Int?
    let offset: Int?
    let fields: [String]?
    let includesMeta: Bool
    let format: String

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        entity = arguments.argument("ENTITY") ?? ""
        ids = arguments.values(of: "--id")
        filter = arguments.value(of: "--where")
        var order: [(String, Bool)] = []
        for field in arguments.values(of: "--order") {
            if field.hasSuffix(":desc") {
                order.append((String(field.dropLast(5)), true))
            } else if field.hasSuffix(":asc") {
                order.append((String(field.dropLast(4)), false))
            } else if field.contains(":") {
                throw .invalidValue(field, for: "--order", expected: "FIELD, FIELD:asc or FIELD:desc")
            } else {
                order.append((field, false))
            }
        }
        self.order = order
        limit = try arguments.integer(of: "--limit", minimum: 0)
        offset = try arguments.integer(of: "--offset", minimum: 0)
        fields = try arguments.names(of: "--fields")
        includesMeta = arguments.isSet("--meta")
        format = arguments.value(of: "--format") ?? (isatty(STDOUT_FILENO) == 1 ? "table" : "json")
    }

    /// The records, stubs included: the command shows what the store holds.
    func run(in context: CommandContext) throws -> [RecordObject] {
        var query = try context.openMapper(createsStore: false).query(entity).includingStubs()
        if !ids.isEmpty { query = query.keys(text: ids) }
        if let filter { query = query.where(filter) }
        for (field, descending) in order { query = query.order(by: field, descending: descending) }
        if let limit { query = query.limit(limit) }
        if let offset { query = query.offset(offset) }
        return try query.records(fields: fields, includingMeta: includesMeta)
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
