import Testing

@testable import JSONImport

/// The table of values by row id keeps what a dictionary keeps, through inserts, changes in
/// place, removals (which move the entries after them back) and growth, and reads in place
/// what its subscript reads; the set of row ids built on it keeps what a `Set` keeps, copies
/// included. Neither needs a store.
struct RowTableTests {
    /// Ids that crowd a few home slots (multiples of 2^40 land together) among ids that follow
    /// one another, negative ones, and the extremes (the table marks a free slot with
    /// `Int64.min`).
    private static func id(_ n: UInt64) -> Int64 {
        switch n % 4 {
        case 0: Int64(n % 500)
        case 1: Int64(n % 40) << 40
        case 2: n % 50 == 0 ? .min : n % 50 == 2 ? .max : -Int64(n % 300)
        default: -Int64(n % 300)
        }
    }

    @Test func keepsWhatADictionaryKeeps() {
        let table = RowTable<[Int]>()
        var expected: [Int64: [Int]] = [:]
        var state: UInt64 = 42
        for step in 0..<60_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let key = Self.id(state >> 20)
            // Inserts first, then as many removals as inserts, so that the table grows and
            // empties in turn.
            switch (state >> 8) % 5 {
            case 0:
                #expect(table.updateValue([step], forKey: key) == expected.updateValue([step], forKey: key))
            case 1:
                table[key]?.append(step)
                expected[key]?.append(step)
            case 2:
                if (step / 10_000) % 2 == 0 {
                    table[key] = [step, step]
                    expected[key] = [step, step]
                } else {
                    table[key] = nil
                    expected[key] = nil
                }
            default:
                if (step / 10_000) % 2 == 1 {
                    #expect(table.removeValue(forKey: key) == expected.removeValue(forKey: key))
                } else {
                    #expect(table[key] == expected[key])
                    #expect(table.read(key) { $0.count } == expected[key]?.count)
                }
            }
            #expect(table.count == expected.count)
        }
        #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == expected)
        #expect(table.ids.sorted() == expected.keys.sorted())
        for (key, value) in expected {
            let slot = table.index(forKey: key)
            #expect(slot.map { table[at: $0] } == value)
            #expect(table.read(key) { $0.last } == value.last)
        }
        // A key the table lacks reads nothing.
        #expect(table.read(Int64.min + 1) { _ in true } == nil)
    }

    @Test func aRowIDSetKeepsWhatASetKeeps() {
        var set = RowIDSet()
        var expected = Set<Int64>()
        var copies: [(RowIDSet, Set<Int64>)] = []
        var state: UInt64 = 7
        for step in 0..<40_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let id = Self.id(state >> 20)
            // Grows past the scanned array into a table, then empties, in turn.
            if (step / 5_000) % 2 == 0 || (state >> 8) % 4 == 0 {
                let inserted = set.insert(id)
                #expect(inserted == expected.insert(id).inserted)
            } else {
                let removed = set.remove(id)
                #expect(removed == (expected.remove(id) != nil))
            }
            #expect(set.contains(id) == expected.contains(id))
            #expect(set.count == expected.count)
            // A copy keeps what the set held when it was made, whatever the set does after.
            if step % 997 == 0 { copies.append((set, expected)) }
        }
        #expect(Set(set) == expected)
        #expect(set.first.map(expected.contains) ?? expected.isEmpty)
        for (copy, held) in copies {
            #expect(Set(copy) == held)
            #expect(copy.count == held.count)
        }
    }

    @Test func aSmallRowIDSetKeepsItsIdsInTheOrderAdded() {
        var set: RowIDSet = [5, 3]
        let added = (set.insert(5), set.insert(9))
        #expect(added == (false, true))
        #expect(Array(set) == [5, 3, 9])
        let removed = (set.remove(3), set.remove(3))
        #expect(removed == (true, false))
        #expect(Array(set) == [5, 9])
        #expect(RowIDSet([1, 1, 2]).count == 2)
    }
}
