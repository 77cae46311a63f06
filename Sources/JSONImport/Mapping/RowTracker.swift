/// What one import did to each row it touched, counted by net effect (SPEC 2.2 "Counting"),
/// with an undo log so that a record skipped under `onError: skip` leaves no trace.
///
/// One per operation, used by the one thread running it (hence no run-time exclusivity checks).
final class RowTracker {
    enum Status: UInt8 { case unchanged, updated, inserted }

    /// Per entity, per row: the status in the low bits, `seenFlag` when the import contained a
    /// record for the row (its `_seen_at` advances), `touchedFlag` on every touched row, and the
    /// stub and known marks (which alone do not make a row touched).
    @exclusivity(unchecked) private var rows: [RowFlagMap]
    private static let statusMask: UInt8 = 0b11
    private static let seenFlag: UInt8 = 0b100
    /// Set when a link set of the row changed (its own or a neighbour's write).
    private static let linkFlag: UInt8 = 0b1000
    private static let touchedFlag: UInt8 = 0b1_0000
    /// Set on rows created as stubs by this import (cleared when a record fills them).
    private static let stubFlag: UInt8 = 0b10_0000
    /// Set on rows known to exist now, for entities whose key is the row id: the identity cache
    /// of those entities costs no memory beyond these flags.
    private static let knownFlag: UInt8 = 0b100_0000
    /// Per entity: the stored attributes and link columns of rows that existed before the
    /// import, as they were when the import first changed them (for counting by net effect).
    /// Past ``originalsBudget`` the importer moves them out of memory (``takeOriginals()``).
    @exclusivity(unchecked) private var originals: [[Int64: [StoredValue]]]
    /// The bytes `originals` holds, by estimate.
    @exclusivity(unchecked) private var originalsBytes = 0
    /// Rows deleted by this import that existed before it.
    @exclusivity(unchecked) private(set) var deleted: [Int]
    @exclusivity(unchecked) private(set) var orphansRemoved: [Int]
    /// Identity cache: primary key → row id, for rows known to exist now. Entities whose key is
    /// the row id itself only need to know which ids exist (`knownFlag`).
    @exclusivity(unchecked) private var identities: KeyCaches<Int64>
    private let keyIsRowID: [Bool]
    /// Set when a link to an entity with `cleanup: orphans` was removed, or such a row was
    /// inserted without a link: only then can the clean-up pass find anything.
    @exclusivity(unchecked) var mayHaveOrphans = false

    /// Link changes to rows that existed before the import, counted by net effect up to
    /// ``linkBudget`` bytes (see ``pairChanged(link:source:target:present:)``).
    @exclusivity(unchecked) private var links: LinkNetEffect
    private let linkBudget: Int

    private enum Undo {
        case row(Int, Int64, UInt8?)
        case identity(Int, RowKey)
        case original(Int, Int64)
        case pair(LinkNetEffect.Pair, UInt8?)
        case list(LinkNetEffect.List)
    }
    @exclusivity(unchecked) private var undo: [Undo] = []
    @exclusivity(unchecked) private var isJournaling = false
    /// Where the flags go past ``flagsBudget`` (``spillFlagsIfNeeded()``); `nil` keeps them all
    /// in memory.
    var spilledFlags: SpilledFlags?
    /// In memory, the flags of a row cleared after flags of its range were moved out.
    private static let clearedMark: UInt8 = 0b1000_0000
    private let flagsBudget: Int
    private let flagsCheckInterval: Int
    /// Calls of ``spillFlagsIfNeeded()`` until it next adds up the bytes the flags hold.
    @exclusivity(unchecked) private var callsUntilFlagsCheck = 0

    /// - Parameters:
    ///   - links: per link of the spec, which rows read it (see ``ImportPlan/netEffectEnds``);
    ///     none for operations that change links only by deleting rows.
    ///   - linkBudget: the bytes the link changes kept for counting by net effect may hold.
    ///   - flagsBudget: the bytes the row flags may hold in memory before they move to
    ///     ``spilledFlags``, if set.
    ///   - flagsCheckInterval: how many calls of ``spillFlagsIfNeeded()`` apart their bytes are
    ///     added up.
    init(
        keyIsRowID: [Bool], links: [LinkNetEffect.Ends] = [], linkBudget: Int = RowTracker.linkBudget,
        flagsBudget: Int = RowTracker.flagsBudget, flagsCheckInterval: Int = 4096
    ) {
        self.linkBudget = linkBudget
        let count = keyIsRowID.count
        self.keyIsRowID = keyIsRowID
        self.flagsBudget = flagsBudget
        self.flagsCheckInterval = flagsCheckInterval
        rows = Array(repeating: RowFlagMap(), count: count)
        deleted = Array(repeating: 0, count: count)
        orphansRemoved = Array(repeating: 0, count: count)
        identities = KeyCaches(count: count, budget: Self.identityCacheBudget)
        originals = Array(repeating: [:], count: count)
        self.links = LinkNetEffect(ends: links, entities: count)
    }

    /// Calls `body` with every touched row of `entity`, its status, and whether the import
    /// contained a record for it.
    func forEachRow<E: Error>(of entity: Int, _ body: (Int64, Status, _ seen: Bool) throws(E) -> Void) throws(E) {
        try forEachFlags(of: entity) { (row, flags) throws(E) in
            guard flags & Self.touchedFlag != 0 else { return }
            try body(row, Status(rawValue: flags & Self.statusMask)!, flags & Self.seenFlag != 0)
        }
    }

    /// Touched rows of `entity` whose status and seen mark satisfy `predicate`, in ascending
    /// order, handed to `body` a chunk at a time, so memory stays flat however many rows an
    /// import touched.
    func rows<E: Error>(
        of entity: Int, where predicate: (Status, _ seen: Bool) -> Bool, _ body: ([Int64]) throws(E) -> Void
    ) throws(E) {
        let chunkSize = 50_000
        var chunk: [Int64] = []
        try forEachRow(of: entity) { (row, status, seen) throws(E) in
            guard predicate(status, seen) else { return }
            chunk.append(row)
            if chunk.count == chunkSize {
                try body(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { try body(chunk) }
    }

    /// Records that the import contained a record for a row, and what it did to it.
    func touch(_ entity: Int, _ row: Int64, _ status: Status, seen: Bool) {
        update(entity, row) { old in
            let oldStatus = (old ?? 0) & Self.statusMask
            return ((old ?? 0) & ~Self.statusMask) | max(oldStatus, status.rawValue) | (seen ? Self.seenFlag : 0)
        }
    }

    /// Records that a row was touched; `inserted` wins over `updated`, which wins over `unchanged`.
    func touch(_ entity: Int, _ row: Int64, _ status: Status) {
        touch(entity, row, status, seen: false)
    }

    /// A link of an existing row changed: `updated` unless the row is new to this import.
    func linkChanged(_ entity: Int, _ row: Int64) {
        touch(entity, row, .updated, seen: false)
        update(entity, row) { ($0 ?? 0) | Self.linkFlag }
    }

    /// A link of the row changed, the change also given to ``pairChanged(link:source:target:present:)``
    /// or, for a link table's source, its list kept (``keepList(link:entity:row:_:)``): a row new
    /// to this import is marked as by ``linkChanged(_:_:)``; one that existed before is touched,
    /// and the end of the records counts it `updated` if its links differ from before the import.
    func linkMoved(_ entity: Int, _ row: Int64) {
        if existedBefore(entity, row) { touch(entity, row, .unchanged) } else { linkChanged(entity, row) }
    }

    /// Whether the row is not one this import inserted (rows it deleted have no flags left).
    private func existedBefore(_ entity: Int, _ row: Int64) -> Bool {
        guard let flags = flags(entity, row) else { return true }
        return flags & Self.statusMask != Status.inserted.rawValue
    }

    /// The bytes the link changes kept for counting by net effect may hold: past them, a row
    /// that existed before and whose links change again counts `updated` at once (as if the
    /// change could not cancel out), so memory stays bounded however many links an import moves.
    static let linkBudget = 8 << 20

    /// A pair of a link was added (`present`) or removed; call once per change, after it. Kept
    /// only when a row that reads it existed before the import.
    func pairChanged(link: Int, source: Int64, target: Int64, present: Bool) {
        let counts = links.counts(link)
        let ends = (source: counts.source && existedBefore(links.ends[link].source, source),
                    target: counts.target && existedBefore(links.ends[link].target, target))
        guard ends.source || ends.target else { return }
        let pair = LinkNetEffect.Pair(link: Int32(link), source: source, target: target)
        guard links.estimatedBytes < linkBudget || links.lists(pair) else {
            if ends.source { linkChanged(links.ends[link].source, source) }
            if ends.target { linkChanged(links.ends[link].target, target) }
            return
        }
        let state = links.state(of: pair, afterChangingTo: present)
        let old = links.set(pair, to: state)
        if isJournaling, old != state { undo.append(.pair(pair, old)) }
    }

    /// Keeps a link table's list of `row` (its source), read by `list`, as it was before the
    /// import first changed it, if the row existed before. Past the budget, or for a list
    /// larger than an eighth of it, the row counts `updated` at once instead.
    func keepList<E: Error>(link: Int, entity: Int, row: Int64, _ list: () throws(E) -> [Int64]) throws(E) {
        let key = LinkNetEffect.List(link: Int32(link), row: row)
        guard existedBefore(entity, row), !links.keeps(key) else { return }
        guard links.estimatedBytes < linkBudget else { return linkChanged(entity, row) }
        let rows = try list()
        guard LinkNetEffect.bytes(of: rows) <= linkBudget / 8 else { return linkChanged(entity, row) }
        links.keepList(key, rows)
        if isJournaling { undo.append(.list(key)) }
    }

    /// Counts `updated` the rows that existed before the import and whose link pairs differ from
    /// before it. Call once the records are in, before any row is deleted.
    func settlePairs() {
        for (entity, rows) in links.drift.enumerated() {
            for row in rows.keys { markUpdated(entity, row) }
        }
    }

    /// The link tables' lists of source rows as they were before the import changed them, per
    /// link (by index), of rows still there, in no particular order.
    func originalLists() -> [Int: [(row: Int64, list: [Int64])]] {
        var lists: [Int: [(row: Int64, list: [Int64])]] = [:]
        for (key, list) in links.originalLists where flags(links.ends[Int(key.link)].source, key.row) != nil {
            lists[Int(key.link), default: []].append((key.row, list))
        }
        return lists
    }

    /// Counts a touched row `updated`, unless the import inserted it.
    func markUpdated(_ entity: Int, _ row: Int64) {
        guard let flags = flags(entity, row), flags & Self.touchedFlag != 0 else { return }
        touch(entity, row, .updated)
    }

    /// Whether the import inserted the row (a stub included) and no link set of it changed
    /// since: it has no links, other than in its own link columns. Every write of a link marks
    /// both rows whenever the other side reads it (``linkChanged(_:_:)``).
    func isNewWithoutLinks(_ entity: Int, _ row: Int64) -> Bool {
        guard let flags = flags(entity, row) else { return false }
        return flags & Self.statusMask == Status.inserted.rawValue && flags & Self.linkFlag == 0
    }

    /// Whether the row is a stub this import inserted that no record has filled and no link
    /// change has reached since: it holds its key, attribute defaults and no links.
    func isUntouchedStub(_ entity: Int, _ row: Int64) -> Bool {
        guard let flags = flags(entity, row) else { return false }
        return flags & Self.stubFlag != 0 && flags & Self.linkFlag == 0
    }

    /// Keeps what an existing row held before the import's first change to it.
    func keepOriginal(_ entity: Int, _ row: Int64, _ values: [StoredValue]) {
        guard originals[entity][row] == nil else { return }
        originals[entity][row] = values
        originalsBytes += Self.estimatedBytes(ofOriginal: values)
        if isJournaling { undo.append(.original(entity, row)) }
    }

    private func forgetOriginal(_ entity: Int, _ row: Int64) {
        guard let values = originals[entity].removeValue(forKey: row) else { return }
        originalsBytes -= Self.estimatedBytes(ofOriginal: values)
    }

    private static func estimatedBytes(ofOriginal values: [StoredValue]) -> Int {
        MemoryEstimate.dictionaryEntry + MemoryEstimate.heapBytes(of: values)
    }

    /// The bytes of originals held in memory past which the importer moves them to the store:
    /// an import that changes millions of existing rows would otherwise hold all of them.
    static let originalsBudget = 4 << 20

    /// Whether the originals held in memory are past ``originalsBudget``.
    var holdsTooManyOriginals: Bool { originalsBytes > Self.originalsBudget }

    /// Hands over the originals held in memory, per entity, and forgets them. Only between
    /// records: a record being journaled may still have to forget the ones it kept.
    func takeOriginals() -> [[Int64: [StoredValue]]] {
        precondition(!isJournaling, "originals are handed over between records only")
        let taken = originals
        originals = Array(repeating: [:], count: originals.count)
        originalsBytes = 0
        return taken
    }

    /// Whether the import needs the row's original values: it existed before and is not yet
    /// changed by this import.
    func needsOriginal(_ entity: Int, _ row: Int64) -> Bool {
        guard let flags = flags(entity, row) else { return true }
        return flags & Self.statusMask == Status.unchanged.rawValue
    }

    /// Rows counted `updated` for their attributes and link columns, with what they held before
    /// the import (those held in memory): if their attributes are the same again, the net
    /// effect is `unchanged` as far as they go (their links are settled after, by pairs).
    func netEffectCandidates(of entity: Int) -> [(row: Int64, original: [StoredValue])] {
        originals[entity].compactMap { row, original in isNetEffectCandidate(entity, row) ? (row, original) : nil }
    }

    /// Whether a row with an original is counted `updated` for its attributes and link columns
    /// only: a row marked by ``linkChanged(_:_:)`` (a link change not counted by net effect)
    /// stays `updated`.
    func isNetEffectCandidate(_ entity: Int, _ row: Int64) -> Bool {
        guard let flags = flags(entity, row) else { return false }
        return flags & Self.linkFlag == 0 && flags & Self.statusMask == Status.updated.rawValue
    }

    /// Counts a row `unchanged` after all (its changes cancelled out).
    func markUnchanged(_ entity: Int, _ row: Int64) {
        guard let flags = flags(entity, row) else { return }
        store(entity, row, (flags & ~Self.statusMask) | Status.unchanged.rawValue)
    }

    private func update(_ entity: Int, _ row: Int64, _ change: (UInt8?) -> UInt8) {
        let old = flags(entity, row)
        set(entity, row, from: old, to: change(old) | Self.touchedFlag)
    }

    /// Sets or clears `flag` on a row without touching it.
    private func mark(_ entity: Int, _ row: Int64, _ flag: UInt8, _ on: Bool) {
        let old = flags(entity, row)
        set(entity, row, from: old, to: on ? (old ?? 0) | flag : (old ?? 0) & ~flag)
    }

    private func set(_ entity: Int, _ row: Int64, from old: UInt8?, to new: UInt8) {
        guard new != old ?? 0 else { return }
        if isJournaling { undo.append(.row(entity, row, old)) }
        store(entity, row, new)
    }

    func markStub(_ entity: Int, _ row: Int64) { mark(entity, row, Self.stubFlag, true) }

    func clearStub(_ entity: Int, _ row: Int64) { mark(entity, row, Self.stubFlag, false) }

    /// How many rows this import created as stubs that are stubs still.
    func stubCount(of entity: Int) -> Int {
        var count = 0
        forEachFlags(of: entity) { _, flags in if flags & Self.stubFlag != 0 { count += 1 } }
        return count
    }

    func identity(_ entity: Int, _ key: RowKey) -> Int64? {
        if keyIsRowID[entity], case .integer(let row) = key {
            return (flags(entity, row) ?? 0) & Self.knownFlag != 0 ? row : nil
        }
        return identities[entity, key]
    }

    /// The bytes the identity caches of all entities may hold together, by estimate (they are
    /// only caches: a miss looks the key up in the store), so memory stays bounded however
    /// large the import and however long its keys.
    static let identityCacheBudget = 4 << 20

    func remember(_ entity: Int, _ key: RowKey, _ row: Int64) {
        if keyIsRowID[entity] {
            mark(entity, row, Self.knownFlag, true)
            return
        }
        // Starting over never loses anything a rolled-back record would need restored.
        if identities.set(row, for: key, in: entity), isJournaling {
            undo.append(.identity(entity, key))
        }
    }

    /// Forgets rows deleted from the store, counting those that existed before the import.
    ///
    /// - Returns: for each row, whether it existed before the import (rows the import both
    ///   created and deleted count nowhere).
    @discardableResult
    func removed(_ entity: Int, _ removedRows: [Int64], asOrphans: Bool) -> [Bool] {
        guard !removedRows.isEmpty else { return [] }
        var result: [Bool] = []
        result.reserveCapacity(removedRows.count)
        for row in removedRows {
            let old = flags(entity, row)
            store(entity, row, nil)
            let existed = old.map({ $0 & Self.statusMask }) != Status.inserted.rawValue
            if existed {
                deleted[entity] += 1
                if asOrphans { orphansRemoved[entity] += 1 }
            }
            result.append(existed)
        }
        if !identities.isEmpty(entity) {
            let gone = Set(removedRows)
            identities.removeAll(in: entity) { gone.contains($0) }
        }
        return result
    }

    // MARK: Flags out of memory

    /// The bytes the flags of all entities may hold in memory together, by default, before
    /// they move to ``spilledFlags``: about a byte a row for dense ids, ten for sparse ones.
    static let flagsBudget = 16 << 20

    /// Moves the flags out of memory once they pass their budget (adding up their bytes every
    /// `flagsCheckInterval` calls). Only between records, like ``takeOriginals()``.
    func spillFlagsIfNeeded() {
        guard let spilledFlags, !isJournaling else { return }
        callsUntilFlagsCheck -= 1
        guard callsUntilFlagsCheck <= 0 else { return }
        callsUntilFlagsCheck = flagsCheckInterval
        guard rows.reduce(0, { $0 + $1.allocatedBytes }) > flagsBudget else { return }
        for entity in rows.indices { spillFlags(of: entity, into: spilledFlags) }
    }

    private func spillFlags(of entity: Int, into spilledFlags: SpilledFlags) {
        spilledFlags.move(entity, rows[entity], cleared: Self.clearedMark)
        rows[entity] = RowFlagMap()
    }

    /// The flags of a row, from memory or else from ``spilledFlags`` (then kept in memory).
    private func flags(_ entity: Int, _ row: Int64) -> UInt8? {
        if let flags = rows[entity][row] { return flags == Self.clearedMark ? nil : flags }
        guard let spilledFlags, spilledFlags.holdsAny, let flags = spilledFlags.flags(of: entity, row) else { return nil }
        rows[entity][row] = flags
        return flags
    }

    private func store(_ entity: Int, _ row: Int64, _ flags: UInt8?) {
        let clearsMovedOut = flags == nil && spilledFlags?.holdsAny == true && spilledFlags!.mayHold(entity, row)
        rows[entity][row] = clearsMovedOut ? Self.clearedMark : flags
    }

    /// Every row of `entity` with flags, in ascending order, wherever they are.
    private func forEachFlags<E: Error>(of entity: Int, _ body: (Int64, UInt8) throws(E) -> Void) throws(E) {
        guard let spilledFlags, spilledFlags.holds(entity) else { return try rows[entity].forEach(body) }
        spillFlags(of: entity, into: spilledFlags)
        try spilledFlags.forEach(entity, body)
    }

    // MARK: Savepoints

    /// Starts journaling changes so that `rollBackRecord()` can undo them.
    func beginRecord() {
        undo.removeAll(keepingCapacity: true)
        isJournaling = true
    }

    func commitRecord() {
        isJournaling = false
        undo.removeAll(keepingCapacity: true)
    }

    func rollBackRecord() {
        isJournaling = false
        for entry in undo.reversed() {
            switch entry {
            case .row(let e, let row, let old): store(e, row, old)
            case .identity(let e, let key): identities.removeValue(for: key, in: e)
            case .original(let e, let row): forgetOriginal(e, row)
            case .pair(let pair, let old): links.set(pair, to: old)
            case .list(let list): links.forgetList(list)
            }
        }
        undo.removeAll(keepingCapacity: true)
    }
}
