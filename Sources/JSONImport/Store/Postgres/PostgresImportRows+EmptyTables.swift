/// Tables that were empty: a transaction that finds a table empty the first time it looks
/// knows every row the table holds, its own inserts, as long as it holds the store's lock. A
/// key of such a table that the transaction did not insert names no row, and nothing is read
/// for it.
extension PostgresImportRows {
    /// Looks, once per transaction, whether the table of `entity` is empty, before the
    /// transaction has cached a row of it (see ``insertedKeys``).
    func probeEmptiness(_ entity: EntityPlan) throws(StoreError) {
        let transaction = engine.transactionNumber
        guard probedEmptiness[entity.index] != transaction else { return }
        probedEmptiness[entity.index] = transaction
        if !entity.spec.isOwned, try isEmpty(entity) { insertedKeys[entity.index] = (transaction, []) }
    }

    /// When the table of `entity` was empty as the transaction first looked: the keys of the
    /// rows it inserted that the cache no longer holds (see ``insertedKeys``); otherwise `nil`.
    func keysInserted(into entity: EntityPlan) -> Set<[StoredValue]>? {
        insertedKeys[entity.index].flatMap { $0.transaction == engine.transactionNumber ? $0.keys : nil }
    }

    func isEmpty(_ entity: EntityPlan) throws(StoreError) -> Bool {
        // A distributed table is not probed across its tenants' shards.
        if !cache.rows(entity).rows.isEmpty || entity.tenantSlot != nil { return false }
        return try isEmpty(table: entity.table)
    }

    private func isEmpty(table: String) throws(StoreError) -> Bool {
        try finishBackgroundHandOver()
        roundTrips += 1
        return try connection.rows("SELECT 1 FROM \(table) LIMIT 1").isEmpty
    }

    /// Whether `key` (as the cache holds keys, the cache lacking it) names no row of
    /// `entity`'s table, known without reading: the table was empty when the transaction first
    /// looked, and the transaction did not insert the key. `key` is made only when those
    /// inserts must be searched for it, so a row id's key (`[.integer(id)]`) costs nothing
    /// otherwise.
    func namesNoRow(_ key: @autoclosure () -> [StoredValue], of entity: EntityPlan) -> Bool {
        keysInserted(into: entity).map { $0.isEmpty || !$0.contains(key()) } ?? false
    }

    /// `false` for a table that was empty when the transaction first looked, while the cache
    /// holds every row the transaction put in it: a key it lacks names no row.
    func readsAhead(keysOf entity: EntityPlan) -> Bool {
        keysInserted(into: entity)?.isEmpty != true
    }
}
