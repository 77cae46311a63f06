import Foundation
import JSONImport

/// `jsonimport codegen`: writes Swift value types for the mappings, one file per entity plus
/// `JSONSupport.swift`. Never opens the store.
///
/// Without `--out` the files are printed one after another (each starts with a comment naming
/// it); with `--out DIR` they are written into DIR, created when missing, replacing files of
/// the same names, and a one-line report says how many were written.
struct CodegenCommand: Command {
    static let signature = CommandSignature(
        name: "codegen",
        overview: "Writes Swift value types for the mappings: one file per entity.",
        discussion: [
            "Each entity becomes a Codable, Sendable, Hashable struct that reads and writes the "
                + "entity's JSON as the API sends it and 'jsonimport export' writes it. "
                + "JSONSupport.swift holds what the files share. Comments in the YAML become doc "
                + "comments. The store is never opened."
        ],
        options: [.value("--out", "DIR", help: "Write the files into DIR.", default: "standard output")])

    let directory: String?

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        directory = arguments.value(of: "--out")
    }

    func run(in context: CommandContext) throws -> [SwiftSourceFile] {
        let files = try SwiftCodeGenerator(spec: context.loadMappings()).files()
        guard let directory else { return files }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for file in files {
                let path = URL(fileURLWithPath: directory).appendingPathComponent(file.name).path
                try Data(file.contents.utf8).write(to: URL(fileURLWithPath: path))
            }
        } catch {
            throw CLIError(.invalidInput, "cannot write to '\(directory)': \(error.localizedDescription)")
        }
        return files
    }

    func render(_ files: [SwiftSourceFile], to output: Output) {
        guard let directory else {
            output.result(files.map(\.contents).joined(separator: "\n"))
            return
        }
        output.report("wrote \(files.count) files to \(directory)\n")
    }
}
