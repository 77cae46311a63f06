import Foundation
import Testing

@testable import JSONImport

/// The package's root directory (holding `Mappings/` and `Examples/`).
let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }  // file, Export, JSONImportTests, Tests
    return url
}()

/// A mapper over a new in-memory store for the example mappings in `Mappings/`.
func makeExampleMapper() throws -> Mapper {
    try Mapper(mappings: packageRoot.appendingPathComponent("Mappings").path, store: TestStore.fresh())
}

/// Imports the example payloads of `Examples/` in the order `Examples/README.md` gives.
func importExamples(into mapper: Mapper) throws {
    let examples = packageRoot.appendingPathComponent("Examples")
    for (entity, file) in [
        ("User", "github/users.json"), ("User", "github/users-update.json"), ("User", "github/users.jsonl"),
        ("Author", "blog/authors.json"), ("Article", "blog/articles.json"),
    ] {
        _ = try mapper.importFile(examples.appendingPathComponent(file).path, as: entity)
    }
}

/// The content of a store (every entity's rows and every relationship's links), bookkeeping
/// (`_created_at`, `_updated_at`, `_seen_at`, `_stub`) left out, rows in a fixed order.
struct StoreContent: Equatable, CustomStringConvertible {
    /// `row, row, …` per entity and `link, link, …` per relationship (`Entity.relationship`).
    let tables: [String: [String]]

    init(_ mapper: Mapper) throws {
        self.tables = try mapper.storedContent(bookkeeping: false)
    }

    /// A 64-bit FNV-1a hash of the whole content.
    var hash: UInt64 {
        description.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    var description: String {
        tables.keys.sorted().map { "\($0): \(tables[$0]!.joined(separator: "; "))" }.joined(separator: "\n")
    }

    /// The tables whose rows differ from `other`'s, for failure messages.
    func difference(from other: StoreContent) -> String {
        tables.keys.sorted().filter { tables[$0] != other.tables[$0] }.map { table in
            let before = Set(other.tables[table] ?? []), after = Set(tables[table] ?? [])
            return "\(table): lost \(before.subtracting(after).sorted()), gained \(after.subtracting(before).sorted())"
        }.joined(separator: "\n")
    }
}

/// Exports `entity` from `mapper`, imports the export back, and checks that the import
/// changed nothing: every touched row `unchanged`, nothing inserted, updated, deleted, stubbed
/// or skipped, and the store's content hash the same.
func expectRoundTrip(
    _ mapper: Mapper, _ entity: String, depth: Int, format: ExportFormat = .json, context: String = "",
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
    let before = try StoreContent(mapper)
    let request = ExportRequest(entity: entity, depth: depth, format: format)
    let data = try mapper.exportData(request)
    let options = ImportOptions(format: format == .jsonl ? .jsonl : .json)
    let report = try mapper.importData(data, as: entity, options: options)
    let label = "\(context) \(entity) depth \(depth) \(format)"
    let changed = report.changes.filter { $0.counts.inserted + $0.counts.updated + $0.counts.deleted > 0 }
    #expect(changed.isEmpty, "\(label): \(changed)\n\(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
    #expect(report.errors.isEmpty, "\(label): \(report.errors)", sourceLocation: sourceLocation)
    #expect(report.stubs.isEmpty && report.skippedLinks.isEmpty && report.orphansRemoved.isEmpty,
            "\(label): \(report.json(explain: false))", sourceLocation: sourceLocation)
    let after = try StoreContent(mapper)
    #expect(after.hash == before.hash, "\(label): \(after.difference(from: before))", sourceLocation: sourceLocation)
}
