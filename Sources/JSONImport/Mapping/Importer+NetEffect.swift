/// Counting by net effect: the originals of changed rows, kept by the tracker and moved to the
/// store past their budget, are compared with the rows once the records are in.
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
}
