/// The importer's reads and writes through the row path, with every store failure turned into
/// the record's error (which keeps the store's error, so a failing store is still told apart).
extension Importer {
    /// Runs `body` against the store, its failure a record error.
    func store<T>(_ body: () throws(StoreError) -> T) throws(RecordError) -> T {
        do {
            return try body()
        } catch {
            throw fail(error)
        }
    }

    func fail(_ message: String) -> RecordError { RecordError(path: path, message: message) }

    /// The record error for a statement of the record that failed with `error`.
    func fail(_ error: StoreError) -> RecordError {
        let message = error.code == .constraint ? "constraint failed: \(error.message)" : error.description
        return RecordError(path: path, message: message, storeError: error)
    }
}
