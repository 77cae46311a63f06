/// Writes to entities with `unique` attributes in tables holding too many such values to read,
/// which go to the server at once rather than with a hand-over (see ``PostgresImportRows``).
extension PostgresImportRows {
    /// Whether writes to `entity` must keep its `unique` attributes' values unique, as the
    /// server's index would refuse them at the write that gives them: checked on the client
    /// (``uniqueIndex(_:)``), or, in a table holding too many such values to read, by the index
    /// itself, each write going to the server at once.
    func checksUniqueValues(_ entity: EntityPlan) -> Bool {
        !entity.uniqueAttributeSlots.isEmpty
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
