/// Repeated records: a keyed record written earlier in the same import with the same values.
extension Importer {
    /// The row of a record this import already wrote with exactly these attribute values, for
    /// entities whose rows hold nothing else that could have changed meanwhile (no link
    /// columns): a tag shared by thousands of repositories is written once, not compared again.
    func repeatedRow(_ entity: EntityPlan, key: [Value], values: [Value?]) -> Int64? {
        guard entity.skipsRepeats, let written = written[entity.index][RowKey(key)] else { return nil }
        guard written.values.count == values.count else { return nil }
        for (stored, value) in zip(written.values, values) {
            switch (stored, value) {
            case (nil, nil): continue
            case (let stored?, let value?) where value.matches(stored): continue
            default: return nil
            }
        }
        return written.row
    }

    func rememberWritten(_ entity: EntityPlan, key: [Value], row: Int64, values: [Value?]) {
        guard entity.skipsRepeats else { return }
        // A cache only: starting over keeps memory bounded on imports with many distinct keys.
        if written[entity.index].count >= RowTracker.identityCacheLimit { written[entity.index].removeAll() }
        written[entity.index][RowKey(key)] = (row, values.map { $0?.stored })
    }
}
