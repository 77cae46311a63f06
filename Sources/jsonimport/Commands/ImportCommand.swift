import JSONImport

/// `jsonimport import ENTITY FILE...`: imports payload files in one transaction.
struct ImportCommand: Command {
    static let importsInBulk = true

    static let signature = CommandSignature(
        name: "import",
        overview: "Imports JSON payloads into the store, upserting every record by its key.",
        discussion: [
            "All files are imported in one transaction: the store keeps all of them or none. "
                + "'-' reads standard input. Files ending in .jsonl or .ndjson are read as JSON Lines. "
                + "The store is created when it does not exist.",
        ],
        arguments: [
            ArgumentSpec("ENTITY", help: "The root entity the records belong to: an entity, a union or a document."),
            ArgumentSpec("FILE", help: "Payload files ('-' for standard input).", isRepeatable: true),
        ],
        options: payloadOptions(formatDefault: "by file extension"))

    /// The options `fetch` takes too: how payloads are read and imported, and the report.
    static func payloadOptions(formatDefault: String) -> [OptionSpec] {
        [
            .value("--root", "KEYPATH", help: "Key path of the record list in the payload (overrides the entity's root)."),
            .value("--format", "FORMAT", help: "Payload format.", default: formatDefault, allowed: ["json", "jsonl"]),
            .flag("--prune", help: "Delete rows of ENTITY that the payloads do not contain (sync mode)."),
            .value(
                "--prune-scope", "EXPR",
                help: "With --prune: prune only the rows of ENTITY this filter selects once the records are imported (as --where of query)."),
            .value("--on-error", "POLICY", help: "What a record error does: abort the import or skip the record.",
                   default: "abort", allowed: ["abort", "skip"]),
            .flag("--no-cleanup", help: "Do not run the clean-up pass after the records."),
            .flag("--dry-run", help: "Do everything and report it, then roll it back."),
            .value("--report", "FORMAT", help: "How to print the report.", default: "text", allowed: ["text", "json"]),
            .flag("--explain", help: "List every deleted row and why."),
            .value("--max-depth", "N", help: "Deepest nesting of arrays and objects accepted in a payload (1 to \(ImportOptions.maximumDepthLimit)).",
                   default: "\(ImportOptions.defaultMaxDepth)"),
            .value("--max-payload-size", "SIZE",
                   help: "Largest JSON document read, in bytes or with a unit K, M or G; each line of a JSON Lines file counts alone.",
                   default: "1G"),
        ]
    }

    let entity: String
    let files: [String]
    let options: ImportOptions
    let reportFormat: ReportFormat

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        entity = arguments.argument("ENTITY") ?? ""
        files = arguments.arguments("FILE")
        options = try Self.importOptions(arguments, defaultFormat: files.contains { PayloadFormat(fileName: $0) == .jsonl } ? .jsonl : nil)
        reportFormat = ReportFormat(arguments)
    }

    /// The import options that ``payloadOptions(formatDefault:)`` give; `defaultFormat` is the
    /// format of the payloads when `--format` is not given, if known.
    static func importOptions(_ arguments: ParsedArguments, defaultFormat: PayloadFormat?) throws(CLIError) -> ImportOptions {
        let format = arguments.value(of: "--format").flatMap(PayloadFormat.init(rawValue:))
        let root = arguments.value(of: "--root")
        if root != nil && (format ?? defaultFormat) == .jsonl {
            throw .usage("--root does not apply to JSON Lines payloads")
        }
        let pruneScope = arguments.value(of: "--prune-scope")
        if pruneScope != nil && !arguments.isSet("--prune") {
            throw .usage("--prune-scope applies only with --prune")
        }
        let maxDepth = arguments.value(of: "--max-depth").map { Int($0) } ?? ImportOptions.defaultMaxDepth
        guard let maxDepth, (1...ImportOptions.maximumDepthLimit).contains(maxDepth) else {
            throw .invalidValue(
                arguments.value(of: "--max-depth") ?? "", for: "--max-depth",
                expected: "an integer from 1 to \(ImportOptions.maximumDepthLimit)")
        }
        return ImportOptions(
            root: root, format: format, prune: arguments.isSet("--prune"), pruneScope: pruneScope,
            onError: arguments.value(of: "--on-error") == "skip" ? .skip : .abort,
            cleanup: !arguments.isSet("--no-cleanup"), dryRun: arguments.isSet("--dry-run"),
            explain: arguments.isSet("--explain"), maxDepth: maxDepth,
            maxPayloadSize: try arguments.value(of: "--max-payload-size").map(Self.size) ?? ImportOptions.defaultMaxPayloadSize)
    }

    /// Bytes in a size such as `100`, `512K`, `10M`, `1G` (units of 1024).
    static func size(_ text: String) throws(CLIError) -> Int {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.uppercased())] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let number = Int(digits),
            number > 0, case let (bytes, overflow) = number.multipliedReportingOverflow(by: unit ?? 1), !overflow
        else {
            throw .invalidValue(text, for: "--max-payload-size", expected: "a positive number of bytes, optionally with a unit K, M or G (100, 512K, 10M, 1G)")
        }
        return bytes
    }

    func run(in context: CommandContext) throws -> ImportReport {
        let bar = context.showsProgress ? ProgressBar() : nil
        var progress: ImportProgress.Handler?
        if let bar { progress = { bar.draw($0) } }
        return try reportFormat.reportingFailure(of: entity, dryRun: options.dryRun, command: Self.signature.name, to: context.output) {
            defer { bar?.clear() }
            // The first file, a JSON document, is read and its parse begun while the mappings load
            // and the store opens.
            let readAhead = files.first.flatMap { file in
                (options.format ?? ImportSource.file(file).impliedFormat) == .json
                    ? PayloadReadAhead(path: file, options: options) : nil
            }
            return try context.withStoreCreatedOnSuccess { mapper in
                try mapper.importSources(
                    files.map(ImportSource.file), as: entity, options: options, progress: progress, keepingRootRows: false,
                    readAhead: readAhead)
            }
        }
    }

    func render(_ report: ImportReport, to output: Output) {
        reportFormat.render(report, to: output)
    }
}
