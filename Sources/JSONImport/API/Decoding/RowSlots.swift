/// Row ids to small numbers (slots) for the rows of one decoding page: open addressing on a
/// multiplicative hash. Decoding looks rows up several times per row it reads; a `Dictionary`
/// spent more on hashing (SipHash) than the rest of the lookup.
struct RowSlots {
    private var keys: [Int64]
    /// The slot per bucket; -1 for an empty bucket.
    private var slots: [Int32]
    private var shift: UInt64
    private(set) var count = 0

    init() {
        keys = Array(repeating: 0, count: 16)
        slots = Array(repeating: -1, count: 16)
        shift = 60
    }

    private func bucket(_ row: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: row) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot of `row`, or `nil` if it has none.
    subscript(row: Int64) -> Int? {
        let mask = slots.count - 1
        var i = bucket(row)
        while true {
            let slot = slots[i]
            if slot < 0 { return nil }
            if keys[i] == row { return Int(slot) }
            i = (i + 1) & mask
        }
    }

    /// Gives `row`, which has no slot yet, slot `slot`.
    mutating func insert(_ row: Int64, slot: Int) {
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var i = bucket(row)
        while slots[i] >= 0 { i = (i + 1) & mask }
        keys[i] = row
        slots[i] = Int32(slot)
        count += 1
    }

    private mutating func grow() {
        let old = (keys, slots)
        keys = Array(repeating: 0, count: old.0.count * 2)
        slots = Array(repeating: -1, count: old.1.count * 2)
        shift -= 1
        count = 0
        for (row, slot) in zip(old.0, old.1) where slot >= 0 { insert(row, slot: Int(slot)) }
    }
}
