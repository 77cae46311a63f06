/// Deletes sets of rows with their relationships' `onDelete` rules (SPEC 2.5), set-based:
/// the rows to delete are marked in the store's ``DeletionEngine``, cascades grow the marks a
/// step at a time until nothing new is reached, `deny` is checked against them, and each
/// entity's marked rows go in one step, after the links' `ON DELETE` actions (link rows
/// deleted, link columns cleared), which the engine applies itself.
///
/// Prune, `delete`, eviction and the clean-up pass all go through one `Deleter`:
///
/// ```swift
/// let deleter = Deleter(store: store)
/// try deleter.reset()
/// try deleter.mark(user, .query(compiled))
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
    let engine: DeletionEngine
    let plan: ImportPlan
    /// Follow `cascade` rules; off for `delete --no-cascade`, which deletes the marked rows only
    /// (their links are dropped, `deny` still refuses).
    var followsCascades = true
    /// Read the primary keys of deleted rows, for the report's `deletions`.
    var readsKeys = false
    /// Rows marked per entity (by index).
    var counts: [Int]

    init(store: Store) {
        self.engine = store.makeDeletionEngine()
        self.plan = store.plan
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

    /// Empties the marks, creating their storage on first use.
    func reset() throws(StoreError) {
        try engine.resetMarks()
        counts = Array(repeating: 0, count: plan.entities.count)
    }

    /// Marks the rows of `entity` that `selection` picks for deletion.
    ///
    /// - Returns: how many rows were newly marked.
    @discardableResult
    func mark(_ entity: EntityPlan, _ selection: DeletionSelection) throws(StoreError) -> Int {
        let added = try engine.mark(entity, selection)
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
        let (rows, keyValues) = try engine.deleteMarked(entity, cascaded: cascaded, readingKeys: readsKeys)
        let existed = tracker.removed(entity.index, rows, asOrphans: reason == .orphan && !cascaded)
        if readsKeys {
            for (i, key) in keyValues.enumerated() where existed[i] {
                deletions.append(Deletion(entity: entity.spec.name, key: key, reason: cascaded ? .cascade : reason))
            }
        }
        return rows.count
    }
}
