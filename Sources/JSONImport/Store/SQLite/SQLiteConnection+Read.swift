extension SQLiteConnection {
    /// Runs `body` in one read transaction (a deferred `BEGIN`), so that every statement in it
    /// sees the same snapshot of the store while other connections write (WAL mode).
    ///
    /// Inside a transaction already begun, `body` simply runs in it.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard !isInTransaction else { return try body() }
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }
}
