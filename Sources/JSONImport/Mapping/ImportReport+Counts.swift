extension ImportReport {
    /// Adds the tracker's per-entity counts (SPEC 2.2 "Counting"), orphans removed and stubs,
    /// in declaration order, listing only entities with something to report.
    mutating func addCounts(from tracker: RowTracker, plan: ImportPlan) {
        for entity in plan.entities {
            var counts = Counts()
            tracker.forEachRow(of: entity.index) { _, status, _ in
                switch status {
                case .inserted: counts.inserted += 1
                case .updated: counts.updated += 1
                case .unchanged: counts.unchanged += 1
                }
            }
            counts.deleted = tracker.deleted[entity.index]
            let name = entity.spec.name
            if counts != Counts() { changes.append((name, counts)) }
            if tracker.orphansRemoved[entity.index] > 0 { orphansRemoved.append((name, tracker.orphansRemoved[entity.index])) }
            let stubCount = tracker.stubCount(of: entity.index)
            if stubCount > 0 { stubs.append((name, stubCount)) }
        }
    }
}
