/// What the Swift API keeps on a store's writer: validators, the open write scope, and the
/// changes committed but not yet handed to observers.
///
/// Lives in the ``Store`` and is only touched by the thread holding the store's write lock.
struct StoreHooks {
    /// Validation hooks by entity index (see ``Mapper/setValidator(for:_:)``).
    var validators: [Int: @Sendable (RecordFields) throws -> Void] = [:]
    /// How many writes are open: 1 inside the outer transaction, more inside savepoints.
    var writeDepth = 0
    /// Changes of the writes done so far in the open transaction.
    var pending = ChangeLog()
    /// Transactions committed since the lock was taken, in commit order, for observers.
    var committed: [StoreChanges] = []
    /// The observers registered on the mapper; changes are only collected when there are some.
    var observers: ObserverRegistry?

    var collectsChanges: Bool { observers?.isEmpty == false }
}

/// Write scopes that nest: the outermost is a transaction, inner ones are savepoints, so an
/// import or deletion run inside ``Mapper/write(_:)`` joins the block's transaction and a
/// failed one undoes only itself.
extension Store {
    /// Begins a write: `BEGIN IMMEDIATE`, or a savepoint when a write is already open.
    func beginWrite() throws(StoreError) {
        try connection.execute(hooks.writeDepth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT write")
        hooks.writeDepth += 1
    }

    /// Ends the innermost write, keeping its work; `changes` are what it did, for observers.
    /// Committing the outermost write queues every change it holds for delivery.
    func commitWrite(_ changes: ChangeLog? = nil) throws(StoreError) {
        precondition(hooks.writeDepth > 0, "commitWrite without beginWrite")
        if hooks.writeDepth > 1 {
            try connection.execute("RELEASE write")
            hooks.writeDepth -= 1
            if let changes { hooks.pending.merge(changes) }
            return
        }
        try connection.execute("COMMIT")
        hooks.writeDepth = 0
        if let changes { hooks.pending.merge(changes) }
        let done = hooks.pending.changes(in: plan)
        hooks.pending = ChangeLog()
        if !done.isEmpty { hooks.committed.append(done) }
    }

    /// Ends the innermost write, undoing its work (the whole transaction for the outermost).
    func rollBackWrite() {
        guard hooks.writeDepth > 0 else { return }
        hooks.writeDepth -= 1
        if hooks.writeDepth == 0 {
            hooks.pending = ChangeLog()
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
        } else {
            try? connection.execute("ROLLBACK TO write; RELEASE write")
        }
    }

    /// Runs `body` as one write scope, committed with the changes it returns (for observers) or
    /// undone when it throws.
    func recordedWrite(_ body: () throws -> ChangeLog?) throws {
        try beginWrite()
        do {
            try commitWrite(try body())
        } catch {
            rollBackWrite()
            throw error
        }
    }

    /// Runs `body` as one write scope: committed when it returns, undone when it throws.
    func write<T>(_ body: () throws -> T) throws -> T {
        try beginWrite()
        do {
            let result = try body()
            try commitWrite()
            return result
        } catch {
            rollBackWrite()
            throw error
        }
    }
}
