/// What one import did to each row it touched, counted by net effect (SPEC 2.2 "Counting"),
/// with an undo log so that a record skipped under `onError: skip` leaves no trace.
struct RowTracker {
    enum Status: UInt8 { case unchanged, updated, inserted }

    private(set) var statuses: [[Int64: Status]]
    /// Rows an import contained a record for (their `_seen_at` advances).
    private(set) var seen: [Set<Int64>]
    /// Rows created as stubs by this import.
    private(set) var stubs: [Set<Int64>]
    /// Rows deleted by this import that existed before it.
    private(set) var deleted: [Int]
    private(set) var orphansRemoved: [Int]
    /// Identity cache: primary key → row id, for rows known to exist now.
    private(set) var identities: [[RowKey: Int64]]
    /// Set when a link to an entity with `cleanup: orphans` was removed, or such a row was
    /// inserted without a link: only then can the clean-up pass find anything.
    var mayHaveOrphans = false

    private enum Undo {
        case status(Int, Int64, Status?)
        case seen(Int, Int64)
        case stub(Int, Int64)
        case identity(Int, RowKey)
    }
    private var undo: [Undo] = []
    private var isJournaling = false

    init(entityCount: Int) {
        statuses = Array(repeating: [:], count: entityCount)
        seen = Array(repeating: [], count: entityCount)
        stubs = Array(repeating: [], count: entityCount)
        deleted = Array(repeating: 0, count: entityCount)
        orphansRemoved = Array(repeating: 0, count: entityCount)
        identities = Array(repeating: [:], count: entityCount)
    }

    func status(_ entity: Int, _ row: Int64) -> Status? { statuses[entity][row] }

    /// Records that the import contained a record for a row, and what it did to it.
    mutating func touch(_ entity: Int, _ row: Int64, _ status: Status, seen: Bool) {
        touch(entity, row, status)
        markSeen(entity, row)
    }

    /// Records that a row was touched; `inserted` wins over `updated`, which wins over `unchanged`.
    mutating func touch(_ entity: Int, _ row: Int64, _ status: Status) {
        let old = statuses[entity][row]
        if let old, old.rawValue >= status.rawValue { return }
        if isJournaling { undo.append(.status(entity, row, old)) }
        statuses[entity][row] = status
    }

    /// A link of an existing row changed: `updated` unless the row is new to this import.
    mutating func linkChanged(_ entity: Int, _ row: Int64) {
        touch(entity, row, .updated)
    }

    mutating func markSeen(_ entity: Int, _ row: Int64) {
        if seen[entity].insert(row).inserted, isJournaling { undo.append(.seen(entity, row)) }
    }

    mutating func markStub(_ entity: Int, _ row: Int64) {
        if stubs[entity].insert(row).inserted, isJournaling { undo.append(.stub(entity, row)) }
    }

    mutating func clearStub(_ entity: Int, _ row: Int64) {
        stubs[entity].remove(row)
    }

    func identity(_ entity: Int, _ key: RowKey) -> Int64? { identities[entity][key] }

    mutating func remember(_ entity: Int, _ key: RowKey, _ row: Int64) {
        if identities[entity].updateValue(row, forKey: key) == nil, isJournaling {
            undo.append(.identity(entity, key))
        }
    }

    /// Forgets rows deleted from the store, counting those that existed before the import.
    ///
    /// - Returns: for each row, whether it existed before the import (rows the import both
    ///   created and deleted count nowhere).
    @discardableResult
    mutating func removed(_ entity: Int, _ rows: [Int64], asOrphans: Bool) -> [Bool] {
        guard !rows.isEmpty else { return [] }
        var result: [Bool] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            let existed = statuses[entity].removeValue(forKey: row) != .inserted
            seen[entity].remove(row)
            stubs[entity].remove(row)
            if existed {
                deleted[entity] += 1
                if asOrphans { orphansRemoved[entity] += 1 }
            }
            result.append(existed)
        }
        if !identities[entity].isEmpty {
            let gone = Set(rows)
            identities[entity] = identities[entity].filter { !gone.contains($0.value) }
        }
        return result
    }

    // MARK: Savepoints

    /// Starts journaling changes so that `rollBack()` can undo them.
    mutating func beginRecord() {
        undo.removeAll(keepingCapacity: true)
        isJournaling = true
    }

    mutating func commitRecord() {
        isJournaling = false
        undo.removeAll(keepingCapacity: true)
    }

    mutating func rollBackRecord() {
        isJournaling = false
        for entry in undo.reversed() {
            switch entry {
            case .status(let e, let row, let old): statuses[e][row] = old
            case .seen(let e, let row): seen[e].remove(row)
            case .stub(let e, let row): stubs[e].remove(row)
            case .identity(let e, let key): identities[e].removeValue(forKey: key)
            }
        }
        undo.removeAll(keepingCapacity: true)
    }
}

/// A primary-key value, as the identity cache keys rows.
enum RowKey: Hashable {
    case integer(Int64)
    case text(String)
    case composite([StoredValue])

    init(_ values: [Value]) {
        if values.count == 1 {
            switch values[0] {
            case .integer(let v): self = .integer(v)
            case .bytes, .text: self = .text(values[0].string!)
            default: self = .composite([values[0].stored])
            }
        } else {
            self = .composite(values.map(\.stored))
        }
    }
}
