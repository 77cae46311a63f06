import Foundation
import Testing

@testable import JSONImport

/// Code generated for `Mappings/` (and for the generated-payload mapping) compiles without
/// warnings, and its types decode exports of a store and encode them back to the same JSON.
@Suite struct GeneratedCodeTests {
    static let depths = 0...2

    /// The example store, a store of generated payloads (every type and date format), or one
    /// of unions (enums of their entities).
    enum Source: String, CaseIterable {
        case examples, generated, unions

        func makeStore() throws -> Mapper {
            switch self {
            case .examples:
                let mapper = try makeExampleMapper()
                try importExamples(into: mapper)
                return mapper
            case .generated:
                let mapper = try Mapper(spec: MappingSpec.load(yaml: generatedMappingYAML, file: "generated.yml"), store: TestStore.fresh())
                var generator = PayloadGenerator(seed: 3)
                try mapper.importJSON(generator.users(20), as: "User")
                try mapper.importJSON(generator.tags(5), as: "Tag")
                return mapper
            case .unions:
                let mapper = try makeMapper(UnionImportTests.yaml)
                try mapper.importJSON(UnionImportTests.issues, as: "Issue")
                try mapper.importJSON(#"[{"kind": "post", "id": 1, "title": "hi"}, {"kind": "actor", "type": "User", "id": 4, "login": "b"}]"#, as: "FeedItem")
                return mapper
            }
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: Source.allCases)
    func generatedTypesRoundTripExports(of source: Source) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let mapper = try source.makeStore()
        let spec = mapper.spec
        for file in try SwiftCodeGenerator(spec: spec, standalone: true).files() {
            try Data(file.contents.utf8).write(to: directory.appendingPathComponent(file.name))
        }
        let entities = spec.entities.filter { !$0.isOwned }.map(\.name)
        var arguments: [String] = []
        for entity in entities {
            for depth in Self.depths {
                let input = directory.appendingPathComponent("\(entity)-\(depth).jsonl")
                try mapper.exportData(ExportRequest(entity: entity, depth: depth, format: .jsonl)).write(to: input)
                arguments += [entity, input.path, input.path + ".out"]
            }
        }
        try Self.mainSource(entities).write(
            to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)

        let sources = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { directory.appendingPathComponent($0).path }
        let binary = directory.appendingPathComponent("roundtrip").path
        let compile = try Self.run(
            "/usr/bin/env", ["swiftc", "-swift-version", "6", "-warnings-as-errors", "-Onone", "-o", binary] + sources)
        try #require(compile.status == 0, "the generated code does not compile:\n\(compile.output)")
        let run = try Self.run(binary, arguments)
        try #require(run.status == 0, "\(run.output)")

        for index in stride(from: 0, to: arguments.count, by: 3) {
            let original = try String(contentsOfFile: arguments[index + 1], encoding: .utf8)
            let encoded = try String(contentsOfFile: arguments[index + 2], encoding: .utf8)
            let lines = (original.split(separator: "\n"), encoded.split(separator: "\n"))
            #expect(lines.0.count == lines.1.count, "\(arguments[index])")
            for (before, after) in zip(lines.0, lines.1) {
                #expect(Self.canonical(before) == Self.canonical(after), "\(arguments[index])\n\(before)\n\(after)")
            }
        }
    }

    /// With `isPublic`, the code compiles as a module of its own, and code in another module
    /// builds its values with the public memberwise initializers and reads their properties.
    @Test(.timeLimit(.minutes(3)))
    func publicTypesAreUsableFromAnotherModule() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-public-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let mapper = try makeExampleMapper()
        var sources: [String] = []
        for file in try SwiftCodeGenerator(spec: mapper.spec, standalone: true, isPublic: true).files() {
            let url = directory.appendingPathComponent(file.name)
            try Data(file.contents.utf8).write(to: url)
            sources.append(url.path)
        }
        let module = try Self.run("/usr/bin/env", [
            "swiftc", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library", "-emit-module", "-emit-library",
            "-module-name", "Models", "-emit-module-path", directory.appendingPathComponent("Models.swiftmodule").path,
            "-o", directory.appendingPathComponent("libModels.so").path,
        ] + sources)
        try #require(module.status == 0, "the public code does not compile as a module:\n\(module.output)")
        let client = directory.appendingPathComponent("client.swift")
        try """
            import Foundation
            import Models

            let user = User(id: 1, login: "ana", address: Address(city: "Oslo"), repos: [.key(10)])
            let json = try JSONEncoder().encode(user)
            let back = try JSONDecoder().decode(User.self, from: json)
            precondition(back == user && back.address?.city == "Oslo")
            // `login` is required: a payload without it does not decode.
            do {
                _ = try JSONDecoder().decode(User.self, from: Data(#"{"id": 2}"#.utf8))
                preconditionFailure("a user without its required login decoded")
            } catch DecodingError.valueNotFound(_, let context) {
                precondition(context.codingPath.map { $0.stringValue } == ["login"])
            }
            let reaction = Reaction.Key(articleId: 101, authorId: 13)
            print(reaction.articleId, back.login)

            """.write(to: client, atomically: true, encoding: .utf8)
        let build = try Self.run("/usr/bin/env", [
            "swiftc", "-swift-version", "6", "-warnings-as-errors", "-I", directory.path, "-L", directory.path, "-lModels",
            "-Xlinker", "-rpath", "-Xlinker", directory.path, "-o", directory.appendingPathComponent("client").path, client.path,
        ])
        try #require(build.status == 0, "a client of the public types does not compile:\n\(build.output)")
        let run = try Self.run(directory.appendingPathComponent("client").path, [])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output == "101 ana\n")
    }

    /// Reads each `ENTITY INPUT OUTPUT` triple: decodes every line of INPUT as the entity's type
    /// and writes it encoded again to OUTPUT.
    static func mainSource(_ entities: [String]) -> String {
        let cases = entities.map { "    case \"\($0)\": try roundTrip(\($0).self, input, output)" }.joined(separator: "\n")
        return """
            import Foundation

            func roundTrip<T: Codable>(_ type: T.Type, _ input: String, _ output: String) throws {
                let text = try String(contentsOfFile: input, encoding: .utf8)
                var lines: [String] = []
                for line in text.split(separator: "\\n") {
                    let value = try JSONDecoder().decode(T.self, from: Data(line.utf8))
                    lines.append(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
                }
                try (lines.joined(separator: "\\n") + "\\n").write(toFile: output, atomically: true, encoding: .utf8)
            }

            let arguments = Array(CommandLine.arguments.dropFirst())
            for start in stride(from: 0, to: arguments.count, by: 3) {
                let (entity, input, output) = (arguments[start], arguments[start + 1], arguments[start + 2])
                switch entity {
            \(cases)
                default: fatalError("unknown entity \\(entity)")
                }
            }

            """
    }

    /// A JSON line with object keys sorted, `null` members (and objects holding nothing but
    /// them) left out, and numbers in one spelling (`4.90` and `4.9` alike): the generated types
    /// write `nil` by leaving the key out, as synthesized `Codable` does, and an encoder may
    /// reorder keys and respell numbers.
    static func canonical(_ line: Substring) -> String {
        func normalize(_ value: RecordValue) -> RecordValue {
            switch value {
            case .number(let text): return .number(Decimal(string: text).map { "\($0)" } ?? text)
            case .array(let items): return .array(items.map(normalize))
            case .object(let object):
                let members = object.sorted { $0.0 < $1.0 }.compactMap { key, value -> (String, RecordValue)? in
                    let normalized = normalize(value)
                    if normalized == .null { return nil }
                    if case .object(let inner) = value, inner.count > 0, normalized == .object(RecordObject()) { return nil }
                    return (key, normalized)
                }
                return .object(RecordObject(members))
            default: return value
            }
        }
        return normalize(RecordValue(jsonText: String(line))).jsonText
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
