import Foundation

/// Nested records recognised by their JSON alone: a tag shared by thousands of repositories is
/// the same few bytes each time. A record whose JSON is byte for byte one whose row is known to
/// hold what it converts to changes nothing, and is not converted again (see
/// ``Importer/recognisedRow(_:_:)``).
///
/// A record's *signature* is its JSON subtree as the parser's nodes give it: each node's type,
/// and the length and bytes of each key, string and number (numbers as written). The same
/// object with other white space has the same signature; with its keys in another order, another
/// one. Either way the record's values follow from its signature.
///
/// Entries hold no references (one byte arena, one table of plain slots), so a lookup costs no
/// reference counting. The entries of an entity stop counting when its ``invalidate(_:)`` is
/// called (a row of it was written with other values); all start over past the budget.
struct RecordSignatures {
    private struct Slot {
        var hash: UInt64 = 0
        var start: UInt32 = 0
        var length: UInt32 = 0
        /// The entity's index plus one; 0 marks an empty slot.
        var entity: UInt32 = 0
        var generation: UInt32 = 0
        var row: Int64 = 0
    }

    private var arena: [UInt8] = []
    private var slots: [Slot]
    private var used = 0
    /// Per entity: entries of earlier generations no longer count.
    private var generations: [UInt32]
    /// Chosen per importer, so that a payload cannot be made to collide ahead of time.
    private let seed = UInt64.random(in: .min ... .max)
    /// The bytes kept at most, arena and table together, by estimate; past them all starts over.
    let budget: Int

    /// Subtrees with more nodes, or more bytes of text, are not kept: shared records are small.
    static let maximumNodes = 64
    static let maximumLength = 1024
    /// Slots a lookup or an insert reads at most before it gives up.
    static let maximumProbes = 32

    /// Slots a table starts with.
    private static let initialSlots = 1024

    init(entities: Int, budget: Int) {
        slots = Array(repeating: Slot(), count: Self.initialSlots)
        generations = Array(repeating: 0, count: entities)
        self.budget = budget
    }

    /// The row a record of entity `entity` with the JSON of `json` was last known to match.
    func row(of json: JSONValue, entity: Int) -> Int64? {
        guard used > 0, let hash = hash(json), case (let i, true)? = find(json, hash: hash, entity: entity) else { return nil }
        return slots[i].generation == generations[entity] ? slots[i].row : nil
    }

    /// Notes that a record of entity `entity` with the JSON of `json` matches row `row` as
    /// stored now.
    mutating func remember(_ json: JSONValue, entity: Int, row: Int64) {
        guard let hash = hash(json) else { return }
        if arena.count + slots.count * MemoryLayout<Slot>.stride > budget { removeAll() }
        if (used + 1) * 2 > slots.count { grow() }
        var place = find(json, hash: hash, entity: entity)
        if place == nil {
            // A run of full slots as long as the probes: a table twice as large breaks it up.
            grow()
            place = find(json, hash: hash, entity: entity)
        }
        guard let (i, isFound) = place else { return }
        if isFound {
            slots[i].row = row
            slots[i].generation = generations[entity]
            return
        }
        let start = arena.count
        _ = json.forEachNode(limit: Self.maximumNodes) { type, length, bytes in
            arena.append(type)
            withUnsafeBytes(of: length.littleEndian) { arena.append(contentsOf: $0) }
            if let bytes { arena.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length))) }
        }
        slots[i] = Slot(
            hash: hash, start: UInt32(start), length: UInt32(arena.count - start), entity: UInt32(entity + 1),
            generation: generations[entity], row: row)
        used += 1
    }

    /// The entries of entity `entity` stop counting: one of its rows now holds other values.
    mutating func invalidate(_ entity: Int) {
        guard generations[entity] < .max else {
            // Wrapped around, the generation would make old entries count again.
            removeAll()
            generations[entity] = 0
            return
        }
        generations[entity] += 1
    }

    mutating func removeAll() {
        guard used > 0 else { return }
        arena.removeAll(keepingCapacity: true)
        slots = Array(repeating: Slot(), count: Self.initialSlots)
        used = 0
    }

    /// The slot of the entry of `json` (hash `hash`) of entity `entity`, found, or else the
    /// empty slot it would take; `nil` past ``maximumProbes`` slots.
    private func find(_ json: JSONValue, hash: UInt64, entity: Int) -> (slot: Int, isFound: Bool)? {
        let tag = UInt32(entity + 1)
        return arena.withUnsafeBufferPointer { arena in
            slots.withUnsafeBufferPointer { slots in
                var i = Int(truncatingIfNeeded: hash) & (slots.count - 1)
                for _ in 0..<Self.maximumProbes {
                    let slot = slots[i]
                    if slot.entity == 0 { return (i, false) }
                    if slot.hash == hash, slot.entity == tag, Self.matches(json, slot, in: arena) { return (i, true) }
                    i = (i + 1) & (slots.count - 1)
                }
                return nil
            }
        }
    }

    /// Doubles the table. An entry that would lie past ``maximumProbes`` slots from its own is
    /// dropped, as no lookup would reach it.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: old.count * 2)
        placing: for slot in old where slot.entity != 0 {
            var i = Int(truncatingIfNeeded: slot.hash) & (slots.count - 1)
            for _ in 0..<Self.maximumProbes {
                if slots[i].entity == 0 {
                    slots[i] = slot
                    continue placing
                }
                i = (i + 1) & (slots.count - 1)
            }
            used -= 1
        }
    }

    /// Whether the signature of `json` is the one `slot` keeps.
    private static func matches(_ json: JSONValue, _ slot: Slot, in arena: UnsafeBufferPointer<UInt8>) -> Bool {
        var at = Int(slot.start)
        let end = at + Int(slot.length)
        var isSame = true
        let isSmall = json.forEachNode(limit: maximumNodes) { type, length, bytes in
            guard isSame else { return }
            let size = bytes == nil ? 0 : Int(length)
            guard at + 5 + size <= end, arena[at] == type,
                UnsafeRawPointer(arena.baseAddress! + at + 1).loadUnaligned(as: UInt32.self) == length.littleEndian,
                size == 0 || memcmp(arena.baseAddress! + at + 5, bytes!, size) == 0
            else {
                isSame = false
                return
            }
            at += 5 + size
        }
        return isSmall && isSame && at == end
    }

    /// The hash of the signature of `json`; `nil` when the subtree is too large to keep. Equal
    /// hashes are compared in full; a payload made to collide costs probes, at most
    /// ``maximumProbes`` per lookup, never a wrong row.
    private func hash(_ json: JSONValue) -> UInt64? {
        var h = seed
        var size = 0
        let isSmall = json.forEachNode(limit: Self.maximumNodes) { type, length, bytes in
            h = Self.mix(h, UInt64(type) << 32 | UInt64(length))
            guard let bytes else { return }
            size += Int(length)
            let raw = UnsafeRawPointer(bytes)
            var i = 0
            while i + 8 <= Int(length) {
                h = Self.mix(h, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            var tail: UInt64 = 0
            while i < Int(length) {
                tail = tail << 8 | UInt64(bytes[i])
                i += 1
            }
            h = Self.mix(h, tail)
        }
        guard isSmall, size <= Self.maximumLength else { return nil }
        return h ^ (h >> 29)
    }

    private static func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let m = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
        return m ^ (m >> 31)
    }
}
