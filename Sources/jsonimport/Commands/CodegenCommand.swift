import Foundation
import JSONImport

/// `jsonimport codegen`: writes Swift value types for the mappings, one file per entity plus
/// `JSONSupport.swift` and (unless `--standalone`) `JSONImport+Entities.swift`; with
/// `--out-file`, all of them in one file. Never opens the store.
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
                + "JSONSupport.swift holds what the files share; JSONImport+Entities.swift makes "
                + "the types PayloadCodable, so that the library reads and saves them in that form. "
                + "Comments in the YAML become doc comments. The store is never opened."
        ],
        options: [
            .value("--out", "DIR", help: "Write the files into DIR.", default: "standard output"),
            .value("--out-file", "FILE", help: "Write every type into the one file FILE (for a build-tool plugin)."),
            .value("--access", "LEVEL", help: "'public' declares the types, their members and a memberwise initializer public, for a module others import.", default: "internal"),
            .flag(
                "--standalone",
                help: "Leave out JSONImport+Entities.swift, which makes the types PayloadCodable: for code that "
                    + "uses the types without the library."),
        ])

    let directory: String?
    let file: String?
    let standalone: Bool
    let isPublic: Bool

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        switch arguments.value(of: "--access") ?? "internal" {
        case "public": isPublic = true
        case "internal": isPublic = false
        case let other: throw CLIError(.usage, "--access is 'public' or 'internal', not '\(other)'")
        }
        directory = arguments.value(of: "--out")
        file = arguments.value(of: "--out-file")
        standalone = arguments.isSet("--standalone")
        if directory != nil && file != nil { throw CLIError(.usage, "give --out or --out-file, not both") }
    }

    func run(in context: CommandContext) throws -> [SwiftSourceFile] {
        let files = try SwiftCodeGenerator(spec: context.loadMappings(), standalone: standalone, isPublic: isPublic).files()
        if let file {
            do {
                try Data(files.map(\.contents).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
            } catch {
                throw CLIError(.invalidInput, "cannot write to '\(file)': \(error.localizedDescription)")
            }
            return files
        }
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
        if let file {
            output.report("wrote \(files.count) files into \(file)\n")
            return
        }
        guard let directory else {
            output.result(files.map(\.contents).joined(separator: "\n"))
            return
        }
        output.report("wrote \(files.count) files to \(directory)\n")
    }
}
