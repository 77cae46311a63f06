/// Write scopes that nest, on the connection's one transaction mechanism: the outermost is a
/// transaction, inner ones are savepoints, so an import or deletion run inside
/// ``Mapper/write(_:)`` joins the block's transaction and a failed one undoes only itself.
/// Each scope collects what it changed, for change observers: a kept inner scope's changes
/// join the enclosing scope's, and committing the outermost queues them for delivery.
extension Store {
    /// What a write scope's body hands back: its value, what it changed (for observers), and
    /// whether its work is kept (`false` undoes it without an error, as a dry run does).
    struct WriteOutcome<T> {
        var value: T
        var changes: ChangeLog?
        var keepsWork = true
    }

    /// Runs `body` as one write scope, kept when it returns and undone when it throws.
    func write<T>(_ body: () throws -> T) throws -> T {
        try write(deciding: { WriteOutcome(value: try body()) })
    }

    /// Runs `body` as one write scope, kept or undone as its outcome says, undone when it throws.
    ///
    /// - Parameter checkingForeignKeys: `false` runs a new transaction without SQLite's
    ///   foreign-key enforcement, for an import, which links only rows it has just read or
    ///   written in the same transaction and whose deletions apply the `ON DELETE` actions
    ///   themselves (see ``Deleter``). Enforcement costs every link insert a lookup of both rows
    ///   it joins; it is back on when the transaction ends. A write nested in an open one keeps
    ///   that one's setting (the pragma cannot change inside a transaction).
    func write<T>(checkingForeignKeys: Bool = true, deciding body: () throws -> WriteOutcome<T>) throws -> T {
        guard !writeState.isImporting else {
            throw StoreError(
                .writeDuringImport,
                "cannot write through the mapper while an import is running (from a validator or progress handler)")
        }
        let isOutermost = writeState.scopes.isEmpty
        if isOutermost {
            if checkingForeignKeys {
                restoreForeignKeys()
            } else {
                try engine.enforceForeignKeys(false)
                writeState.foreignKeysSetAside = true
            }
        }
        defer { if isOutermost { restoreForeignKeys() } }
        writeState.scopes.append(ChangeLog())
        var kept: ChangeLog?
        let value: T
        do {
            value = try engine.transaction(.write) {
                let outcome = try body()
                if outcome.keepsWork {
                    kept = writeState.scopes[writeState.scopes.count - 1]
                    if let changes = outcome.changes { kept!.merge(changes) }
                }
                return ScopeOutcome(value: outcome.value, keepsWork: outcome.keepsWork)
            }
        } catch {
            writeState.scopes.removeLast()
            throw error
        }
        writeState.scopes.removeLast()
        if let kept {
            if isOutermost {
                let done = kept.changes(in: plan)
                if !done.isEmpty { writeState.committed.append(done) }
            } else {
                writeState.scopes[writeState.scopes.count - 1].merge(kept)
            }
        }
        return value
    }

    /// Turns SQLite's foreign-key enforcement back on after a transaction that ran without it
    /// (outside a transaction only: the pragma does nothing inside one, so a transaction a failed
    /// `ROLLBACK` left open keeps it off until the next write begins).
    private func restoreForeignKeys() {
        guard writeState.foreignKeysSetAside, !engine.isInTransaction else { return }
        try? engine.enforceForeignKeys(true)
        writeState.foreignKeysSetAside = false
    }
}
