/// What the Swift API keeps on a store's writer: validators, the open write scope, and the
/// changes committed but not yet handed to observers.
///
/// Lives in the ``Store`` and is only touched by the thread holding the store's write lock.
struct StoreHooks {
    /// Validation hooks by entity index (see ``Mapper/setValidator(for:_:)``).
    var validators: [Int: @Sendable (RecordFields) throws -> Void] = [:]
    /// One change log per open write scope, outermost first: a scope's changes join the
    /// enclosing scope's when it is kept, and are dropped with it when it is undone.
    var scopes: [ChangeLog] = []
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
        try connection.execute(hooks.scopes.isEmpty ? "BEGIN IMMEDIATE" : "SAVEPOINT write")
        hooks.scopes.append(ChangeLog())
    }

    /// Ends the innermost write, keeping its work; `changes` are what it did, for observers.
    /// Committing the outermost write queues every change it holds for delivery.
    func commitWrite(_ changes: ChangeLog? = nil) throws(StoreError) {
        precondition(!hooks.scopes.isEmpty, "commitWrite without beginWrite")
        let isOutermost = hooks.scopes.count == 1
        try connection.execute(isOutermost ? "COMMIT" : "RELEASE write")
        var log = hooks.scopes.removeLast()
        if let changes { log.merge(changes) }
        if isOutermost {
            let done = log.changes(in: plan)
            if !done.isEmpty { hooks.committed.append(done) }
        } else {
            hooks.scopes[hooks.scopes.count - 1].merge(log)
        }
    }

    /// Ends the innermost write, undoing its work (the whole transaction for the outermost).
    func rollBackWrite() {
        guard !hooks.scopes.isEmpty else { return }
        hooks.scopes.removeLast()
        if hooks.scopes.isEmpty {
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
