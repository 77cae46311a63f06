/// Values by row id: the PostgreSQL row cache's rows and link lists (see ``PostgresRowCache``),
/// and the ids of a ``RowIDSet``.
///
/// A hash table of its own rather than a `Dictionary`, which hashes an `Int64` with SipHash:
/// some 90 instructions an id, 9 % of the importing thread's instructions in a re-import of
/// 5,000 users (752,000 hashes). Here an id is hashed by one multiplication (Fibonacci
/// hashing: the high bits of the product pick the slot), which spreads ids that follow one
/// another evenly. Slots are probed one after another (linear probing), at most three
/// quarters of them hold an entry, and a removal moves back the entries after it that may
/// take its place rather than leaving a marker. The values live in memory of the table's
/// own, so that growing moves them without destroying a slot at a time what it left (an
/// array of optional values, freed, goes through each of its slots).
///
/// A slot is free when its key is ``free`` (`Int64.min`), so that a probe reads one array. A
/// separate array of flags cost a second cache miss a probe once the tables outgrow the
/// cache: in a re-import of 50,000 users, `perf` put the probe at 8–10 % of the client's
/// samples, half of them on each of the two loads. An entry whose key is `Int64.min` itself
/// lives past the last slot.
///
/// A class: one table per entity or link table, changed in place through its subscripts.
/// Only the thread that made it touches it, unless it hands it over.
final class RowTable<Value> {
    /// The key of a free slot.
    private static var free: Int64 { .min }

    /// `capacity` slots, then the slot of the key `free` (its key unused).
    @exclusivity(unchecked) private var keys: UnsafeMutablePointer<Int64>
    /// As many as `keys`: a slot's value is initialized when it holds an entry.
    @exclusivity(unchecked) private var values: UnsafeMutablePointer<Value>
    @exclusivity(unchecked) private var capacity: Int
    /// Whether the slot past the last holds the entry of the key `free`.
    @exclusivity(unchecked) private var holdsFreeKey = false
    @exclusivity(unchecked) private(set) var count = 0
    /// 64 less the binary logarithm of `capacity`.
    @exclusivity(unchecked) private var shift: UInt64

    /// An empty table with room for `minimumCapacity` entries before it grows.
    init(minimumCapacity: Int = 0) {
        capacity = 16
        while capacity * 3 < minimumCapacity * 4 { capacity *= 2 }
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        (keys, values) = Self.allocate(capacity)
    }

    deinit {
        // Values of no size (a ``RowIDSet``'s) have nothing to deinitialize.
        if MemoryLayout<Value>.size > 0 {
            for slot in 0...capacity where holds(slot) { (values + slot).deinitialize(count: 1) }
        }
        keys.deallocate()
        values.deallocate()
    }

    /// Slots for `capacity` entries and the key `free`, all free.
    private static func allocate(_ capacity: Int) -> (UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Value>) {
        let keys = UnsafeMutablePointer<Int64>.allocate(capacity: capacity + 1)
        keys.initialize(repeating: free, count: capacity + 1)
        return (keys, .allocate(capacity: capacity + 1))
    }

    var isEmpty: Bool { count == 0 }

    /// Whether `slot` holds an entry.
    private func holds(_ slot: Int) -> Bool {
        slot < capacity ? keys[slot] != Self.free : holdsFreeKey
    }

    /// The slot `key` is probed from.
    private func home(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The slot holding `key`, or the free slot where it would go (a quarter of them are
    /// free).
    private func probe(_ key: Int64) -> (slot: Int, found: Bool) {
        if key == Self.free { return (capacity, holdsFreeKey) }
        let mask = capacity - 1
        var slot = home(key)
        while true {
            let held = keys[slot]
            if held == key { return (slot, true) }
            if held == Self.free { return (slot, false) }
            slot = (slot + 1) & mask
        }
    }

    /// Marks `slot`, free, as holding `key`, whose value is initialized.
    private func occupy(_ slot: Int, with key: Int64) {
        if slot == capacity { holdsFreeKey = true } else { keys[slot] = key }
        count += 1
    }

    /// The slot holding `key`.
    func index(forKey key: Int64) -> Int? {
        let (slot, found) = probe(key)
        return found ? slot : nil
    }

    /// The value under `key`. Changed in place, moved out of its slot and back, so that its
    /// arrays are not copied; set to `nil`, removed.
    subscript(key: Int64) -> Value? {
        get { index(forKey: key).map { values[$0] } }
        _modify {
            let (slot, found) = probe(key)
            if found {
                var value: Value? = (values + slot).move()
                defer {
                    if let value { (values + slot).initialize(to: value) } else { vacate(slot) }
                }
                yield &value
            } else {
                var value: Value?
                defer { if let new = value.take() { insert(new, forKey: key) } }
                yield &value
            }
        }
    }

    /// What `body` reads of the value under `key`, read in place; `nil` when the table lacks
    /// the key. The subscript's getter copies the value: for a cached row, a retain and a
    /// release of each of its arrays, which reading one flag or column does not need.
    func read<R>(_ key: Int64, _ body: (borrowing Value) -> R) -> R? {
        let (slot, found) = probe(key)
        return found ? body(values[slot]) : nil
    }

    /// The value in `slot` (one ``index(forKey:)`` returned, with no change since), changed
    /// in place.
    subscript(at slot: Int) -> Value {
        _read { yield values[slot] }
        _modify { yield &values[slot] }
    }

    /// Puts `value` under `key`, moved in rather than copied; returns the value it replaced.
    @discardableResult
    func updateValue(_ value: consuming Value, forKey key: Int64) -> Value? {
        let (slot, found) = probe(key)
        guard found else {
            insert(consume value, forKey: key)
            return nil
        }
        let old = (values + slot).move()
        (values + slot).initialize(to: consume value)
        return old
    }

    /// Puts `value` under `key` unless the table has the key; `false` when it has.
    func insertIfAbsent(_ value: consuming Value, forKey key: Int64) -> Bool {
        var (slot, found) = probe(key)
        guard !found else { return false }
        if (count + 1) * 4 > capacity * 3 {
            grow()
            slot = probe(key).slot
        }
        (values + slot).initialize(to: consume value)
        occupy(slot, with: key)
        return true
    }

    /// A table of its own holding the same entries.
    func copy() -> RowTable<Value> {
        let copy = RowTable(minimumCapacity: count)
        for (key, value) in self { copy.insert(value, forKey: key) }
        return copy
    }

    /// Removes the value under `key`; returns it.
    @discardableResult
    func removeValue(forKey key: Int64) -> Value? {
        guard let slot = index(forKey: key) else { return nil }
        defer { vacate(slot) }
        return (values + slot).move()
    }

    /// Puts `value` under `key`, which the table lacks.
    private func insert(_ value: consuming Value, forKey key: Int64) {
        if (count + 1) * 4 > capacity * 3 { grow() }
        let (slot, _) = probe(key)
        (values + slot).initialize(to: consume value)
        occupy(slot, with: key)
    }

    /// Frees `slot`, whose value was moved out, and moves back each entry after it that may
    /// take the free slot (its home slot is not between the free slot and it), so that every
    /// entry stays reachable from its home slot without a free slot on the way.
    private func vacate(_ slot: Int) {
        count -= 1
        guard slot < capacity else {
            holdsFreeKey = false
            return
        }
        let mask = capacity - 1
        var free = slot
        var next = (slot + 1) & mask
        while keys[next] != Self.free {
            let home = home(keys[next])
            let isBetween = free <= next ? home > free && home <= next : home > free || home <= next
            if !isBetween {
                keys[free] = keys[next]
                (values + free).moveInitialize(from: values + next, count: 1)
                free = next
            }
            next = (next + 1) & mask
        }
        keys[free] = Self.free
    }

    /// Doubles the slots, moving the entries to theirs.
    private func grow() {
        let (oldKeys, oldValues, oldCapacity) = (keys, values, capacity)
        capacity *= 2
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        (keys, values) = Self.allocate(capacity)
        let mask = capacity - 1
        for i in 0..<oldCapacity where oldKeys[i] != Self.free {
            var slot = home(oldKeys[i])
            while keys[slot] != Self.free { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[i]
            (values + slot).moveInitialize(from: oldValues + i, count: 1)
        }
        if holdsFreeKey { (values + capacity).moveInitialize(from: oldValues + oldCapacity, count: 1) }
        oldKeys.deallocate()
        oldValues.deallocate()
    }
}

extension RowTable: Sequence {
    /// The entries, in slot order.
    struct Iterator: IteratorProtocol {
        fileprivate let table: RowTable<Value>
        fileprivate var slot = 0

        mutating func next() -> (key: Int64, value: Value)? {
            while slot <= table.capacity {
                defer { slot += 1 }
                if table.holds(slot) { return (slot < table.capacity ? table.keys[slot] : RowTable.free, table.values[slot]) }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(table: self) }

    /// The ids the table holds.
    var ids: [Int64] { map(\.key) }
}
