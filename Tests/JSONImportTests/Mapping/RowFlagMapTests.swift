import Testing
@testable import JSONImport

@Suite struct RowFlagMapTests {
    /// Row ids: dense, sparse 64-bit ones (at random, ascending, descending and negative), one
    /// page filling up past the point where it gets a page of its own after a dense page (in id
    /// order, and from its end), one whose sparse rows straddle two leaves of the sorted list
    /// when it does, and the first and last pages of the id range.
    static let cases: [String: [Int64]] = [
        "dense": (0..<5_000).map { Int64($0) },
        "sparse": (0..<5_000).map { (i: Int) -> Int64 in Int64(bitPattern: UInt64(i) &* 0x9E37_79B9_7F4A_7C15) },
        "sparse ascending": (0..<3_000).map { Int64($0) * 4_096 + 7 },
        "sparse descending, negative": (0..<3_000).map { -Int64($0) * 3_000 - 1 },
        "filling": (0..<1_024).map { Int64($0) } + (0..<40).map { Int64(7 * 1024 + $0 * 3) },
        "filling backwards": (0..<1_024).map { Int64($0) } + (0..<40).map { Int64(9 * 1024 + 1023 - $0 * 25) },
        "filling across leaves": (0..<505).map { Int64($0) * 2_048 } + (0..<64).map { 505 * 2_048 + Int64($0) }
            + (506..<1_000).map { Int64($0) * 2_048 } + (64..<140).map { 505 * 2_048 + Int64($0) },
        "filling the first and last pages": (0..<200).flatMap { [Int64.max - Int64($0), Int64.min + Int64($0)] },
    ]

    /// Flags set through the map and read back, against a dictionary doing the same.
    @Test(arguments: [
        "dense", "sparse", "sparse ascending", "sparse descending, negative", "filling", "filling backwards",
        "filling across leaves", "filling the first and last pages",
    ])
    func agreesWithADictionary(_ name: String) {
        let rows = Self.cases[name]!
        var map = RowFlagMap()
        var expected: [Int64: UInt8] = [:]
        for (i, row) in rows.enumerated() {
            let flags = UInt8(1 + i % 200)
            map[row] = flags
            expected[row] = flags
        }
        // Clear every third row and change every fifth.
        for (i, row) in rows.enumerated() where i % 3 == 0 {
            #expect(map.removeValue(forKey: row) == expected.removeValue(forKey: row))
        }
        for (i, row) in rows.enumerated() where i % 5 == 0 {
            map[row] = 0xF0
            expected[row] = 0xF0
        }
        #expect(map.count == expected.count)
        for row in rows { #expect(map[row] == expected[row]) }
        for row in [-2, Int64.max, Int64.min] where expected[row] == nil { #expect(map[row] == nil) }
        var walked: [(Int64, UInt8)] = []
        map.forEach { walked.append(($0, $1)) }
        #expect(walked.map(\.0) == expected.keys.sorted())
        #expect(walked.allSatisfy { expected[$0.0] == $0.1 })
    }

    /// A copy is a value of its own: pages made in the copy (66 of them, past a block of 64)
    /// or in the map after it are not in the other, and take nothing of the other's pages.
    @Test func aCopyIsAValueOfItsOwn() {
        var map = RowFlagMap()
        for row in 0..<2_000 { map[Int64(row)] = 1 }
        var copy = map
        for row in 4 * 1_024..<70 * 1_024 { copy[Int64(row)] = 2 }
        for row in 80 * 1_024..<81 * 1_024 { map[Int64(row)] = 3 }
        #expect(map.count == 3_024 && copy.count == 2_000 + 66 * 1_024)
        #expect(map[5_000] == nil && copy[5_000] == 2)
        #expect(copy[80 * 1_024] == nil && map[80 * 1_024] == 3)
        #expect(map[1_000] == 1 && copy[1_000] == 1)
    }

    /// Row flags cost about a byte a row for dense ids and at most about 10 for any other ids:
    /// ids that would leave pages thin (one row in 64 ids) stay in the sorted list.
    @Test(arguments: [
        ("dense", 1, 2), ("one id in 3", 3, 4), ("one id in 9", 9, 11), ("one id in 64", 64, 11),
        ("at random", 0, 11), ("ascending, far apart", 4_096, 11),
    ])
    func rowFlagsCostAtMostAboutTenBytesARow(_ name: String, spacing: Int, bytesPerRow: Int) {
        let rows = (0..<60_000).map { (i: Int) -> Int64 in
            spacing == 0 ? Int64(bitPattern: UInt64(i) &* 0x9E37_79B9_7F4A_7C15) : Int64(i * spacing)
        }
        var map = RowFlagMap()
        for row in rows { map[row] = 1 }
        #expect(map.count == rows.count)
        let pageSlack = 64 << 10
        #expect(
            map.allocatedBytes <= bytesPerRow * rows.count + pageSlack,
            "\(name): \(Double(map.allocatedBytes) / Double(rows.count)) bytes a row")
    }
}
