/// When the clean-up pass runs (SPEC 2.5: at the end of every import and delete). It only runs
/// when something may have become an orphan; an operation that turns it off while something
/// may have records that in the store, so the next operation with clean-up on catches up.
extension Store {
    /// Runs the clean-up pass if `isOn` and it can find anything (`mayHaveOrphans`, or an earlier
    /// operation skipped it); if off, remembers that it is pending. Call inside the operation's
    /// transaction.
    func cleanUp(isOn: Bool, mayHaveOrphans: Bool, deleter: Deleter, tracker: RowTracker) throws -> [Deletion] {
        let engine = deleter.engine
        guard isOn else {
            if mayHaveOrphans { try engine.setCleanupPending(true) }
            return []
        }
        let isPending = try engine.isCleanupPending()
        guard mayHaveOrphans || isPending else { return [] }
        // The pass skipped earlier may have orphans in any tenant.
        if isPending { engine.reachEveryTenant() }
        let deletions = try CleanupPass(plan: plan).run(deleter, tracker: tracker)
        if isPending { try engine.setCleanupPending(false) }
        return deletions
    }
}
