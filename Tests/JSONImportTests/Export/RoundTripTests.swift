import Foundation
import Testing

@testable import JSONImport

/// SPEC 4.4: importing an export back changes nothing, for the example mappings and payloads
/// and for generated stores, at every depth and in both formats.
@Suite struct RoundTripTests {
    static let exampleEntities = ["User", "Repo", "Tag", "Author", "UserSettings", "Article", "Comment", "Reaction"]

    @Test(arguments: exampleEntities)
    func exportOfExamplesImportsBackUnchanged(entity: String) throws {
        let mapper = try makeExampleMapper()
        try importExamples(into: mapper)
        for depth in 0...3 {
            for format in ExportFormat.allCases {
                try expectRoundTrip(mapper, entity, depth: depth, format: format, context: "examples")
            }
        }
    }

    @Test func everyKeyedExampleEntityIsCovered() throws {
        let spec = try MappingSpec.load(from: packageRoot.appendingPathComponent("Mappings").path)
        #expect(spec.entities.filter { !$0.isOwned }.map(\.name).sorted() == Self.exampleEntities.sorted())
    }

    /// Stores built from random payloads (several imports each, records overlapping, keys left
    /// out, `null`s, references to rows that do not exist yet), exported at depth 1, 2 and 3.
    @Test(arguments: 1...12)
    func exportOfGeneratedStoreImportsBackUnchanged(seed: Int) throws {
        let mapper = try Mapper(spec: MappingSpec.load(yaml: generatedMappingYAML, file: "generated.yml"), store: TestStore.fresh())
        var generator = PayloadGenerator(seed: UInt64(seed))
        try mapper.importJSON(generator.users(8), as: "User")
        try mapper.importJSON(generator.repos(4), as: "Repo")
        try mapper.importJSON(generator.users(8), as: "User")
        try mapper.importJSON(generator.tags(3), as: "Tag")
        try mapper.importJSON(generator.users(4), as: "User")
        for entity in ["User", "Repo", "Tag", "Badge", "Profile"] {
            for depth in 1...3 {
                let format: ExportFormat = (seed + depth).isMultiple(of: 2) ? .json : .jsonl
                try expectRoundTrip(mapper, entity, depth: depth, format: format, context: "seed \(seed)")
            }
        }
    }

    @Test func generatedPayloadsAreDeterministic() {
        var first = PayloadGenerator(seed: 7), second = PayloadGenerator(seed: 7)
        #expect(first.users(5) == second.users(5))
    }
}
