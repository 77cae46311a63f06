/// Deletes sets of rows with their relationships' `onDelete` rules (SPEC 2.5), set-based:
/// the rows to delete are marked in one temporary table of row ids per entity, cascades grow
/// those tables a step at a time until nothing new is reached, `deny` is checked against them,
/// and each entity's rows go in one `DELETE … WHERE rowid IN (SELECT …)`, after the links'
/// `ON DELETE` actions (link rows deleted, link columns cleared), which it applies itself.
///
/// Prune, `delete`, eviction and the clean-up pass all go through one `Deleter`:
///
/// ```swift
/// let deleter = Deleter(connection: connection, plan: plan)
/// try deleter.reset()
/// try deleter.mark(user, "SELECT \"id\" FROM \"User\" WHERE \"id\" IN (1, 2)")
/// let outcome = try deleter.apply(.delete, tracker: tracker)
/// ```
///
/// Counting (SPEC 2.2): a deleted row counts under `deleted` when it existed before the
/// operation (a row the same import created and then deleted counts nowhere). A row that
/// survives but loses a link because its neighbour was deleted counts as `updated` when it
/// reads that link: always when it is the link's source (its forward relationship lists the
/// neighbour), and as the target only when the link has a back side. Rows linked only through
/// a forward relationship without a back side, seen from its target, are not touched.
final class Deleter {
    let connection: SQLiteConnection
    let plan: ImportPlan
    /// Follow `cascade` rules; off for `delete --no-cascade`, which deletes the marked rows only
    /// (their links are dropped, `deny` still refuses).
    var followsCascades = true
    /// Read the primary keys of deleted rows, for the report's `deletions`.
    var readsKeys = false
    /// Rows marked per entity (by index).
    var counts: [Int]

    init(connection: SQLiteConnection, plan: ImportPlan) {
        self.connection = connection
        self.plan = plan
        self.counts = Array(repeating: 0, count: plan.entities.count)
    }

    /// What one `apply` did.
    struct Outcome {
        /// Deleted rows that existed before the operation, in deletion order (keys only when
        /// `readsKeys`).
        var deletions: [Deletion] = []
        /// Rows deleted because a cascade reached them, beyond the marked ones.
        var cascaded = 0
        /// Rows deleted in all.
        var deleted = 0
    }

    /// The temporary table of rows to delete from `entity`: `id`, and `round`, 0 for rows the
    /// operation marked and n for rows n cascade steps away from them.
    func markTable(_ entity: EntityPlan) -> String { quote("_delete_\(entity.index)") }

    /// Empties every mark table, creating them on first use.
    func reset() throws(StoreError) {
        for entity in plan.entities {
            let table = markTable(entity)
            try connection.execute(
                "CREATE TEMP TABLE IF NOT EXISTS \(table) (id INTEGER PRIMARY KEY, round INTEGER NOT NULL); DELETE FROM \(table)")
        }
        counts = Array(repeating: 0, count: plan.entities.count)
    }

    /// Marks the rows of `entity` that `select` returns (one column of row ids) for deletion.
    ///
    /// - Returns: how many rows were newly marked.
    @discardableResult
    func mark(_ entity: EntityPlan, _ select: String, _ parameters: [StoredValue] = []) throws(StoreError) -> Int {
        try connection.run("INSERT OR IGNORE INTO \(markTable(entity)) (id, round) SELECT *, 0 FROM (\(select))", parameters)
        let added = connection.changes
        counts[entity.index] += added
        return added
    }

    /// Deletes the marked rows with their `onDelete` rules: cascades first, then the `deny`
    /// check (nothing is deleted when it refuses), then the neighbours' counts, then the rows.
    ///
    /// - Parameters:
    ///   - reason: why the marked rows go; rows reached by cascades get `cascade`.
    ///   - tracker: the operation's counts; deleted rows leave it, neighbours become `updated`.
    /// - Throws: ``DeleteError`` when `deny` refuses, ``StoreError`` for store failures.
    func apply(_ reason: Deletion.Reason, tracker: RowTracker) throws -> Outcome {
        var outcome = Outcome()
        guard counts.contains(where: { $0 > 0 }) else { return outcome }
        if followsCascades { outcome.cascaded = try markCascades() }
        try checkDenials(reason)
        try touchNeighbours(tracker)
        for entity in plan.entities where counts[entity.index] > 0 {
            outcome.deleted += try delete(entity, cascaded: false, reason, tracker, &outcome.deletions)
            if followsCascades {
                outcome.deleted += try delete(entity, cascaded: true, reason, tracker, &outcome.deletions)
            }
        }
        return outcome
    }

    /// Deletes the marked rows of `entity` of one kind (marked, or reached by cascades).
    private func delete(
        _ entity: EntityPlan, cascaded: Bool, _ reason: Deletion.Reason, _ tracker: RowTracker,
        _ deletions: inout [Deletion]
    ) throws(StoreError) -> Int {
        let keys = readsKeys ? entity.spec.primaryKey.map(quote) : []
        let marked = "SELECT id FROM \(markTable(entity)) WHERE round \(cascaded ? ">" : "=") 0"
        try dropLinks(to: entity, from: marked)
        let statement = try connection.statement(
            "DELETE FROM \(entity.table) WHERE \(entity.rowID) IN (\(marked)) RETURNING "
                + ([entity.rowID] + keys).joined(separator: ", "))
        var rows: [Int64] = []
        var keyValues: [[StoredValue]] = []
        while try statement.step() {
            rows.append(statement.int64(at: 0))
            if readsKeys { keyValues.append((0..<keys.count).map { statement.value(at: 1 + $0) }) }
        }
        let existed = tracker.removed(entity.index, rows, asOrphans: reason == .orphan && !cascaded)
        if readsKeys {
            for (i, key) in keyValues.enumerated() where existed[i] {
                deletions.append(Deletion(entity: entity.spec.name, key: key, reason: cascaded ? .cascade : reason))
            }
        }
        return rows.count
    }

    /// Applies the `ON DELETE` actions of the stored links to the rows of `entity` that `rows`
    /// selects, as SQLite's foreign-key enforcement would: their link-table rows go, foreign-key
    /// columns pointing at them are cleared. Imports run without that enforcement (see
    /// ``Store/write(checkingForeignKeys:deciding:)``), so a deletion never leaves it to SQLite.
    private func dropLinks(to entity: EntityPlan, from rows: String) throws(StoreError) {
        let name = entity.spec.name
        for link in plan.spec.links {
            switch link.storage {
            case .linkTable(let table):
                for (column, end) in [("source", link.source), ("target", link.target)] where end == name {
                    try connection.execute("DELETE FROM \(quote(table)) WHERE \(quote(column)) IN (\(rows))")
                }
            case .foreignKey(let table, let column, let onSource, _):
                guard (onSource ? link.target : link.source) == name else { continue }
                try connection.execute("UPDATE \(quote(table)) SET \(quote(column)) = NULL WHERE \(quote(column)) IN (\(rows))")
            }
        }
    }

    /// The primary key of `row` (empty for an owned entity).
    func key(of entity: EntityPlan, row: Int64) throws(StoreError) -> [StoredValue] {
        guard !entity.spec.isOwned else { return [] }
        let columns = entity.spec.primaryKey.map(quote).joined(separator: ", ")
        let found = try connection.rows(
            "SELECT \(columns) FROM \(entity.table) WHERE \(entity.rowID) = ?", [.integer(row)])
        return found.first ?? []
    }
}
