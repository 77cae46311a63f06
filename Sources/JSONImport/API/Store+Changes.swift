/// Reading what an operation changed, by key, for change observers.
extension Store {
    /// What an operation did, by key, when observers want to know (else `nil`): the tracker's
    /// inserted and updated rows, read while they still exist, and the deleted rows' keys.
    func changeLog(_ tracker: RowTracker, deletions: [Deletion]) throws -> ChangeLog? {
        guard writeState.collectsChanges else { return nil }
        var log = ChangeLog()
        for entity in plan.entities {
            var inserted = Set<Int64>()
            var changed: [Int64] = []
            tracker.forEachRow(of: entity.index) { row, status, _ in
                guard status != .unchanged else { return }
                changed.append(row)
                if status == .inserted { inserted.insert(row) }
            }
            for (row, key) in try keys(of: entity, rows: changed) {
                log.record(inserted.contains(row) ? .inserted : .updated, entity: entity.index, key: key)
            }
        }
        for deletion in deletions {
            guard let entity = plan.entity(named: deletion.entity) else { continue }
            log.record(.deleted, entity: entity.index, key: Self.keyValue(deletion.key, of: entity.spec))
        }
        return log
    }

    /// A primary key in its JSON form: the value, an array for a composite key, `.null` for
    /// an owned row.
    static func keyValue(_ values: [StoredValue], of entity: EntitySpec) -> RecordValue {
        let keys = entity.keyAttributes
        guard !keys.isEmpty, keys.count == values.count else { return .null }
        let converted = zip(values, keys).map { RecordReader.jsonValue($0, of: $1) }
        return converted.count == 1 ? converted[0] : .array(converted)
    }
}
