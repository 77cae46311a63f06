import Foundation
import Testing

@testable import JSONImport

/// What an import keeps beside the store stays within a budget however many records it reads
/// and however long their text, without changing what the import does.
@Suite struct ImportMemoryBoundsTests {
    @Test func keyCachesForgetEntriesPastTheirByteBudgetHoweverLongTheKeys() {
        let budget = 64 << 10
        var caches = KeyCaches<Int64>(count: 2, budget: budget)
        let long = String(repeating: "k", count: 1_000)
        for i in 0..<1_000 {
            caches.set(Int64(i), for: .text("\(long)\(i)"), in: i % 2)
            #expect(caches.estimatedBytes <= budget)
        }
        #expect(caches[1, .text("\(long)999")] == 999)
        #expect(caches[0, .text("\(long)0")] == nil)
        // An entry larger than an eighth of the budget is not kept, and its key is forgotten.
        caches.set(1, for: .integer(7), in: 0)
        caches.set(2, for: .text(String(repeating: "x", count: budget / 8)), in: 0)
        caches.set(3, for: .text(String(repeating: "x", count: budget / 8)), in: 0)
        #expect(caches[0, .text(String(repeating: "x", count: budget / 8))] == nil)
        #expect(caches[0, .integer(7)] == 1)
    }

    @Test func changesThatCancelOutCountAsUnchangedAlsoWhenTheirOriginalsLeaveMemory() throws {
        let yaml = """
            entities:
              Item:
                primaryKey: id
                attributes:
                  id: int
                  text: string
            """
        let mapper = try makeMapper(yaml)
        let count = 5_000
        let long = String(repeating: "a", count: 1_000)
        // More originals than the tracker holds in memory: most of them move to the store.
        #expect(count * long.utf8.count > RowTracker.originalsBudget)
        func records(_ ids: Range<Int>, _ text: String) -> String {
            ids.map { #"{"id": \#($0), "text": "\#(text)\#($0)"}"# }.joined(separator: "\n") + "\n"
        }
        var options = ImportOptions.default
        options.format = .jsonl
        try mapper.importJSON(records(0..<count, long), as: "Item", options: options)
        // Every row changes; the first half changes back later in the same import.
        let payload = records(0..<count, "b") + records(0..<count / 2, long)
        let report = try mapper.importJSON(payload, as: "Item", options: options)
        #expect(report.counts(for: "Item").list == [0, count / 2, count / 2, 0])
        #expect(try mapper.rows(#"SELECT count(*) FROM "Item" WHERE "text" LIKE 'b%'"#) == [[.integer(Int64(count / 2))]])
    }
}
