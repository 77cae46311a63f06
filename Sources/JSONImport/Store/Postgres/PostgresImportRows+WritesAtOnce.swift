/// Writes to entities with `unique` attributes, which go to the server at once rather than
/// with a hand-over (see ``PostgresImportRows``).
extension PostgresImportRows {
    /// Whether writes to `entity` go to the server at once: its `unique` attributes' index must
    /// refuse a value at the write that gives it. A new row that gives none (each `null`, which
    /// the index never refuses) goes with the hand-over, as other entities' rows do, until a
    /// change gives it one (see ``givesUniqueValue(_:_:)``).
    func isWrittenAtOnce(_ entity: EntityPlan) -> Bool {
        entity.spec.attributes.contains(where: \.isUnique)
    }

    /// Whether `row` holds a value of one of `entity`'s `unique` attributes, its key's included:
    /// a `unique` key attribute, never `null`, has its rows written at once, where the server's
    /// index answers lookups by it (a reference's `targetKey`) and refuses a value a composite
    /// key's other parts do not make unique.
    func givesUniqueValue(_ entity: EntityPlan, _ row: PostgresRowCache.Row) -> Bool {
        entity.spec.attributes.indices.contains { entity.spec.attributes[$0].isUnique && row.values[$0] != .null }
    }

    /// Inserts `row`, new, as row `id` of `entity` at once (see ``writeAtOnce(_:_:)``): the
    /// server holds it from then on.
    func insertNow(_ entity: EntityPlan, id: Int64, _ row: inout PostgresRowCache.Row) throws(StoreError) {
        let values = insertValues(entity, id: id, row)
        _ = try writeAtOnce(entity) { () throws(StoreError) in try connection.run(insertSQL(entity), values) }
        row.isStored = true
        row.isDirty = false
    }

    /// Runs a write to the server in a savepoint of its own, so that an index's refusal fails
    /// the statement and not the transaction, as in SQLite (the importer then names the row
    /// holding the value). Savepoints of the importer's open scopes are taken first.
    func writeAtOnce<T>(_ entity: EntityPlan, _ write: () throws(StoreError) -> T) throws(StoreError) -> T {
        try finishBackgroundHandOver()
        try engine.openScopesOnServer()
        roundTrips += 3
        try connection.savepoint("unique_write")
        let result: T
        do {
            result = try write()
        } catch {
            try? connection.rollbackTo("unique_write")
            try? connection.release("unique_write")
            throw error
        }
        try connection.release("unique_write")
        return result
    }

    func updateNow(
        _ entity: EntityPlan, row: Int64, values: [Value?], columns: [Int64?], setting shape: [Bool]
    ) throws(StoreError) -> Int {
        var sets: [String] = []
        var parameters: [StoredValue] = []
        for (i, value) in values.enumerated() where shape[i] {
            parameters.append(value!.stored)
            sets.append("\(quote(entity.spec.attributes[i].name)) = $\(parameters.count)")
        }
        for (j, column) in columns.enumerated() where shape[values.count + j] {
            parameters.append(column.map(StoredValue.integer) ?? .null)
            sets.append("\(quote(entity.relationships[entity.selfColumns[j]].columnName!)) = $\(parameters.count)")
        }
        sets.append(entity.spec.isOwned ? "\(entity.rowID) = \(entity.rowID)" : "\"_stub\" = false")
        parameters.append(.integer(row))
        return try connection.run(
            "UPDATE \(entity.table) SET \(sets.joined(separator: ", ")) WHERE \(entity.rowID) = $\(parameters.count)", parameters)
    }
}
