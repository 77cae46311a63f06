/// One `delete` or `clean` (SPEC 2.5, 4.1): one transaction that marks rows, deletes them with
/// their `onDelete` rules, runs the clean-up pass, advances `_updated_at` of the neighbours
/// whose links changed, and fills the report. Any throw rolls all of it back.
struct DeleteRun {
    let store: Store
    let now: Double
    let explain: Bool

    /// Deletes the rows of `entity` that `query` selects; `tenants`, when given, are the only
    /// tenants of distributed entities (SPEC 6) they are in (a query narrowed to keys).
    func delete(_ entity: EntityPlan, _ query: CompiledQuery, tenants: Set<StoredValue>? = nil, options: DeleteOptions) throws -> ImportReport {
        var report = ImportReport(entity: entity.spec.name)
        report.operation = .delete
        return try run(report) { deleter, tracker in
            if let tenants { deleter.engine.keep(toTenants: tenants) }
            deleter.followsCascades = options.cascade
            try deleter.mark(entity, .query(query))
            let outcome = try deleter.apply(.delete, tracker: tracker)
            var deletions = outcome.deletions
            deletions += try store.cleanUp(
                isOn: options.cleanup, mayHaveOrphans: outcome.deleted > 0, deleter: deleter, tracker: tracker)
            return deletions
        }
    }

    /// Evicts rows of `entities` not seen since `cutoff` (seconds since 1970) when given, then
    /// runs the clean-up pass.
    func clean(evicting entities: [EntityPlan], seenBefore cutoff: Double?) throws -> ImportReport {
        var report = ImportReport(entity: nil)
        report.operation = .clean
        return try run(report) { deleter, tracker in
            var deletions: [Deletion] = []
            if let cutoff {
                try deleter.reset()
                for entity in entities where entity.spec.hasTimestamps {
                    try deleter.mark(entity, .seenBefore(cutoff))
                }
                deletions += try deleter.apply(.evict, tracker: tracker).deletions
            }
            deletions += try store.cleanUp(isOn: true, mayHaveOrphans: true, deleter: deleter, tracker: tracker)
            return deletions
        }
    }

    /// Runs `body` in a write transaction with a fresh deleter and tracker, then writes the
    /// bookkeeping and fills `report` from the tracker.
    private func run(
        _ report: ImportReport, _ body: (Deleter, RowTracker) throws -> [Deletion]
    ) throws -> ImportReport {
        let deleter = Deleter(store: store)
        deleter.readsKeys = explain || store.writeState.collectsChanges
        let tracker = RowTracker(keyIsRowID: store.plan.entities.map(\.keyIsRowID))
        var report = report
        try store.write(deciding: {
            try deleter.reset()
            let deletions = try body(deleter, tracker)
            try writeUpdatedAt(tracker, deleter.engine)
            report.addCounts(from: tracker, plan: store.plan)
            if explain { report.deletions = deletions }
            return Store.WriteOutcome(value: (), changes: try store.changeLog(tracker, deletions: deletions))
        })
        return report
    }

    /// `_updated_at` of the rows whose links the deletion changed.
    private func writeUpdatedAt(_ tracker: RowTracker, _ engine: DeletionEngine) throws(StoreError) {
        for entity in store.plan.entities where entity.spec.hasTimestamps {
            try tracker.rows(of: entity.index, where: { status, _ in status == .updated }) { (rows) throws(StoreError) in
                try engine.setUpdatedAt(of: entity, rows: rows, to: now)
            }
        }
    }
}
