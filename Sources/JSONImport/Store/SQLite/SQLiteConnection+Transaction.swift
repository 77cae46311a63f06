/// Whether a transaction scope reads only or writes.
enum TransactionKind {
    /// A deferred `BEGIN`: every statement in it sees the same snapshot of the store while
    /// other connections write (WAL mode).
    case read
    /// `BEGIN IMMEDIATE`: the write lock is taken at once, so the transaction never fails
    /// half-way for want of it.
    case write
}

/// What a transaction scope's body hands back: its value, and whether its work is kept
/// (`false` undoes it without an error, as a dry run does).
struct ScopeOutcome<T> {
    var value: T
    var keepsWork = true
}

/// Transactions, one closure-scoped mechanism for every caller: the outermost scope is a
/// transaction; a write scope inside an open transaction is a savepoint, so a failed inner
/// scope (a record skipped under `onError: skip`, an operation inside `Mapper.write`) undoes
/// only itself; a read scope inside one simply runs in it. A throw undoes the scope and is
/// rethrown as it was thrown: a failure while undoing (SQLite may already have rolled the
/// whole transaction back, after a full disk) never replaces it.
extension SQLiteConnection {
    /// Runs `body` in a scope of `kind`, keeping its work when it returns.
    func transaction<T>(_ kind: TransactionKind = .write, _ body: () throws -> T) throws -> T {
        try transaction(kind, deciding: { ScopeOutcome(value: try body()) })
    }

    /// Runs `body` in a scope of `kind`, keeping its work when it returns an outcome that says
    /// so and undoing it otherwise.
    func transaction<T>(_ kind: TransactionKind, deciding body: () throws -> ScopeOutcome<T>) throws -> T {
        guard !isInTransaction else {
            return kind == .read ? try body().value : try savepoint(body)
        }
        try execute(kind == .write ? "BEGIN IMMEDIATE" : "BEGIN")
        let outcome: ScopeOutcome<T>
        do {
            outcome = try body()
            if outcome.keepsWork { try execute("COMMIT") }
        } catch {
            rollBack()
            throw error
        }
        if !outcome.keepsWork { rollBack() }
        return outcome.value
    }

    private func savepoint<T>(_ body: () throws -> ScopeOutcome<T>) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "scope_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        let outcome: ScopeOutcome<T>
        do {
            outcome = try body()
            if outcome.keepsWork { try execute("RELEASE \(name)") }
        } catch {
            rollBack(to: name)
            throw error
        }
        if !outcome.keepsWork { rollBack(to: name) }
        return outcome.value
    }

    private func rollBack() {
        if isInTransaction { try? execute("ROLLBACK") }
    }

    private func rollBack(to savepoint: String) {
        if isInTransaction { try? execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)") }
    }
}
