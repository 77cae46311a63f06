/// Tombstones and versions (SPEC 2.2 step 0): a record that marks its row deleted, and a record
/// older than the row stored.
extension Importer {
    /// What step 0 makes of a record of `entity`.
    enum SyncOutcome {
        /// Neither a tombstone nor stale: the record is imported.
        case record
        /// A tombstone: its row, if stored, is deleted at the end of the import.
        case tombstone
        /// Stale: the stored row (whose version is greater) stays as it is.
        case stale(row: Int64)
    }

    /// Step 0 for a record of `entity` with rules: reads only its key (and version).
    func syncOutcome(_ json: JSONValue, _ entity: EntityPlan) throws(RecordError) -> SyncOutcome {
        let isTombstone = entity.tombstones.contains { rule in
            switch lookup(json, rule.path) {
            case .value(let found): return found.matches(rule.value)
            case .null: return rule.value == .null
            case .missing: return false
            }
        }
        if isTombstone {
            let key = try readKey(json, entity).compactMap { $0 }
            if let row = try storedRow(entity, key: key) {
                tombstoned.insert(row, of: entity.index)
                // A later record with the values written before still has to win over the tombstone.
                forgetWritten(entity, key: key)
            }
            return .tombstone
        }
        guard let slot = entity.versionSlot else { return .record }
        let attribute = entity.attributes[slot]
        guard case .value(let found) = lookup(json, attribute.path) else { return .record }
        let version = try convert(found, attribute)
        guard !version.isNull else { return .record }
        let key = try readKey(json, entity).compactMap { $0 }
        guard let row = try storedRow(entity, key: key) else { return .record }
        let stored = try storedValues(entity, row: row)[slot]
        return Self.isNewer(stored, than: version.stored) ? .stale(row: row) : .record
    }

    /// Whether version `stored` is greater than `version` (both of one type, int or date).
    private static func isNewer(_ stored: StoredValue, than version: StoredValue) -> Bool {
        switch (stored, version) {
        case (.integer(let a), .integer(let b)): return a > b
        case (.real(let a), .real(let b)): return a > b
        default: return false
        }
    }
}
