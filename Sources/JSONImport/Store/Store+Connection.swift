/// What the stages above the store ask of its connection, in the store's own terms.
extension Store {
    /// Runs `body` in a transaction scope of `kind` (a savepoint inside an open transaction).
    func transaction<T>(_ kind: TransactionKind = .write, _ body: () throws -> T) throws -> T {
        try connection.transaction(kind, body)
    }

    /// Whether a transaction is open (SQLite may roll one back by itself, after a full disk).
    var isInTransaction: Bool { connection.isInTransaction }

    /// The store as messages name it.
    var name: String { connection.name }

    /// A bookkeeping timestamp of the store's rows.
    enum Timestamp: String {
        case updatedAt = "_updated_at"
        case seenAt = "_seen_at"
    }

    /// Sets `timestamp` to `time` in `rows` (ascending, no repeats) of `entity`.
    func set(_ timestamp: Timestamp, of entity: EntityPlan, rows: [Int64], to time: Double) throws(StoreError) {
        try connection.setColumn(timestamp.rawValue, of: entity, rows: rows, to: .real(time))
    }

    /// A number that changes whenever another connection (another mapper, another process)
    /// commits to the store; this connection's own commits leave it alone.
    func externalCommitVersion() throws(StoreError) -> Int64 {
        try connection.dataVersion()
    }

    /// Writes the whole write-ahead log back into the store file and empties it; `false` when
    /// a reader or writer still uses it.
    func checkpointEmptyingWAL() throws(StoreError) -> Bool {
        try connection.checkpointEmptyingWAL()
    }
}
