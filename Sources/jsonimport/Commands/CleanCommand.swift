import JSONImport

/// `jsonimport clean`: evicts rows not seen for a while when asked, then runs the clean-up
/// pass (SPEC 2.5, 4.1).
struct CleanCommand: Command {
    static let signature = CommandSignature(
        name: "clean",
        overview: "Runs the clean-up pass, after evicting rows not seen for a while.",
        discussion: [
            "The clean-up pass deletes the rows of 'cleanup: orphans' entities that no longer hang "
                + "from any root by links. With --older-than, rows whose seenAt (the last time an "
                + "import contained them) is older than the duration are deleted first, with their "
                + "onDelete rules, in every entity with timestamps or in those given with --entity.",
        ],
        options: [
            .value(
                "--older-than", "DURATION",
                help: "Evicts rows not seen for this long: a number with a unit, s, m, h or d (90s, 15m, 12h, 30d)."),
            .value(
                "--entity", "ENTITY", help: "Evicts only from this entity (it must keep timestamps).",
                isRepeatable: true),
        ] + ReportFormat.options)

    let age: Double?
    let entities: [String]?
    let format: ReportFormat

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        age = try arguments.value(of: "--older-than").map(Self.duration)
        let entities = arguments.values(of: "--entity")
        if !entities.isEmpty && age == nil {
            throw .usage("option '--entity' needs '--older-than': it picks the entities to evict from")
        }
        self.entities = entities.isEmpty ? nil : entities
        format = ReportFormat(arguments)
    }

    /// Seconds in a duration such as `90s`, `15m`, `12h`, `30d`, `1.5h`.
    static func duration(_ text: String) throws(CLIError) -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let number = Double(text.dropLast()),
            number.isFinite, number >= 0, text.dropLast().allSatisfy({ $0.isNumber || $0 == "." })
        else {
            throw .invalidValue(
                text, for: "--older-than", expected: "a duration with a unit, s, m, h or d (90s, 15m, 12h, 30d)")
        }
        return number * unit
    }

    func run(in context: CommandContext) throws -> ImportReport {
        try format.reportingFailure(of: nil, command: Self.signature.name, to: context.output) {
            try context.openMapper(createsStore: false).clean(olderThan: age, entities: entities, explain: format.explains)
        }
    }

    func render(_ report: ImportReport, to output: Output) {
        format.render(report, to: output)
    }
}
