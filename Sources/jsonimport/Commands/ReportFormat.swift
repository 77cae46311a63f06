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

    /// Runs `body`; when it throws and a JSON report was asked for, prints the report of the
    /// failure before rethrowing: whatever failed once the arguments were read (invalid JSON, an
    /// unreadable file, a store error, the mappings), its `errors` hold the error and `changes`
    /// stay empty since nothing was kept.
    ///
    /// - Parameters:
    ///   - entity: the entity the command works on (`nil` for `clean`).
    ///   - dryRun: what the report's `dryRun` says.
    ///   - command: the command's name, for the error's wording.
    func reportingFailure(
        of entity: String?, dryRun: Bool = false, command: String, to output: Output, _ body: () throws -> ImportReport
    ) throws -> ImportReport {
        do {
            return try body()
        } catch {
            if isJSON { output.result(Self.report(of: error, entity: entity, dryRun: dryRun, command: command).json(explain: explains) + "\n") }
            throw error
        }
    }

    /// The report of an operation that `error` stopped.
    private static func report(of error: any Error, entity: String?, dryRun: Bool, command: String) -> ImportReport {
        if let error = error as? ImportError, !error.report.errors.isEmpty {
            var report = error.report
            if report.entity == nil { report.entity = entity }
            return report
        }
        var report = ImportReport(entity: entity)
        report.dryRun = dryRun
        let lines = ErrorReport(for: error, command: command).lines.compactMap { line -> String? in
            if case .error(let message) = line { return message }
            return nil
        }
        report.errors = lines.map { ImportIssue(file: nil, record: nil, path: "$", message: $0) }
        return report
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
