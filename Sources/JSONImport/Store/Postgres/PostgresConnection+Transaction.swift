internal import CLibPQ
import Foundation

/// Transactions. Writers of one store serialize on a transaction-scoped advisory lock keyed by
/// the store's schema, so importers on any host take turns as SQLite's `BEGIN IMMEDIATE` makes
/// them; readers take a snapshot and never wait.
extension PostgresConnection {
    /// The class of the store's advisory locks (`'JSON'` in ASCII): the first key of
    /// `pg_advisory_xact_lock(int4, int4)`, so the store's locks stay apart from any other
    /// application's.
    static let lockClass: Int32 = 0x4A53_4F4E

    /// The second key of the store's writer lock: a 32-bit FNV-1a hash of the schema's name in
    /// UTF-8, the same on every host and valid before the schema exists. Two schemas with one
    /// hash only wait for each other; advisory locks are per database, so stores in
    /// different databases never do.
    static func lockKey(schema: String) -> Int32 {
        var hash: UInt32 = 2_166_136_261
        for byte in schema.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return Int32(bitPattern: hash)
    }

    /// Begins a write transaction holding the store's writer lock, waiting up to `lockTimeout`
    /// seconds for another writer to finish (0: not at all). The timeout also bounds every
    /// lock a statement of the transaction waits for.
    ///
    /// Its statements run on generic plans (``writePlans``): planned once per statement, not
    /// again for each set of ids.
    ///
    /// - Throws: ``StoreError`` `busy` when the lock is not granted in time (nothing is left
    ///   open), or the error of a failed connection.
    func beginWrite(lockTimeout: Double) throws(StoreError) {
        precondition(!isInTransaction, "beginWrite inside a transaction; nested writes are savepoints")
        let key = "\(Self.lockClass), \(Self.lockKey(schema: schema))"
        let waits = lockTimeout > 0
        let lock: String
        if waits {
            let milliseconds = Int(min((lockTimeout * 1000).rounded(.up), Double(Int32.max)))
            lock = "SET LOCAL lock_timeout = \(milliseconds); SELECT pg_advisory_xact_lock(\(key))"
        } else {
            lock = "SELECT pg_try_advisory_xact_lock(\(key))"
        }
        let busy = StoreError.busy(store: name, timeout: lockTimeout, sql: lock, operation: "starting a transaction")
        do throws(StoreError) {
            if waits {
                try execute("BEGIN; \(Self.writePlans); " + lock)
            } else {
                try execute("BEGIN; \(Self.writePlans)")
                guard try rows(lock) == [[.integer(1)]] else { throw busy }
            }
        } catch {
            try? rollback()
            throw error.code == .busy ? busy : error
        }
    }

    /// How a write transaction's statements are planned: once each, with no look at their
    /// parameters. The row path's reads and writes name sets of row ids (`= ANY($1)`, ranges of
    /// ids) whose size varies with every batch; planned again for each (PostgreSQL's default
    /// for a statement's first five runs, and for good while the plans it makes cost less),
    /// their planning was 118 ms of the server's 927 ms in a re-import of the benchmark's
    /// payload, and 30 ms on generic plans, which find the rows through the tables' indexes
    /// whatever the number of ids. Reads outside imports (`query`, `export`) keep the server's
    /// setting.
    static let writePlans = "SET LOCAL plan_cache_mode = force_generic_plan"

    /// Begins a read transaction: one snapshot of the store, as of its first statement, for
    /// every statement in it; it takes no lock and writes nothing.
    func beginRead() throws(StoreError) {
        try execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    }

    /// Commits the open transaction.
    ///
    /// - Throws: ``StoreError`` `postgres` when a statement in it had failed: the server rolled
    ///   it back instead, and nothing of it was kept.
    func commit() throws(StoreError) {
        try sendHeldCopies()
        let result = try check(PQexec(handle, "COMMIT"), sql: "COMMIT")
        guard result.commandStatus != "ROLLBACK" else {
            throw StoreError(
                .postgres, "store '\(name)': the transaction was rolled back, a statement in it had failed", sql: "COMMIT")
        }
    }

    /// Rolls the open transaction back; does nothing when none is open.
    func rollback() throws(StoreError) {
        try execute("ROLLBACK")
    }

    /// Starts a nested scope inside the open transaction, undone alone by
    /// ``rollbackTo(_:)``.
    func savepoint(_ name: String) throws(StoreError) {
        try execute("SAVEPOINT \(quote(name))")
    }

    /// Ends a nested scope, keeping its work in the transaction.
    func release(_ name: String) throws(StoreError) {
        try execute("RELEASE SAVEPOINT \(quote(name))")
    }

    /// Undoes the work since savepoint `name`, which stays open; a failed transaction
    /// becomes usable again.
    func rollbackTo(_ name: String) throws(StoreError) {
        deferredIndexesRolledBackToSavepoint()
        try execute("ROLLBACK TO SAVEPOINT \(quote(name))")
    }
}
