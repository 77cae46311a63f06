/// When the clean-up pass runs (SPEC 2.5: at the end of every import and delete). It only runs
/// when something may have become an orphan; an operation that turns it off while something
/// may have records that in the store, so the next operation with clean-up on catches up.
extension Store {
    private static let pendingKey = "cleanupPending"

    /// Runs the clean-up pass if `isOn` and it can find anything (`mayHaveOrphans`, or an earlier
    /// operation skipped it); if off, remembers that it is pending. Call inside the operation's
    /// transaction.
    func cleanUp(isOn: Bool, mayHaveOrphans: Bool, deleter: Deleter, tracker: RowTracker) throws -> [Deletion] {
        guard isOn else {
            if mayHaveOrphans { try setCleanupPending(true) }
            return []
        }
        let isPending = try isCleanupPending()
        guard mayHaveOrphans || isPending else { return [] }
        let deletions = try CleanupPass(connection: connection, plan: plan).run(deleter, tracker: tracker)
        if isPending { try setCleanupPending(false) }
        return deletions
    }

    private func isCleanupPending() throws -> Bool {
        let rows = try connection.rows(
            "SELECT 1 FROM \(quote(StorageSchema.metadataTable)) WHERE \"key\" = ? AND \"value\" = '1'",
            [.text(Self.pendingKey)])
        return !rows.isEmpty
    }

    private func setCleanupPending(_ isPending: Bool) throws {
        try connection.run(
            "INSERT INTO \(quote(StorageSchema.metadataTable)) (\"key\", \"value\") VALUES (?, ?) "
                + "ON CONFLICT(\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
            [.text(Self.pendingKey), .text(isPending ? "1" : "0")])
    }
}
