/// The importer's statements: prepared once, run with every failure turned into the record's
/// error (which keeps the store's error, so a failing store is still told apart).
extension Importer {
    /// The prepared statement of `cached`, prepared on first use.
    func sql(_ cached: CachedSQL) throws(RecordError) -> SQLiteStatement {
        if let statement = cached.statement {
            statement.reset()
            return statement
        }
        do {
            let statement = try connection.prepare(cached.text)
            cached.statement = statement
            return statement
        } catch {
            throw fail(error)
        }
    }

    func step(_ statement: SQLiteStatement) throws(RecordError) -> Bool {
        do {
            return try statement.step()
        } catch {
            throw fail(error)
        }
    }

    func write(_ statement: SQLiteStatement) throws(RecordError) {
        while try step(statement) {}
    }

    func fail(_ message: String) -> RecordError { RecordError(path: path, message: message) }

    /// The record error for a statement of the record that failed with `error`.
    func fail(_ error: StoreError) -> RecordError {
        let message = error.code == .constraint ? "constraint failed: \(error.message)" : error.description
        return RecordError(path: path, message: message, storeError: error)
    }
}
