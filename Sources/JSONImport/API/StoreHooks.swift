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
    /// SQLite's foreign-key enforcement is off for the open transaction (see
    /// ``Store/beginWrite(checkingForeignKeys:)``).
    var foreignKeysSetAside = false
    /// An import is running: its validators and progress handler run on the thread holding the
    /// write lock, and must not write (the import's caches of what the store holds would go
    /// stale, and without foreign-key enforcement nothing would catch it).
    var isImporting = false

    var collectsChanges: Bool { observers?.isEmpty == false }
}

/// Write scopes that nest: the outermost is a transaction, inner ones are savepoints, so an
/// import or deletion run inside ``Mapper/write(_:)`` joins the block's transaction and a
/// failed one undoes only itself.
extension Store {
    /// Begins a write: `BEGIN IMMEDIATE`, or a savepoint when a write is already open.
    ///
    /// - Parameter checkingForeignKeys: `false` runs a new transaction without SQLite's
    ///   foreign-key enforcement, for an import, which links only rows it has just read or
    ///   written in the same transaction and whose deletions apply the `ON DELETE` actions
    ///   themselves (see ``Deleter``). Enforcement costs every link insert a lookup of both rows
    ///   it joins; it is back on when the transaction ends. A write nested in an open one keeps
    ///   that one's setting (the pragma cannot change inside a transaction).
    func beginWrite(checkingForeignKeys: Bool = true) throws(StoreError) {
        guard !hooks.isImporting else {
            throw StoreError(
                .writeDuringImport,
                "cannot write through the mapper while an import is running (from a validator or progress handler)")
        }
        if hooks.scopes.isEmpty {
            if checkingForeignKeys {
                restoreForeignKeys()
            } else {
                try connection.execute("PRAGMA foreign_keys = OFF")
                hooks.foreignKeysSetAside = true
            }
        }
        do {
            try connection.execute(hooks.scopes.isEmpty ? "BEGIN IMMEDIATE" : "SAVEPOINT write")
        } catch {
            if hooks.scopes.isEmpty { restoreForeignKeys() }
            throw error
        }
        hooks.scopes.append(ChangeLog())
    }

    /// Turns SQLite's foreign-key enforcement back on after a transaction that ran without it
    /// (outside a transaction only: the pragma does nothing inside one, so a transaction a failed
    /// `ROLLBACK` left open keeps it off until the next write begins).
    private func restoreForeignKeys() {
        guard hooks.foreignKeysSetAside, !connection.isInTransaction else { return }
        try? connection.execute("PRAGMA foreign_keys = ON")
        hooks.foreignKeysSetAside = false
    }

    /// Ends the innermost write, keeping its work; `changes` are what it did, for observers.
    /// Committing the outermost write queues every change it holds for delivery.
    func commitWrite(_ changes: ChangeLog? = nil) throws(StoreError) {
        precondition(!hooks.scopes.isEmpty, "commitWrite without beginWrite")
        let isOutermost = hooks.scopes.count == 1
        try connection.execute(isOutermost ? "COMMIT" : "RELEASE write")
        if isOutermost { restoreForeignKeys() }
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
            restoreForeignKeys()
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
