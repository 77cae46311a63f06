/// The unique values rows could not take yet (see ``Importer/settlePendingUniques()``), found by
/// row and attribute, and by the value they wait for: a row that takes a value makes every row
/// waiting for it find its rival without a walk through them all. While a skippable record is
/// imported, each change is journaled, so that leaving the record out undoes them without a
/// copy of the whole set per record (30,000 records of which 29,000 waited for a value took
/// 48 s when each record copied it and each write walked it).
struct PendingUniques {
    /// A value an attribute of an entity waits for.
    private struct Wanted: Hashable {
        let entity: Int
        let slot: Int
        let value: StoredValue
    }

    private var entries: [Importer.PendingSlot: Importer.PendingUnique] = [:]
    private var waiting: [Wanted: Set<Int64>] = [:]
    /// While a record is open: each key it changed, with what it held before, oldest first.
    private var journal: [(Importer.PendingSlot, Importer.PendingUnique?)]?

    var isEmpty: Bool { entries.isEmpty }

    subscript(key: Importer.PendingSlot) -> Importer.PendingUnique? {
        get { entries[key] }
        set {
            let old = entries[key]
            guard old != nil || newValue != nil else { return }
            journal?.append((key, old))
            if let old, old.value != newValue?.value {
                let wanted = Wanted(entity: key.entity, slot: key.slot, value: old.value)
                waiting[wanted]?.remove(key.row)
                if waiting[wanted]?.isEmpty == true { waiting[wanted] = nil }
            }
            if let newValue { waiting[Wanted(entity: key.entity, slot: key.slot, value: newValue.value), default: []].insert(key.row) }
            entries[key] = newValue
        }
    }

    /// The rows of `entity` whose attribute `slot` waits for `value`.
    func rows(of entity: Int, slot: Int, waitingFor value: StoredValue) -> Set<Int64> {
        waiting[Wanted(entity: entity, slot: slot, value: value)] ?? []
    }

    /// Every pending value, in the order they were given.
    var inOrder: [(key: Importer.PendingSlot, value: Importer.PendingUnique)] {
        entries.sorted { $0.value.sequence < $1.value.sequence }
    }

    mutating func removeAll() {
        entries.removeAll()
        waiting.removeAll()
    }

    /// A skippable record begins: its changes are journaled.
    mutating func beginRecord() { journal = [] }

    /// The record stays: its changes no longer need undoing.
    mutating func commitRecord() { journal = nil }

    /// The record is left out: its changes are undone, newest first.
    mutating func rollBackRecord() {
        guard let changes = journal else { return }
        journal = nil
        for (key, old) in changes.reversed() { self[key] = old }
    }
}
