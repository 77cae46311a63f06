/// What the stages above the store ask of its database, in the store's own terms.
extension Store {
    /// Runs `body` in a transaction scope of `kind` (a savepoint inside an open transaction).
    func transaction<T>(_ kind: TransactionKind = .write, _ body: () throws -> T) throws -> T {
        try engine.transaction(kind, body)
    }

    /// Runs `body` in a transaction scope of `kind`, kept or undone as its outcome says.
    func transaction<T>(_ kind: TransactionKind, deciding body: () throws -> ScopeOutcome<T>) throws -> T {
        try engine.transaction(kind, deciding: body)
    }

    /// Whether a transaction is open (SQLite may roll one back by itself, after a full disk).
    var isInTransaction: Bool { engine.isInTransaction }

    /// The store as messages name it.
    var name: String { engine.name }

    /// A bookkeeping timestamp of the store's rows.
    enum Timestamp: String {
        case updatedAt = "_updated_at"
        case seenAt = "_seen_at"
    }

    /// Sets `timestamp` to `time` in `rows` (ascending, no repeats) of `entity`.
    func set(_ timestamp: Timestamp, of entity: EntityPlan, rows: [Int64], to time: Double) throws(StoreError) {
        try engine.setColumn(timestamp.rawValue, of: entity, rows: rows, to: .real(time))
    }

    /// Whether the store holds writes back for a hand-over (see ``StoreEngine/holdsWrites``).
    var holdsWrites: Bool { engine.holdsWrites }

    /// Updated `rows` of `entity` may take `_updated_at` `time` with their held writes (see
    /// ``StoreEngine/stampUpdated(of:rows:at:)``).
    func stampUpdated(of entity: EntityPlan, rows: [Int64], at time: Double) throws(StoreError) {
        try engine.stampUpdated(of: entity, rows: rows, at: .real(time))
    }

    /// Every row of `entity` an import contained has had its `_seen_at` set to `time`.
    func finishSeen(of entity: EntityPlan, at time: Double) throws(StoreError) {
        try engine.finishSeen(of: entity, at: .real(time))
    }

    /// A number that changes whenever another connection (another mapper, another process)
    /// commits to the store; this connection's own commits leave it alone.
    func externalCommitVersion() throws(StoreError) -> Int64 {
        try engine.externalCommitVersion()
    }

    /// A deletion engine for one deletion stage.
    func makeDeletionEngine() -> any DeletionEngine { engine.makeDeletionEngine(plan: plan) }
}
