/// Counting by net effect: the originals of changed rows, kept by the tracker and moved to the
/// store past their budget, are compared with the rows once the records are in; link changes
/// go to the tracker as they are written (pairs, and link tables' lists as they were) and are
/// settled then too.
extension Importer {
    /// Moves the originals and row flags the tracker holds to the store once they pass their
    /// budgets. Call between records only.
    func spillIfNeeded() throws(StoreError) {
        tracker.spillFlagsIfNeeded()
        if let failure = tracker.spilledFlags?.failure { throw failure }
        guard tracker.holdsTooManyOriginals, let spilledOriginals else { return }
        try spilledOriginals.append(tracker.takeOriginals())
    }

    /// Drops the row flags moved out of memory; call once the tracker has been read for the
    /// last time, before committing.
    func dropSpilledFlags() throws(StoreError) {
        try tracker.spilledFlags?.drop()
    }

    /// Counts as `unchanged` the rows whose changes in this import cancelled out, and as
    /// `updated` those whose links differ from before it (SPEC 2.2: `updated` means different
    /// from before the import).
    func settleNetEffect() throws(RecordError) {
        for entity in plan.entities {
            try settle(entity, tracker.netEffectCandidates(of: entity.index))
            guard let spilledOriginals else { continue }
            var after: Int64?
            while true {
                let chunk: [(row: Int64, values: [StoredValue])]
                do {
                    chunk = try spilledOriginals.originals(of: entity.index, after: after, limit: 10_000)
                } catch {
                    throw fail(error.description)
                }
                guard let last = chunk.last else { break }
                try settle(entity, chunk.filter { tracker.isNetEffectCandidate(entity.index, $0.row) }.map { ($0.row, $0.values) })
                after = last.row
            }
        }
        do {
            try spilledOriginals?.drop()
        } catch {
            throw fail(error.description)
        }
        tracker.settlePairs()
        try settleLists()
    }

    /// Counts `updated` the source rows of link tables whose lists differ from before the
    /// import, read a chunk at a time that the row path reads ahead.
    private func settleLists() throws(RecordError) {
        for (link, lists) in tracker.originalLists() {
            let relationship = forwardRelationship(ofLink: link)
            var start = 0
            while start < lists.count {
                let chunk = lists[start..<min(start + Self.settledAtOnce, lists.count)]
                try store { () throws(StoreError) in
                    try rows.readAhead(lists: relationship, of: chunk.map(\.row))
                    for (row, original) in chunk where try rows.linkedRows(relationship, of: row) != original {
                        tracker.markUpdated(relationship.entity.index, row)
                    }
                }
                start = chunk.endIndex
            }
        }
    }

    /// Settles `candidates`, a chunk at a time that the row path reads ahead.
    private func settle(_ entity: EntityPlan, _ candidates: [(row: Int64, original: [StoredValue])]) throws(RecordError) {
        var start = 0
        while start < candidates.count {
            let chunk = candidates[start..<min(start + Self.settledAtOnce, candidates.count)]
            try store { () throws(StoreError) in try rows.readAhead(entity, rows: chunk.map(\.row)) }
            for (row, original) in chunk { try settle(entity, row: row, original: original) }
            start = chunk.endIndex
        }
    }

    /// Rows settled per read ahead.
    private static let settledAtOnce = 10_000

    private func settle(_ entity: EntityPlan, row: Int64, original: [StoredValue]) throws(RecordError) {
        if Self.areEqual(try storedValues(entity, row: row), original, entity) { tracker.markUnchanged(entity.index, row) }
    }

    /// Whether two `storedValues` of a row hold the same attributes, decimals (and `[decimal]`s)
    /// compared by value. Link columns are left out: every change of one is a pair the tracker
    /// counts by net effect (``RowTracker/settlePairs()``), and a column written before the
    /// row's original was kept (by a record linking the row from the other side) would not
    /// show in the original.
    private static func areEqual(_ a: [StoredValue], _ b: [StoredValue], _ entity: EntityPlan) -> Bool {
        guard a.count == b.count else { return false }
        for (i, (x, y)) in zip(a, b).enumerated().prefix(entity.attributes.count) where x != y {
            guard case .text(var x) = x, case .text(var y) = y else { return false }
            let type = entity.attributes[i].spec.type
            guard type == .decimal || type == .array(.decimal),
                x.withUTF8({ x in y.withUTF8 { DecimalOrder.areEqual(x, $0, isArray: type != .decimal) } })
            else { return false }
        }
        return true
    }

    // MARK: Link changes

    /// Gives the tracker a link of `relationship` between `row` (of its entity) and `other`,
    /// added (`present`) or removed, for counting by net effect.
    func pairChanged(_ relationship: RelationshipPlan, _ row: Int64, _ other: Int64, present: Bool) {
        let isForward = relationship.spec.isForward
        tracker.pairChanged(
            link: relationship.spec.linkIndex, source: isForward ? row : other, target: isForward ? other : row,
            present: present)
    }

    /// Marks the rows whose links changed when `row` gained or lost links to `others`, to be
    /// counted by net effect.
    func linksMoved(_ relationship: RelationshipPlan, of entity: EntityPlan, row: Int64, added: [Int64], removed: [Int64] = []) {
        tracker.linkMoved(entity.index, row)
        guard relationship.otherSideReads else { return }
        for other in added { tracker.linkMoved(relationship.target, other) }
        for other in removed { tracker.linkMoved(relationship.target, other) }
    }

    /// Before the back side of a link table changes the lists of `sources`, keeps those lists
    /// as they were for counting by net effect (``RowTracker/keepList(link:entity:row:_:)``).
    func keepSourceLists(_ relationship: RelationshipPlan, _ added: [Int64], _ removed: [Int64] = []) throws(StoreError) {
        guard case .linkTable(_, false) = relationship.storage else { return }
        let link = relationship.spec.linkIndex
        let forward = forwardRelationship(ofLink: link)
        for source in added + removed {
            try tracker.keepList(link: link, entity: relationship.target, row: source) { () throws(StoreError) in
                try rows.linkedRows(forward, of: source)
            }
        }
    }

    /// The forward side of a link, as its source entity reads it.
    func forwardRelationship(ofLink link: Int) -> RelationshipPlan {
        let source = plan.entity(named: plan.spec.links[link].source)!
        return source.relationships.first { $0.spec.linkIndex == link && $0.spec.isForward }!
    }
}
