extension RowFlagMap {
    /// Flags of rows whose page is not made yet, sorted by row in leaves of at most
    /// `leafCapacity` rows, found through the first row of each leaf. A full leaf splits in half
    /// (rows arriving in ascending order start a new leaf instead), and a leaf grows by an eighth
    /// at a time rather than doubling, so a row costs about 10 bytes however the rows arrive;
    /// a hash map cost 20 to 40 bytes a row, and half as much again while it grew. No allocation
    /// grows past a leaf or the list of leaves, so growing never copies much.
    struct SparseRows: Sequence {
        private static let leafCapacity = 512
        private var leaves: [Leaf] = []
        /// The first row of each leaf, ascending.
        private var firstRows: [Int64] = []

        fileprivate struct Leaf {
            var rows: [Int64]
            var flags: [UInt8]
        }

        /// The bytes the leaves have allocated for rows and flags.
        var allocatedBytes: Int { leaves.reduce(0) { $0 + $1.rows.capacity * 8 + $1.flags.capacity } }

        /// The flags of `row`, or `nil` when it has none here; setting `nil` removes the row.
        subscript(row: Int64) -> UInt8? {
            get {
                let leaf = leafIndex(of: row)
                guard leaf >= 0 else { return nil }
                let position = Self.lowerBound(of: row, in: leaves[leaf].rows)
                guard position < leaves[leaf].rows.count, leaves[leaf].rows[position] == row else { return nil }
                return leaves[leaf].flags[position]
            }
            set {
                let leaf = leafIndex(of: row)
                if leaf >= 0 {
                    let position = Self.lowerBound(of: row, in: leaves[leaf].rows)
                    if position < leaves[leaf].rows.count, leaves[leaf].rows[position] == row {
                        if let newValue {
                            leaves[leaf].flags[position] = newValue
                        } else {
                            remove(at: position, inLeaf: leaf)
                        }
                        return
                    }
                    guard let newValue else { return }
                    insert(row, newValue, at: position, inLeaf: leaf)
                } else if let newValue {
                    insert(row, newValue, at: 0, inLeaf: leaves.isEmpty ? -1 : 0)
                }
            }
        }

        /// How many rows in `range` have flags.
        func count(in range: ClosedRange<Int64>) -> Int {
            var count = 0
            var leaf = Swift.max(leafIndex(of: range.lowerBound), 0)
            var start = leaf < leaves.count ? Self.lowerBound(of: range.lowerBound, in: leaves[leaf].rows) : 0
            while leaf < leaves.count {
                let end = Self.lowerBound(of: range.upperBound, in: leaves[leaf].rows, orAfter: true)
                count += end - start
                guard end == leaves[leaf].rows.count else { break }
                leaf += 1
                start = 0
            }
            return count
        }

        /// Removes the rows in `range` and hands them over in ascending order.
        mutating func removeRows(in range: ClosedRange<Int64>) -> [(row: Int64, flags: UInt8)] {
            var removed: [(row: Int64, flags: UInt8)] = []
            var leaf = Swift.max(leafIndex(of: range.lowerBound), 0)
            while leaf < leaves.count {
                let start = Self.lowerBound(of: range.lowerBound, in: leaves[leaf].rows)
                let end = Self.lowerBound(of: range.upperBound, in: leaves[leaf].rows, orAfter: true)
                let reachesEnd = end == leaves[leaf].rows.count
                if start < end {
                    for i in start..<end { removed.append((leaves[leaf].rows[i], leaves[leaf].flags[i])) }
                    leaves[leaf].rows.removeSubrange(start..<end)
                    leaves[leaf].flags.removeSubrange(start..<end)
                    if leaves[leaf].rows.isEmpty {
                        leaves.remove(at: leaf)
                        firstRows.remove(at: leaf)
                        guard reachesEnd else { break }
                        continue
                    }
                    firstRows[leaf] = leaves[leaf].rows[0]
                }
                guard reachesEnd else { break }
                leaf += 1
            }
            return removed
        }

        func makeIterator() -> Iterator { Iterator(leaves: leaves) }

        /// The rows with flags, in ascending order.
        struct Iterator: IteratorProtocol {
            fileprivate let leaves: [Leaf]
            private var leaf = 0
            private var position = 0

            fileprivate init(leaves: [Leaf]) { self.leaves = leaves }

            mutating func next() -> (row: Int64, flags: UInt8)? {
                while leaf < leaves.count {
                    if position < leaves[leaf].rows.count {
                        defer { position += 1 }
                        return (leaves[leaf].rows[position], leaves[leaf].flags[position])
                    }
                    leaf += 1
                    position = 0
                }
                return nil
            }
        }

        /// The leaf whose range holds `row`: the last one starting at or before it, or `-1` when
        /// `row` comes before every leaf.
        private func leafIndex(of row: Int64) -> Int {
            Self.lowerBound(of: row, in: firstRows, orAfter: true) - 1
        }

        /// `leaf` is `-1` only when there is no leaf yet.
        private mutating func insert(_ row: Int64, _ flags: UInt8, at position: Int, inLeaf leaf: Int) {
            guard leaf >= 0 else {
                leaves.append(Leaf(rows: [row], flags: [flags]))
                firstRows.append(row)
                return
            }
            if leaves[leaf].rows.count == Self.leafCapacity {
                if leaf == leaves.count - 1 && position == Self.leafCapacity {
                    // Rows arriving in ascending order: a new last leaf, and this one stays full.
                    leaves.append(Leaf(rows: [row], flags: [flags]))
                    firstRows.append(row)
                    return
                }
                split(leaf)
                if position > Self.leafCapacity / 2 {
                    insert(row, flags, at: position - Self.leafCapacity / 2, inLeaf: leaf + 1)
                    return
                }
            }
            let count = leaves[leaf].rows.count
            if count == leaves[leaf].rows.capacity || count == leaves[leaf].flags.capacity {
                let capacity = Swift.min(Self.leafCapacity, count + Swift.max(16, count / 8))
                leaves[leaf].rows.reserveCapacity(capacity)
                leaves[leaf].flags.reserveCapacity(capacity)
            }
            leaves[leaf].rows.insert(row, at: position)
            leaves[leaf].flags.insert(flags, at: position)
            if position == 0 { firstRows[leaf] = row }
        }

        /// Splits a full leaf into two halves, each in an allocation of its size.
        private mutating func split(_ leaf: Int) {
            let half = Self.leafCapacity / 2
            let full = leaves[leaf]
            leaves[leaf] = Leaf(rows: Array(full.rows[..<half]), flags: Array(full.flags[..<half]))
            leaves.insert(Leaf(rows: Array(full.rows[half...]), flags: Array(full.flags[half...])), at: leaf + 1)
            firstRows.insert(full.rows[half], at: leaf + 1)
        }

        private mutating func remove(at position: Int, inLeaf leaf: Int) {
            leaves[leaf].rows.remove(at: position)
            leaves[leaf].flags.remove(at: position)
            if leaves[leaf].rows.isEmpty {
                leaves.remove(at: leaf)
                firstRows.remove(at: leaf)
            } else if position == 0 {
                firstRows[leaf] = leaves[leaf].rows[0]
            }
        }

        /// The first index of `rows` (ascending) holding `row` or more; with `orAfter`, the first
        /// holding more than `row`.
        private static func lowerBound(of row: Int64, in rows: [Int64], orAfter: Bool = false) -> Int {
            var low = 0
            var high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if rows[middle] < row || (orAfter && rows[middle] == row) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return low
        }
    }
}
