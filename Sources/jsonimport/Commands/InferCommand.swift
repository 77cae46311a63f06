import Foundation
import JSONImport

/// `jsonimport infer ENTITY FILE...`: prints a draft mapping inferred from sample payloads
/// (``MappingDraft``), or writes it to `--out FILE` with a one-line report. Reads neither the
/// mappings nor the store.
struct InferCommand: Command {
    static let signature = CommandSignature(
        name: "infer",
        overview: "Prints a draft mapping inferred from sample payloads.",
        discussion: [
            "Every record of the samples is read: attribute types (dates, uuids, urls and decimals "
                + "recognised), keyStyle, nested objects with an id as entities, lists of them as 'many', "
                + "objects without one as owned entities, lists of scalars as [T]. Comments mark the keys "
                + "some records lack or hold null. A sample that wraps its records ({\"items\": [...], "
                + "\"total_count\": 9}) gives the entity its root. The draft validates and imports the "
                + "samples; review its names and types before use. '-' reads standard input; files ending "
                + "in .jsonl or .ndjson are read as JSON Lines. Neither the mappings nor the store are read.",
        ],
        arguments: [
            ArgumentSpec("ENTITY", help: "Name of the root entity the records belong to."),
            ArgumentSpec("FILE", help: "Sample payloads ('-' for standard input).", isRepeatable: true),
        ],
        options: [
            .value("--root", "KEYPATH", help: "Key path of the record list in the samples.", default: "found in the samples"),
            .value("--format", "FORMAT", help: "Sample format.", default: "by file extension", allowed: ["json", "jsonl"]),
            .value("--out", "FILE", help: "Write the draft to FILE (replacing it) instead of printing it."),
        ])

    let entity: String
    let files: [String]
    let options: InferenceOptions
    let output: String?

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        entity = arguments.argument("ENTITY") ?? ""
        files = arguments.arguments("FILE")
        options = InferenceOptions(
            root: arguments.value(of: "--root"), format: arguments.value(of: "--format").flatMap(PayloadFormat.init(rawValue:)))
        output = arguments.value(of: "--out")
    }

    func run(in context: CommandContext) throws -> MappingDraft {
        let draft = try MappingDraft(inferring: entity, from: files.map(ImportSource.file), options: options)
        if let output {
            do {
                try Data(draft.yaml.utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                throw CLIError(.invalidInput, "cannot write to '\(output)': \(error.localizedDescription)")
            }
        }
        return draft
    }

    func render(_ draft: MappingDraft, to output: Output) {
        guard let file = self.output else {
            output.result(draft.yaml)
            return
        }
        let entities = draft.spec.entities.count
        output.report("wrote a draft mapping of \(entities) entit\(entities == 1 ? "y" : "ies") from \(draft.recordCount) record\(draft.recordCount == 1 ? "" : "s") to \(file)\n")
    }
}
