extension SQLiteConnection {
    /// Runs `body` in one read transaction (a deferred `BEGIN`), so that every statement in it
    /// sees the same snapshot of the store while other connections write (WAL mode).
    ///
    /// Inside a transaction already begun, `body` simply runs in it.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard !isInTransaction else { return try body() }
        return try transaction(beginning: "BEGIN", body)
    }
}
