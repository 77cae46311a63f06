/// A deletion that `onDelete: deny` refused (SPEC 2.5): a row to delete still has links through
/// a `deny` relationship to rows that would stay. The whole operation was rolled back; the
/// store is unchanged. The command line reports it as invalid input (exit 1).
///
/// ```swift
/// do {
///     try mapper.delete("User", ids: ["1"])
/// } catch let error as DeleteError {
///     print(error)   // cannot delete User 1: Repo.owner links 2 rows (onDelete: deny on User.repos)
/// }
/// ```
public struct DeleteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable error codes; callers can `catch` a specific one.
    public enum Code: String, Sendable, Hashable {
        /// A `deny` relationship refused the deletion.
        case denied
    }

    /// What went wrong; always ``Code/denied`` for now.
    public let code: Code
    /// The first refusals found (at most ten), in entity and row order.
    public let blocked: [BlockedRow]
    /// How many (row, relationship) refusals there are in all.
    public let blockedCount: Int
    /// Why the refused rows were to be deleted.
    public let reason: Deletion.Reason

    init(blocked: [BlockedRow], blockedCount: Int, reason: Deletion.Reason) {
        self.code = .denied
        self.blocked = blocked
        self.blockedCount = blockedCount
        self.reason = reason
    }

    /// One row that cannot be deleted, and the links that hold it.
    public struct BlockedRow: Sendable, Hashable {
        /// The entity of the row that cannot be deleted.
        public let entity: String
        /// The row's primary key (empty for an owned row).
        public let key: [StoredValue]
        /// The `deny` relationship, as `Entity.relationship`.
        public let relationship: String
        /// The link as the linked rows see it (`Repo.owner` for `User.repos`).
        public let linkedThrough: String
        /// How many rows it links to.
        public let count: Int
    }

    /// One line per refusal, plus a count of those not listed.
    public var lines: [String] {
        let verb: String
        switch reason {
        case .delete, .cascade, .tombstone: verb = "delete"
        case .prune: verb = "prune"
        case .evict: verb = "evict"
        case .orphan: verb = "remove orphan"
        }
        var lines = blocked.map { row in
            let what: String
            switch row.key.count {
            case 0: what = "\(row.entity) (owned row)"
            case 1: what = "\(row.entity) \(row.key[0])"
            default: what = "\(row.entity) (\(row.key.map(\.description).joined(separator: ", ")))"
            }
            let rows = row.count == 1 ? "1 row" : "\(row.count) rows"
            return "cannot \(verb) \(what): \(row.linkedThrough) links \(rows) (onDelete: deny on \(row.relationship))"
        }
        if blockedCount > blocked.count { lines.append("… and \(blockedCount - blocked.count) more refused by onDelete: deny") }
        return lines
    }

    /// The refusals, one per line.
    public var message: String { lines.joined(separator: "\n") }

    /// The refusals, one per line (the same as ``message``).
    public var description: String { message }
}
