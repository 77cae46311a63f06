import Foundation

/// What the PostgreSQL row path knows of the store within one write transaction: the rows and
/// link lists it read or wrote, and the writes it has not handed to the server yet. The cache
/// is the truth for everything it holds; the server is behind it by the writes held.
///
/// Every change goes through ``setRow(_:_:_:)``, ``setList(_:_:_:)``, ``changeList(_:_:_:)``,
/// the hand-over's ``takeDirtyRows(_:)`` and ``takeDirtyLists(_:)`` and the few marks below,
/// which keep the indexes (rows by key, rows by the row they point at, sources by target) and,
/// while a scope of the importer is open (a record under `onError: skip`), an undo journal:
/// undoing a record restores the cache exactly as it was when the record began.
///
/// Only the importing thread touches the cache (a hand-over on a worker thread takes copies of
/// its rows and lists), so its stored properties skip the runtime's exclusivity checks
/// (`@exclusivity(unchecked)`), which cost as much as the dictionary lookups they guard.
final class PostgresRowCache {
    /// A row as the cache knows it.
    struct Row {
        /// Attribute values, as the server holds them (see ``PostgresImportRows/asStored``).
        var values: [StoredValue]
        /// Link columns, in `selfColumns` order.
        var columns: [Int64?]
        var isStub: Bool
        /// The server holds the row (it was read from it, or handed over since).
        var isStored: Bool
        /// The row differs from the server's copy, or the server has none.
        var isDirty: Bool
        /// The time its hand-over writes to its bookkeeping columns: for a new row, when it was
        /// inserted (all three); for a changed row the server holds, its `_updated_at`, once the
        /// import knows the change stays (see ``stamp(_:rows:at:)``). 0: none.
        var stampedAt: Double = 0
        /// A dirty stub the server lacks, left out of the hand-overs that keep new stubs: in
        /// its entity's `waiting` rows rather than its `dirty` ones.
        var isWaiting = false
    }

    final class EntityRows {
        let plan: EntityPlan
        let rows = RowTable<Row>()
        /// Rows by primary key (keyed entities whose key is not the row id), and keys known to
        /// have no row.
        @exclusivity(unchecked) var keys: [[StoredValue]: Int64] = [:]
        /// The rows that became dirty since the last hand-over, so that a hand-over finds them
        /// without reading every row: in the order they did, and possibly again or no longer
        /// dirty (a row is listed when it becomes dirty, not unlisted when it stops being so;
        /// ``PostgresRowCache/takeDirtyRows(_:keepingNewStubs:)`` skips those by their flags).
        /// A list rather than a set: appending costs no hashing, and most rows become dirty
        /// once, when they are inserted.
        @exclusivity(unchecked) var dirty: [Int64] = []
        /// Dirty stubs left out of hand-overs until a record changes them (then they are
        /// `dirty` again) or a hand-over takes every write: kept apart, so that a hand-over
        /// per batch does not go through them all again. Listed like `dirty`: a row set anew
        /// waits no more, whether or not it is still listed here.
        @exclusivity(unchecked) var waiting: [Int64] = []
        /// Keys known to have no row; by row id where the key is the row id.
        @exclusivity(unchecked) fileprivate(set) var absentKeys: Set<[StoredValue]> = []
        @exclusivity(unchecked) fileprivate(set) var absentIDs: RowIDSet = []
        /// Where the key is the row id: the id of every row the server held when they were read
        /// (see ``PostgresImportRows/serverIDsLoad(_:limit:)``), so that a key the cache lacks is
        /// known to name a row, or none, without reading it. `nil` when not read, or no longer
        /// trusted (see ``PostgresRowCache/distrustServerIDs()``).
        @exclusivity(unchecked) var serverIDs: RowIDSet?
        /// How many times ``serverIDs`` stopped being trusted: a read of them applies only while
        /// this is what it was when the read was planned.
        @exclusivity(unchecked) fileprivate(set) var serverIDsEpoch = 0
        /// Per link column: the cached rows pointing at each row. Made when first asked for (see
        /// ``rows(pointingAt:column:)``), kept up to date from then on: a fresh import, whose
        /// new rows point at rows no one asks about, never makes it.
        @exclusivity(unchecked) fileprivate(set) var pointers: [RowTable<RowSet>?]
        /// Some link column's ``pointers`` are made: a row set must keep them up to date.
        @exclusivity(unchecked) fileprivate(set) var hasPointers = false
        /// Per link column: the rows every row pointing at is cached for.
        @exclusivity(unchecked) var completePointees: [RowIDSet]

        /// Read once: the plan computes them.
        let isOwned: Bool
        let keyIsRowID: Bool

        init(plan: EntityPlan) {
            self.plan = plan
            isOwned = plan.spec.isOwned
            keyIsRowID = plan.keyIsRowID
            pointers = Array(repeating: nil, count: plan.selfColumns.count)
            completePointees = Array(repeating: [], count: plan.selfColumns.count)
        }

        /// Whether rows are found by key in `keys`: not owned rows, nor where the key is the row
        /// id (``row(forKey:)`` reads `rows` then).
        var hasKeyIndex: Bool { !isOwned && !keyIsRowID }

        /// The key index's key of `row`.
        func key(of row: Row) -> [StoredValue] {
            plan.keySlots.map { row.values[$0] }
        }

        /// Whether the cache holds row `id`.
        func holds(_ id: Int64) -> Bool { rows.index(forKey: id) != nil }

        /// The cached rows whose link column `j` points at `pointee`, in row id order.
        func rows(pointingAt pointee: Int64, column j: Int) -> [Int64] {
            if let index = pointers[j] { return index[pointee]?.sorted ?? [] }
            let index = RowTable<RowSet>()
            for (id, row) in rows {
                guard let target = row.columns[j] else { continue }
                index.insert(pointer: id, at: target)
            }
            pointers[j] = index
            hasPointers = true
            return index[pointee]?.sorted ?? []
        }

        /// The cached row with primary key `key`.
        func row(forKey key: [StoredValue]) -> Int64? {
            if keyIsRowID, case .integer(let id) = key[0] { return holds(id) ? id : nil }
            return keys[key]
        }

        /// Whether the server holds row `id` (this transaction's writes aside, which the cache
        /// holds): `nil` when not known (see ``serverIDs``).
        func serverHolds(_ id: Int64) -> Bool? {
            serverIDs.map { $0.contains(id) }
        }

        /// Whether the key `key` is known to have no row.
        func isAbsent(_ key: [StoredValue]) -> Bool {
            if keyIsRowID, case .integer(let id) = key[0] { return absentIDs.contains(id) }
            return absentKeys.contains(key)
        }
    }

    enum Undo {
        case row(entity: Int, id: Int64, Row?)
        case absentKey(entity: Int, key: [StoredValue], wasAbsent: Bool)
        case completePointee(entity: Int, column: Int, row: Int64)
        case list(table: Int, source: Int64, LinkList?)
        case completeTarget(table: Int, target: Int64)
    }

    /// By entity index, made as entities are first used.
    @exclusivity(unchecked) private(set) var entities: [EntityRows?] = []
    @exclusivity(unchecked) private(set) var tables: [LinkTable] = []
    /// Link tables by name, and by the link index of the relationships stored in them.
    @exclusivity(unchecked) private var tableIndex: [String: Int] = [:]
    @exclusivity(unchecked) private var tablesByLink: [Int?] = []
    /// What an open scope did, to undo it: appended to only while one is open
    /// (``hasOpenScope``).
    @exclusivity(unchecked) var journal: [Undo] = []
    /// Where each open scope's entries begin in the journal.
    @exclusivity(unchecked) private var scopeMarks: [Int] = []
    /// Rows and lists cached, a measure of the memory held: kept by ``setRow(_:_:_:)`` and
    /// ``setList(_:_:_:)``.
    @exclusivity(unchecked) var size = 0
    /// How many times the cache was emptied: what was read before it changed is gone.
    @exclusivity(unchecked) private(set) var generation = 0

    /// The rows of `plan`.
    func rows(_ plan: EntityPlan) -> EntityRows {
        if plan.index < entities.count, let rows = entities[plan.index], rows.plan === plan { return rows }
        if plan.index >= entities.count { entities += Array(repeating: nil, count: plan.index + 1 - entities.count) }
        let rows = EntityRows(plan: plan)
        entities[plan.index] = rows
        return rows
    }

    /// The link table `relationship` is stored in.
    func table(_ relationship: RelationshipPlan) -> LinkTable {
        let link = relationship.spec.linkIndex
        if link < tablesByLink.count, let index = tablesByLink[link] { return tables[index] }
        guard case .linkTable(let name, let selfIsSource) = relationship.storage else { preconditionFailure("not a link table") }
        if link >= tablesByLink.count { tablesByLink += Array(repeating: nil, count: link + 1 - tablesByLink.count) }
        if let index = tableIndex[name] {
            tablesByLink[link] = index
            return tables[index]
        }
        tableIndex[name] = tables.count
        tablesByLink[link] = tables.count
        let table = LinkTable(name: name, index: tables.count, source: selfIsSource ? relationship.entity : relationship.targetPlan)
        tables.append(table)
        return table
    }

    var hasOpenScope: Bool { !scopeMarks.isEmpty }

    // MARK: Rows

    /// Puts `row` (`nil`: forgets it) in place of what the cache holds for `id`.
    func setRow(_ entity: EntityRows, _ id: Int64, _ row: consuming Row?) {
        // What is wanted of the new row once it is in place, read before it is moved there.
        let isPresent = row != nil
        let isDirty = row?.isDirty == true
        let columns = entity.hasPointers ? row?.columns : nil
        // One lookup of `id` for the old row and the new, which is moved in, not copied. A row
        // set anew waits no more: if still dirty, it is among the dirty rows.
        let old: Row?
        if var new = consume row {
            new.isWaiting = false
            old = entity.rows.updateValue(consume new, forKey: id)
        } else {
            old = entity.rows.removeValue(forKey: id)
        }
        if hasOpenScope { journal.append(.row(entity: entity.plan.index, id: id, old)) }
        // Listed when it becomes dirty: a row dirty already (and not waiting) is listed.
        if isDirty, old?.isDirty != true || old?.isWaiting == true { entity.dirty.append(id) }
        // A row's key never changes: only a row coming or going moves in the key index.
        if (old == nil) == isPresent {
            size += isPresent ? 1 : -1
            if entity.hasKeyIndex {
                let key = old.map(entity.key(of:)) ?? entity.rows.read(id) { entity.key(of: $0) }!
                entity.keys[key] = isPresent ? id : nil
                if isPresent, entity.absentKeys.contains(key) { setAbsent(entity, key, false) }
            } else if isPresent, entity.keyIsRowID, entity.absentIDs.contains(id) {
                setAbsent(entity, [.integer(id)], false)
            }
        }
        guard entity.hasPointers else { return }
        for j in entity.pointers.indices {
            let was = old?.columns[j] ?? nil
            let now = columns?[j] ?? nil
            guard was != now, let index = entity.pointers[j] else { continue }
            if let was, index[was]?.remove(id) == false { index[was] = nil }
            if let now { index.insert(pointer: id, at: now) }
        }
    }

    /// Caches a row read from the server, unless the cache knows it already (then its copy
    /// stands: it may hold writes the server has not had).
    func cacheStored(_ entity: EntityRows, _ id: Int64, values: consuming [StoredValue], columns: consuming [Int64?], isStub: Bool) {
        guard !entity.holds(id) else { return }
        setRow(entity, id, Row(values: values, columns: columns, isStub: isStub, isStored: true, isDirty: false))
    }

    /// The dirty rows of `entity`, in no particular order (``PostgresImportRows/send(_:)`` sorts
    /// them), as they are before this marks them as handed over (the server's copy is the
    /// cache's): the rows the server lacks (`inserted`) and those it holds an older copy of
    /// (`updated`). With `keepingNewStubs`, stubs the server lacks are left out, to wait among
    /// the entity's `waiting` rows: a record met later may fill one in, and then it goes to the
    /// server once, whole, rather than as a stub and an update. Without, the waiting stubs are
    /// taken too.
    func takeDirtyRows(
        _ entity: EntityRows, keepingNewStubs: Bool
    ) -> (inserted: [(id: Int64, row: Row)], updated: [(id: Int64, row: Row)]) {
        var inserted: [(id: Int64, row: Row)] = []
        var updated: [(id: Int64, row: Row)] = []
        // Most rows listed are new rows of a fresh import.
        inserted.reserveCapacity(entity.dirty.count)
        for id in keepingNewStubs || entity.waiting.isEmpty ? entity.dirty : entity.dirty + entity.waiting {
            // Changed in place, found once: only the row's flags change, so its arrays are
            // shared, not copied. Rows listed again or no longer dirty are passed over (a
            // waiting row is dirty: only a full hand-over finds it here).
            guard let index = entity.rows.index(forKey: id), entity.rows[at: index].isDirty,
                !entity.rows[at: index].isWaiting || !keepingNewStubs
            else { continue }
            if keepingNewStubs, entity.rows[at: index].isStub && !entity.rows[at: index].isStored {
                entity.rows[at: index].isWaiting = true
                entity.waiting.append(id)
                continue
            }
            // A full hand-over takes the waiting stubs too.
            let row = Self.handOver(&entity.rows[at: index])
            if hasOpenScope { journal.append(.row(entity: entity.plan.index, id: id, row)) }
            if row.isStored { updated.append((id, row)) } else { inserted.append((id, row)) }
        }
        entity.dirty.removeAll(keepingCapacity: true)
        if !keepingNewStubs { entity.waiting.removeAll() }
        return (inserted, updated)
    }

    /// Rows of `entity` an import updated, its records done: those of them whose change waits
    /// for a hand-over take `_updated_at` `time` with it, written by the same `UPDATE`.
    func stamp(_ entity: EntityRows, rows: [Int64], at time: Double) {
        for id in rows {
            guard let index = entity.rows.index(forKey: id), entity.rows[at: index].isDirty, entity.rows[at: index].isStored
            else { continue }
            if hasOpenScope { journal.append(.row(entity: entity.plan.index, id: id, entity.rows[at: index])) }
            entity.rows[at: index].stampedAt = time
        }
    }

    /// Marks `row` as handed over; returns it as it was.
    private static func handOver(_ row: inout Row) -> Row {
        let was = row
        row.isStored = true
        row.isDirty = false
        row.isWaiting = false
        row.stampedAt = 0
        return was
    }

    func setAbsent(_ entity: EntityRows, _ key: [StoredValue], _ isAbsent: Bool) {
        let was = entity.isAbsent(key)
        guard was != isAbsent else { return }
        if hasOpenScope { journal.append(.absentKey(entity: entity.plan.index, key: key, wasAbsent: was)) }
        if entity.keyIsRowID, case .integer(let id) = key[0] {
            if isAbsent { entity.absentIDs.insert(id) } else { entity.absentIDs.remove(id) }
        } else {
            if isAbsent { entity.absentKeys.insert(key) } else { entity.absentKeys.remove(key) }
        }
    }

    func markComplete(_ entity: EntityRows, column: Int, pointee: Int64) {
        guard entity.completePointees[column].insert(pointee) else { return }
        if hasOpenScope { journal.append(.completePointee(entity: entity.plan.index, column: column, row: pointee)) }
    }

    // MARK: Scopes

    func beginScope() {
        scopeMarks.append(journal.count)
    }

    /// Keeps what the innermost scope did: its entries now belong to the scope around it.
    func keepScope() {
        scopeMarks.removeLast()
        if scopeMarks.isEmpty { journal.removeAll(keepingCapacity: true) }
    }

    /// Undoes what the innermost scope did, newest first.
    func undoScope() {
        let mark = scopeMarks.removeLast()
        // Replayed without journaling: the entries being undone are the journal.
        let marks = scopeMarks
        scopeMarks = []
        while journal.count > mark {
            switch journal.removeLast() {
            case .row(let entity, let id, let row): setRow(entities[entity]!, id, row)
            case .absentKey(let entity, let key, let wasAbsent): setAbsent(entities[entity]!, key, wasAbsent)
            case .completePointee(let entity, let column, let row): entities[entity]!.completePointees[column].remove(row)
            case .list(let table, let source, let list): setList(tables[table], source, list)
            case .completeTarget(let table, let target): tables[table].completeTargets.remove(target)
            }
        }
        scopeMarks = marks
    }

    /// Stops trusting the ids of the rows the server held (``EntityRows/serverIDs``), read
    /// before rows left the server: a deletion, or a rollback to a savepoint taken before rows
    /// were written. Reads of them planned before apply no more.
    func distrustServerIDs() {
        for case let entity? in entities {
            entity.serverIDs = nil
            entity.serverIDsEpoch += 1
        }
    }

    /// Forgets every row and list, each through ``setRow(_:_:_:)`` or ``setList(_:_:_:)`` (and
    /// so journaled in an open scope), and every mark that the cache holds all the rows pointing
    /// at a row or all the lists linking to one (unjournaled: an undone scope then reads again
    /// what it needs). Keys known to have no row stay known: a deletion adds none back.
    func forgetEachEntry() {
        for case let entity? in entities {
            for id in entity.rows.ids { setRow(entity, id, nil) }
            for j in entity.completePointees.indices { entity.completePointees[j] = [] }
        }
        for table in tables {
            for source in table.lists.ids { setList(table, source, nil) }
            table.completeTargets = []
        }
        distrustServerIDs()
        generation += 1
    }

    /// Forgets everything (the transaction ended, or its writes were handed over and the
    /// memory is wanted back).
    ///
    /// A large cache is freed on a thread of its own: freeing the 665,000 rows and lists of the
    /// benchmark's fresh import took about 4 % of the import's time, after its commit and
    /// before it could return.
    func removeAll() {
        precondition(!hasOpenScope, "the cache is emptied inside a scope")
        // The cache lets go of its storage before the thread starts, so the thread's is the
        // last reference, whichever runs first.
        let held = size >= Self.freedAside ? HeldStorage(entities: entities, tables: tables) : nil
        entities = []
        tables = []
        if let held { Thread.detachNewThread { held.free() } }
        tableIndex.removeAll()
        tablesByLink.removeAll()
        journal.removeAll()
        size = 0
        generation += 1
    }

    /// Rows and lists from which ``removeAll()`` frees the cache on a thread of its own.
    static let freedAside = 50_000
}
