import JSONImport

/// `jsonimport stats`: rows and stubs per entity, links per forward relationship.
struct StatsCommand: Command {
    static let signature = CommandSignature(
        name: "stats",
        overview: "Counts rows per entity (stubs included), stubs, and links per relationship.",
        options: [.value("--format", "FORMAT", help: "Output format.", default: "text", allowed: ["text", "json"])])

    let isJSON: Bool

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        isJSON = arguments.value(of: "--format") == "json"
    }

    func run(in context: CommandContext) throws -> StoreStatistics {
        try context.openMapper(createsStore: false).statistics()
    }

    func render(_ statistics: StoreStatistics, to output: Output) {
        guard !isJSON else {
            output.result(statistics.json + "\n")
            return
        }
        var table = TextTable()
        table.append(["entity", "rows", "stubs"])
        for (entity, stubs) in zip(statistics.entities, statistics.stubs) {
            table.append([entity.name, String(entity.rows), String(stubs.rows)])
        }
        var links = TextTable()
        links.append(["relationship", "links"])
        for link in statistics.links { links.append([link.name, String(link.count)]) }
        output.result(table.rendered + "\n" + links.rendered)
    }
}
