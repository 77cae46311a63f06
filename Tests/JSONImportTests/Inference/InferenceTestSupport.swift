import Foundation
import Testing

@testable import JSONImport

/// Infers a draft for `entity` from JSON texts, each a sample named `sample0.json`, `sample1.json`, …
func inferDraft(_ samples: String..., entity: String = "Item", options: InferenceOptions = .default) throws -> MappingDraft {
    try MappingDraft(
        inferring: entity, from: samples.enumerated().map { .data(Data($1.utf8), name: "sample\($0).json") }, options: options)
}

extension MappingDraft {
    /// The line of `property` in `entity`'s block: its text after `property: ` and its comment.
    func entry(_ entity: String, _ property: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (value: String, comment: String?) {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == "  \(entity):" || $0.hasPrefix("  \(entity):  #") }) else {
            Issue.record("no entity \(entity) in\n\(yaml)", sourceLocation: sourceLocation)
            return ("", nil)
        }
        let block = lines[(start + 1)...].prefix { $0.hasPrefix("    ") }
        guard let line = block.first(where: { $0.hasPrefix("      \(property): ") }) else {
            Issue.record("no property \(entity).\(property) in\n\(yaml)", sourceLocation: sourceLocation)
            return ("", nil)
        }
        let text = line.dropFirst("      \(property): ".count)
        guard let hash = text.range(of: "  # ") else { return (text.trimmingCharacters(in: .whitespaces), nil) }
        return (text[..<hash.lowerBound].trimmingCharacters(in: .whitespaces), String(text[hash.upperBound...]))
    }

    /// The draft's entity `name`, which the test expects to exist.
    func entitySpec(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> EntitySpec {
        try #require(spec.entity(named: name), "no entity \(name) in\n\(yaml)", sourceLocation: sourceLocation)
    }

    /// Imports `sources` with the draft into a fresh store and returns the report.
    func importing(_ sources: [ImportSource], options: ImportOptions = .default) throws -> ImportReport {
        let mapper = try Mapper(spec: spec, store: TestStore.fresh())
        return try mapper.importSources(sources, as: entity, options: options)
    }

    /// Imports the JSON texts with the draft into a fresh store and returns the report.
    func importing(_ samples: String...) throws -> ImportReport {
        try importing(samples.enumerated().map { .data(Data($1.utf8), name: "sample\($0).json") })
    }
}
