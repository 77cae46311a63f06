/// Repeated records: a keyed record written earlier in the same import with the same values.
extension Importer {
    /// What a keyed record was last written with.
    struct WrittenRecord: KeyCacheEntry {
        let row: Int64
        let values: [StoredValue?]

        var estimatedBytes: Int { MemoryEstimate.heapBytes(of: values) }
    }

    /// The bytes the repeated-record caches of all entities may hold together, by estimate. A
    /// few MB hold thousands of small shared records (tags, languages); records whose keys do
    /// not repeat (most root records) only pass through.
    static let writtenCacheBudget = 4 << 20

    /// The row of a record this import already wrote with exactly these attribute values, for
    /// entities whose rows hold nothing else that could have changed meanwhile (no link
    /// columns): a tag shared by thousands of repositories is written once, not compared again.
    func repeatedRow(_ entity: EntityPlan, key: [Value], values: [Value?]) -> Int64? {
        guard entity.skipsRepeats, let written = written[entity.index, RowKey(key)] else { return nil }
        guard written.values.count == values.count else { return nil }
        // Value by value, in place: a pair switched over is a copy of both (a retain and a
        // release of each text), for every shared record of an import.
        let isSame = written.values.withUnsafeBufferPointer { stored in
            values.indices.allSatisfy { i in
                guard let value = values[i] else { return stored[i] == nil }
                guard case .some(let held) = stored[i] else { return false }
                return value.matches(held)
            }
        }
        return isSame ? written.row : nil
    }

    /// Keeps what a nested record was written with. Root records are not kept: their keys
    /// seldom repeat, and keeping them would copy every record of a large import. A root record
    /// that changed a row a nested one wrote makes the row's entry go, so that a later nested
    /// record with the earlier values writes them again.
    func rememberWritten(_ entity: EntityPlan, key: [Value], row: Int64, values: [Value?]) {
        guard entity.skipsRepeats else { return }
        guard !path.isEmpty else {
            forgetWritten(entity, key: key)
            return
        }
        let rowKey = RowKey(key)
        // Sized before the values are copied: a record too large to keep is never copied.
        let size = MemoryEstimate.dictionaryEntry + rowKey.estimatedBytes + MemoryEstimate.heapBytes(of: values)
        guard size <= written.maximumEntryBytes else {
            written.removeValue(for: rowKey, in: entity.index)
            return
        }
        written.set(WrittenRecord(row: row, values: values.map { $0?.stored }), for: rowKey, in: entity.index)
    }

    /// Forgets what the row of `key` was written with: it is about to change, or has.
    func forgetWritten(_ entity: EntityPlan, key: [Value]) {
        guard !written.isEmpty(entity.index) else { return }
        written.removeValue(for: RowKey(key), in: entity.index)
    }

    /// The row of a nested record known by its JSON: one with the same bytes was written, or
    /// found as written, and no row of its entity has been written with other values since.
    /// Its conversion, key and comparison would come to the same row, changing nothing. (Only
    /// records that ``recognise(_:_:row:)`` took are known.)
    func recognisedRow(_ json: JSONValue, _ entity: EntityPlan) -> Int64? {
        guard !path.isEmpty, entity.recognisesRepeats else { return nil }
        return signatures.row(of: json, entity: entity.index)
    }

    /// Notes that the row of nested record `json` holds what the record converts to, when
    /// importing it again would change nothing: its entity's records are recognised, no hook
    /// validates them, and it gives none of the entity's relationships (whose links it would set).
    func recognise(_ json: JSONValue, _ entity: EntityPlan, row: Int64) {
        guard !path.isEmpty, entity.recognisesRepeats, validators.isEmpty || validators[entity.index] == nil else { return }
        for relationship in entity.relationships {
            guard case .missing = lookup(json, relationship.path) else { return }
        }
        signatures.remember(json, entity: entity.index, row: row)
    }
}
