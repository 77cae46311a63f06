import Testing
@testable import JSONImport

@Suite struct RowFlagMapTests {
    /// Row ids: dense, sparse 64-bit ones, and one page filling up past the point where it gets
    /// a page of its own (in id order, and from its end).
    static let cases: [String: [Int64]] = [
        "dense": (0..<5_000).map { Int64($0) },
        "sparse": (0..<5_000).map { (i: Int) -> Int64 in Int64(bitPattern: UInt64(i) &* 0x9E37_79B9_7F4A_7C15) },
        "filling": (0..<40).map { Int64(7 * 1024 + $0 * 3) },
        "filling backwards": (0..<40).map { Int64(9 * 1024 + 1023 - $0 * 25) },
    ]

    /// Flags set through the map and read back, against a dictionary doing the same.
    @Test(arguments: ["dense", "sparse", "filling", "filling backwards"])
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
        #expect(map[Int64.max] == nil && map[-1] == nil)
        var walked: [(Int64, UInt8)] = []
        map.forEach { walked.append(($0, $1)) }
        #expect(walked.map(\.0) == expected.keys.sorted())
        #expect(walked.allSatisfy { expected[$0.0] == $0.1 })
    }
}
