import JSONImport

/// How `import`, `delete` and `clean` print their report (SPEC 4.2): `--report text|json` and
/// `--explain`.
struct ReportFormat: Sendable {
    let isJSON: Bool
    let explains: Bool

    /// The options that choose it, shared by every command that reports.
    static let options: [OptionSpec] = [
        .value(
            "--report", "FORMAT", help: "How to print what was done: a text summary, or one JSON object.",
            default: "text", allowed: ["text", "json"]),
        .flag("--explain", help: "Lists every deleted row with its key and the reason it was deleted."),
    ]

    init(_ parsed: ParsedArguments) {
        isJSON = parsed.value(of: "--report") == "json"
        explains = parsed.isSet("--explain")
    }

    /// Writes `report`: JSON as a result (printed even under `--quiet`), text as a report.
    func render(_ report: ImportReport, to output: Output) {
        if isJSON {
            output.result(report.json(explain: explains) + "\n")
        } else {
            output.report(report.text + "\n")
        }
    }
}
