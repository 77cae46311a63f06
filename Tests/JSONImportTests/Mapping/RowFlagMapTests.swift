import Testing
@testable import JSONImport

@Suite struct RowFlagMapTests {
    /// Row ids: dense, sparse 64-bit ones (at random, ascending, descending and negative), one
    /// page filling up past the point where it gets a page of its own (in id order, and from its
    /// end), and one whose sparse rows straddle two leaves of the sorted list when it does.
    static let cases: [String: [Int64]] = [
        "dense": (0..<5_000).map { Int64($0) },
        "sparse": (0..<5_000).map { (i: Int) -> Int64 in Int64(bitPattern: UInt64(i) &* 0x9E37_79B9_7F4A_7C15) },
        "sparse ascending": (0..<3_000).map { Int64($0) * 4_096 + 7 },
        "sparse descending, negative": (0..<3_000).map { -Int64($0) * 3_000 - 1 },
        "filling": (0..<40).map { Int64(7 * 1024 + $0 * 3) },
        "filling backwards": (0..<40).map { Int64(9 * 1024 + 1023 - $0 * 25) },
        "filling across leaves": (0..<505).map { Int64($0) * 2_048 } + (0..<15).map { 505 * 2_048 + Int64($0) }
            + (506..<1_000).map { Int64($0) * 2_048 } + (15..<30).map { 505 * 2_048 + Int64($0) },
        "filling the first and last pages": (0..<20).flatMap { [Int64.max - Int64($0), Int64.min + Int64($0)] },
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
        #expect(map[-2] == nil && (expected[Int64.max] != nil || map[Int64.max] == nil))
        var walked: [(Int64, UInt8)] = []
        map.forEach { walked.append(($0, $1)) }
        #expect(walked.map(\.0) == expected.keys.sorted())
        #expect(walked.allSatisfy { expected[$0.0] == $0.1 })
    }

    /// Sparse rows cost about 10 bytes each, whether they arrive at random or in order.
    @Test(arguments: [false, true])
    func sparseRowsCostAboutTenBytesEach(ascending: Bool) {
        let rows = (0..<60_000).map { (i: Int) -> Int64 in
            ascending ? Int64(i) * 4_096 + 7 : Int64(bitPattern: UInt64(i) &* 0x9E37_79B9_7F4A_7C15)
        }
        var sparse = RowFlagMap.SparseRows()
        for row in rows { sparse[row] = 1 }
        #expect(Array(sparse).map(\.row) == rows.sorted())
        #expect(sparse.allocatedBytes <= 11 * rows.count, "\(Double(sparse.allocatedBytes) / Double(rows.count)) bytes a row")
    }
}
