import Testing

@testable import JSONImport

/// The row cache's table of values by row id keeps what a dictionary keeps, through inserts,
/// changes in place, removals (which move the entries after them back) and growth. It needs no
/// server.
struct PostgresRowTableTests {
    /// Ids that crowd a few home slots (multiples of 2^40 land together) among ids that follow
    /// one another, and negative ones.
    private static func id(_ n: UInt64) -> Int64 {
        switch n % 3 {
        case 0: Int64(n % 500)
        case 1: Int64(n % 40) << 40
        default: -Int64(n % 300)
        }
    }

    @Test func keepsWhatADictionaryKeeps() {
        let table = PostgresRowCache.RowTable<[Int]>()
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
                }
            }
            #expect(table.count == expected.count)
        }
        #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == expected)
        #expect(table.ids.sorted() == expected.keys.sorted())
        for (key, value) in expected {
            let slot = table.index(forKey: key)
            #expect(slot.map { table[at: $0] } == value)
        }
    }
}
