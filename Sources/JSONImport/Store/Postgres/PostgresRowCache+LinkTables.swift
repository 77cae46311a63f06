/// Link tables in the row cache: their lists of links by source, changed, indexed by target
/// and handed over as the rows are (see ``PostgresRowCache``).
extension PostgresRowCache {
    final class LinkTable {
        let name: String
        let index: Int
        /// The entity of the sources (the forward side).
        let source: EntityPlan
        let lists = RowTable<LinkList>()
        /// The sources whose lists became dirty since the last hand-over, listed as the rows
        /// of ``EntityRows/dirty`` are.
        @exclusivity(unchecked) var dirty: [Int64] = []
        /// The sources of cached lists linking to each target: made when first asked for (see
        /// ``PostgresRowCache/sources(_:linkingTo:)``), kept up to date from then on. Most link
        /// tables are read from their sources' side only, and never need it.
        @exclusivity(unchecked) fileprivate var sourcesByTarget: [Int64: RowIDSet]?
        /// Targets every source linking to is cached for.
        @exclusivity(unchecked) var completeTargets: RowIDSet = []

        /// Whether the cache holds the links of `source`.
        func holds(_ source: Int64) -> Bool { lists.index(forKey: source) != nil }

        init(name: String, index: Int, source: EntityPlan) {
            self.name = name
            self.index = index
            self.source = source
        }
    }

    // MARK: Link lists

    /// Puts `list` (`nil`: forgets it) in place of the cached links of `source`.
    func setList(_ table: LinkTable, _ source: Int64, _ list: consuming LinkList?) {
        // What is wanted of the new list once it is in place, read before it is moved there.
        let isPresent = list != nil
        let isDirty = list?.isDirty == true
        let targets = table.sourcesByTarget != nil ? list?.targets ?? [] : []
        let old: LinkList?
        if let new = consume list {
            old = table.lists.updateValue(consume new, forKey: source)
        } else {
            old = table.lists.removeValue(forKey: source)
        }
        if hasOpenScope { journal.append(.list(table: table.index, source: source, old)) }
        size += (isPresent ? 1 : 0) - (old == nil ? 0 : 1)
        if isDirty, old?.isDirty != true { table.dirty.append(source) }
        if table.sourcesByTarget != nil { moveTargets(table, source, from: old?.targets ?? [], to: targets) }
    }

    /// Changes the cached links of `source` in place with `body`, which returns how many links
    /// it added or removed; a change marks the list dirty. Returns what `body` returned.
    func changeList(_ table: LinkTable, _ source: Int64, _ body: (inout LinkList) -> Int) -> Int {
        // A copy of the list, which makes `body` copy its arrays, only where the old links are
        // wanted: for the journal, or to move the targets' index.
        let old = hasOpenScope || table.sourcesByTarget != nil ? table.lists[source] : nil
        var wasDirty = true
        let changed = { (list: inout LinkList) in
            let changed = body(&list)
            if changed != 0 {
                wasDirty = list.isDirty
                list.isDirty = true
            }
            return changed
        }(&table.lists[source]!)
        guard changed != 0 else { return 0 }
        if !wasDirty { table.dirty.append(source) }
        if hasOpenScope { journal.append(.list(table: table.index, source: source, old)) }
        if table.sourcesByTarget != nil { moveTargets(table, source, from: old!.targets, to: table.lists[source]!.targets) }
        return changed
    }

    /// The sources of cached lists linking to `target`.
    func sources(_ table: LinkTable, linkingTo target: Int64) -> RowIDSet {
        if table.sourcesByTarget == nil {
            var index: [Int64: RowIDSet] = [:]
            for (source, list) in table.lists {
                for target in list.targets { index[target, default: []].insert(source) }
            }
            table.sourcesByTarget = index
        }
        return table.sourcesByTarget![target] ?? []
    }

    /// Keeps the targets' index of `table` as the links of `source` go from `old` to `new`.
    private func moveTargets(_ table: LinkTable, _ source: Int64, from old: [Int64], to new: [Int64]) {
        for target in old { table.sourcesByTarget![target]?.remove(source) }
        for target in new { table.sourcesByTarget![target, default: []].insert(source) }
    }

    /// The dirty lists of `table`, in source order, as they are before this marks them as
    /// handed over.
    func takeDirtyLists(_ table: LinkTable) -> [(source: Int64, list: LinkList)] {
        var taken: [(source: Int64, list: LinkList)] = []
        taken.reserveCapacity(table.dirty.count)
        for source in table.dirty {
            // Lists listed again or no longer dirty are passed over; a list found once.
            guard let index = table.lists.index(forKey: source), table.lists[at: index].isDirty else { continue }
            let list = Self.handOver(&table.lists[at: index])
            if hasOpenScope { journal.append(.list(table: table.index, source: source, list)) }
            taken.append((source, list))
        }
        table.dirty.removeAll(keepingCapacity: true)
        taken.sort { $0.source < $1.source }
        return taken
    }

    func markComplete(_ table: LinkTable, target: Int64) {
        guard table.completeTargets.insert(target) else { return }
        if hasOpenScope { journal.append(.completeTarget(table: table.index, target: target)) }
    }

    /// Marks `list` as handed over; returns it as it was.
    private static func handOver(_ list: inout LinkList) -> LinkList {
        let was = list
        list.isStored = !list.targets.isEmpty
        list.isDirty = false
        return was
    }
}
