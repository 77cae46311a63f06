/// The values of `unique` attributes, known on the client, so that rows giving them go to the
/// server in sets like any others (see ``PostgresImportRows/uniqueIndex(_:)``).
final class PostgresUniqueIndex {
    /// The slots of the entity's `unique` attributes, its key's included.
    let slots: [Int]
    /// By attribute slot: the rows each value was seen in (read from the table, or written by the
    /// transaction), in the cache's form of the value. A row listed may have let the value go
    /// since, or be gone: a row holds the value only if it still does as the cache, or else the
    /// server, holds it (``PostgresImportRows/holder(_:slot:stored:in:besides:)``).
    private(set) var candidates: [Int: [StoredValue: [Int64]]] = [:]

    init(slots: [Int]) { self.slots = slots }

    /// Notes that row `row` holds `value` in attribute `slot`.
    func note(_ row: Int64, slot: Int, _ value: StoredValue) {
        guard value != .null else { return }
        candidates[slot, default: [:]][value, default: []].append(row)
    }
}

extension PostgresImportRows {
    /// The unique values of `entity`, an entity with `unique` attributes, known on the client for
    /// this transaction: read from the table when the transaction first asks (before it writes
    /// any row of it), then kept up as it writes. `nil` when the table holds
    /// ``uniqueIndexLimit`` rows or more with such a value: its writes then go to the server at
    /// once.
    ///
    /// With them, a value another row holds is refused by the client, as the index would refuse
    /// it, and rows go with the hand-over, which clears the unique values that staged rows give
    /// up before it copies new rows and merges the staged ones (``releaseSQL(_:)``), so that no
    /// statement meets a value on its way from one row to another.
    func uniqueIndex(_ entity: EntityPlan) throws(StoreError) -> PostgresUniqueIndex? {
        let transaction = engine.transactionNumber
        if let known = uniqueIndexes[entity.index], known.transaction == transaction { return known.index }
        let slots = entity.uniqueAttributeSlots
        let columns = slots.map { quote(entity.spec.attributes[$0].name) }
        try finishBackgroundHandOver()
        roundTrips += 1
        let rows = try connection.rows(
            "SELECT \(entity.rowID), \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE "
                + columns.map { "\($0) IS NOT NULL" }.joined(separator: " OR ") + " LIMIT \(uniqueIndexLimit)")
        var index: PostgresUniqueIndex?
        if rows.count < uniqueIndexLimit {
            let made = PostgresUniqueIndex(slots: slots)
            for row in rows {
                guard case .integer(let id) = row[0] else { continue }
                for (k, slot) in slots.enumerated() { made.note(id, slot: slot, Self.asStored(row[k + 1], entity.types[slot])) }
            }
            index = made
        }
        uniqueIndexes[entity.index] = (transaction, index)
        return index
    }

    /// The row other than `row` holding `stored` (in the cache's form) in unique attribute
    /// `slot` of `entity`, as the index knows; `nil` when none does.
    func holder(_ entity: EntityPlan, slot: Int, stored: StoredValue, in index: PostgresUniqueIndex, besides row: Int64?) throws(StoreError) -> Int64? {
        guard let candidates = index.candidates[slot]?[stored] else { return nil }
        let rows = cache.rows(entity)
        for id in candidates where id != row {
            try load(rows, id: id)
            if rows.rows.read(id, { $0.values[slot] == stored }) == true { return id }
        }
        return nil
    }

    /// Refuses `values`, the row `row` of `entity` is to hold, when another row holds one of
    /// their unique values, as the server's index would (the importer then finds which, and
    /// puts the value off, see ``Importer/heldUniques(after:_:values:row:)``); else notes them.
    func checkUnique(_ entity: EntityPlan, row: Int64, _ values: [StoredValue], was old: [StoredValue]?, in index: PostgresUniqueIndex) throws(StoreError) {
        func isGiven(_ slot: Int) -> Bool { values[slot] != .null && values[slot] != old?[slot] }
        for slot in index.slots where isGiven(slot) {
            guard try holder(entity, slot: slot, stored: values[slot], in: index, besides: row) == nil else {
                throw StoreError(
                    .constraint, "duplicate key value violates unique constraint \"\(entity.spec.table)_\(entity.spec.attributes[slot].name)\"")
            }
        }
        for slot in index.slots where isGiven(slot) { index.note(row, slot: slot, values[slot]) }
    }
}
