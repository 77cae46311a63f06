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
        let changed = try mapper.storedRows("Item", "text").filter { row in
            if case .text(let text) = row[0] { text.hasPrefix("b") } else { false }
        }
        #expect(changed.count == count / 2)
    }

    @Test func linkChangesPastTheirBudgetCountAsChangesAtOnce() {
        // One link between entity 0 (source) and entity 1 (target), read from both sides.
        let ends = [LinkNetEffect.Ends(source: 0, target: 1, sourceByPairs: true, targetReads: true)]
        func statuses(budget: Int) -> [RowTracker.Status] {
            let tracker = RowTracker(keyIsRowID: [true, true], links: ends, linkBudget: budget)
            // Row 1 gives target 5 to row 2 and takes it back; row 3 takes target 6 for good.
            for (source, target, present) in [(1, 5, false), (2, 5, true), (2, 5, false), (1, 5, true), (3, 6, true)] {
                tracker.linkMoved(0, Int64(source))
                tracker.linkMoved(1, Int64(target))
                tracker.pairChanged(link: 0, source: Int64(source), target: Int64(target), present: present)
            }
            tracker.settlePairs()
            var result: [RowTracker.Status] = []
            for entity in 0..<2 { tracker.forEachRow(of: entity) { _, status, _ in result.append(status) } }
            return result
        }
        #expect(statuses(budget: RowTracker.linkBudget) == [.unchanged, .unchanged, .updated, .unchanged, .updated])
        // With no room, every row whose links changed counts `updated`, as before counting by net effect.
        #expect(statuses(budget: 0) == [.updated, .updated, .updated, .updated, .updated])
    }
}

/// The tracker's row flags past their budget move to the store and read back the same: counts,
/// marks, removals and a record rolled back behave as if they had stayed in memory.
@Suite(.tags(.sqliteOnly), .sqliteStore) struct RowFlagSpillTests {
    /// A tracker whose flags move out whenever they hold more than a few KB, and one that
    /// keeps them all, both given the same calls.
    private func trackers() throws -> (spilling: RowTracker, inMemory: RowTracker, connection: SQLiteConnection) {
        let connection = try SQLiteConnection(path: ":memory:", create: true, busyTimeout: 5)
        let spilling = RowTracker(keyIsRowID: [true, false], flagsBudget: 4 << 10, flagsCheckInterval: 1)
        spilling.spilledFlags = SpilledFlags(connection: connection)
        return (spilling, RowTracker(keyIsRowID: [true, false]), connection)
    }

    private func statuses(_ tracker: RowTracker, _ entity: Int) -> [String] {
        var result: [String] = []
        tracker.forEachRow(of: entity) { row, status, seen in result.append("\(row) \(status)\(seen ? " seen" : "")") }
        return result
    }

    @Test func sparseRowsMovedOutOfMemoryCountAndReadBackAsTheyWould() throws {
        let (spilling, inMemory, connection) = try trackers()
        // Sparse, unordered ids (a stride through 64-bit space), so no page of them is dense.
        let rows = (0..<3_000).map { Int64(truncatingIfNeeded: UInt64($0) &* 0x9E37_79B9_7F4A_7C15 >> 1) }
        for tracker in [spilling, inMemory] {
            for (i, row) in rows.enumerated() {
                tracker.touch(0, row, i % 3 == 0 ? .inserted : .unchanged, seen: true)
                tracker.remember(0, .integer(row), row)
                if i % 7 == 0 { tracker.markStub(1, row) }
                tracker.spillFlagsIfNeeded()
            }
            // Earlier rows change again once their flags are out of memory.
            for row in rows.prefix(500) { tracker.linkChanged(0, row) }
            tracker.removed(0, Array(rows[500..<600]), asOrphans: false)
            tracker.spillFlagsIfNeeded()
        }
        #expect(spilling.spilledFlags?.holds(0) == true)
        #expect(try connection.rows(#"SELECT count(*) FROM temp."_import_flags_0""#)[0][0] != .integer(0))
        #expect(statuses(spilling, 0) == statuses(inMemory, 0))
        #expect(statuses(spilling, 0).count == 2_900)
        #expect(spilling.stubCount(of: 1) == inMemory.stubCount(of: 1))
        for row in [rows[0], rows[550], rows[2_999]] {
            #expect(spilling.identity(0, .integer(row)) == inMemory.identity(0, .integer(row)))
        }
        #expect(spilling.identity(0, .integer(rows[550])) == nil)
        #expect(spilling.isNewWithoutLinks(0, rows[3]) == inMemory.isNewWithoutLinks(0, rows[3]))
        try spilling.spilledFlags?.drop()
        #expect(throws: StoreError.self) { try connection.rows(#"SELECT count(*) FROM temp."_import_flags_0""#) }
    }

    @Test func aRecordRolledBackRestoresFlagsThatHadLeftMemory() throws {
        let (spilling, _, _) = try trackers()
        for row in stride(from: Int64(0), to: 1 << 40, by: 1 << 28) {
            spilling.touch(0, row, .unchanged, seen: true)
            spilling.spillFlagsIfNeeded()
        }
        let before = statuses(spilling, 0)
        spilling.beginRecord()
        spilling.touch(0, 1 << 28, .updated, seen: true)
        spilling.markStub(0, 2 << 28)
        spilling.touch(0, 5, .inserted, seen: true)
        spilling.rollBackRecord()
        #expect(spilling.spilledFlags?.holds(0) == true)
        let after = statuses(spilling, 0)
        #expect(after.count == before.count)
        #expect(after == before)
        #expect(spilling.stubCount(of: 0) == 0)
    }
}
