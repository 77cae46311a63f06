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
/// A class: one table per entity or link table, changed in place through its subscripts.
/// Only the thread that made it touches it, unless it hands it over.
final class RowTable<Value> {
    @exclusivity(unchecked) private var keys: UnsafeMutablePointer<Int64>
    /// Per slot: whether it holds an entry (its value is initialized).
    @exclusivity(unchecked) private var used: UnsafeMutablePointer<Bool>
    @exclusivity(unchecked) private var values: UnsafeMutablePointer<Value>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0
    /// 64 less the binary logarithm of `capacity`.
    @exclusivity(unchecked) private var shift: UInt64

    /// An empty table with room for `minimumCapacity` entries before it grows.
    init(minimumCapacity: Int = 0) {
        capacity = 16
        while capacity * 3 < minimumCapacity * 4 { capacity *= 2 }
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        keys = .allocate(capacity: capacity)
        used = .allocate(capacity: capacity)
        used.initialize(repeating: false, count: capacity)
        values = .allocate(capacity: capacity)
    }

    deinit {
        // Values of no size (a ``RowIDSet``'s) have nothing to deinitialize.
        if MemoryLayout<Value>.size > 0 {
            for slot in 0..<capacity where used[slot] { (values + slot).deinitialize(count: 1) }
        }
        keys.deallocate()
        used.deallocate()
        values.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The slot `key` is probed from.
    private func home(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The slot holding `key`, or the free slot where it would go (a quarter of them are
    /// free).
    private func probe(_ key: Int64) -> (slot: Int, found: Bool) {
        let mask = capacity - 1
        var slot = home(key)
        while used[slot] {
            if keys[slot] == key { return (slot, true) }
            slot = (slot + 1) & mask
        }
        return (slot, false)
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
        keys[slot] = key
        (values + slot).initialize(to: consume value)
        used[slot] = true
        count += 1
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
        keys[slot] = key
        (values + slot).initialize(to: consume value)
        used[slot] = true
        count += 1
    }

    /// Frees `slot`, whose value was moved out, and moves back each entry after it that may
    /// take the free slot (its home slot is not between the free slot and it), so that every
    /// entry stays reachable from its home slot without a free slot on the way.
    private func vacate(_ slot: Int) {
        let mask = capacity - 1
        var free = slot
        var next = (slot + 1) & mask
        while used[next] {
            let home = home(keys[next])
            let isBetween = free <= next ? home > free && home <= next : home > free || home <= next
            if !isBetween {
                keys[free] = keys[next]
                (values + free).moveInitialize(from: values + next, count: 1)
                free = next
            }
            next = (next + 1) & mask
        }
        used[free] = false
        count -= 1
    }

    /// Doubles the slots, moving the entries to theirs.
    private func grow() {
        let (oldKeys, oldUsed, oldValues, oldCapacity) = (keys, used, values, capacity)
        capacity *= 2
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        keys = .allocate(capacity: capacity)
        used = .allocate(capacity: capacity)
        used.initialize(repeating: false, count: capacity)
        values = .allocate(capacity: capacity)
        let mask = capacity - 1
        for i in 0..<oldCapacity where oldUsed[i] {
            var slot = home(oldKeys[i])
            while used[slot] { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[i]
            used[slot] = true
            (values + slot).moveInitialize(from: oldValues + i, count: 1)
        }
        oldKeys.deallocate()
        oldUsed.deallocate()
        oldValues.deallocate()
    }
}

extension RowTable: Sequence {
    /// The entries, in slot order.
    struct Iterator: IteratorProtocol {
        fileprivate let table: RowTable<Value>
        fileprivate var slot = 0

        mutating func next() -> (key: Int64, value: Value)? {
            while slot < table.capacity {
                defer { slot += 1 }
                if table.used[slot] { return (table.keys[slot], table.values[slot]) }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(table: self) }

    /// The ids the table holds.
    var ids: [Int64] { map(\.key) }
}
