/// A set of row ids tuned for the few links a record usually has: a linear scan up to a
/// handful of rows, a hash set beyond.
struct SmallRowSet {
    private var rows: [Int64] = []
    private var large: Set<Int64>?
    private static let scanLimit = 16

    /// An empty set with room for `capacity` rows before it grows.
    init(capacity: Int = 0) {
        rows.reserveCapacity(min(capacity, Self.scanLimit + 1))
    }

    init(_ rows: [Int64]) {
        self.init(capacity: rows.count)
        for row in rows { insert(row) }
    }

    func contains(_ row: Int64) -> Bool {
        if let large { return large.contains(row) }
        return rows.contains(row)
    }

    /// Adds `row`; `false` when it was there already.
    @discardableResult
    mutating func insert(_ row: Int64) -> Bool {
        if large != nil { return large!.insert(row).inserted }
        if rows.contains(row) { return false }
        rows.append(row)
        if rows.count > Self.scanLimit {
            large = Set(rows)
            rows = []
        }
        return true
    }
}
