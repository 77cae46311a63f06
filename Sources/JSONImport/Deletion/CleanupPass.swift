/// The clean-up pass (SPEC 2.5): keeps every row reachable from a root (a row of an entity
/// without `cleanup: orphans`) along forward links, and deletes the other rows of `orphans`
/// entities. Set-based: reachability spreads through the store's reached sets (see
/// ``DeletionEngine``) a frontier at a time, so chains collapse in one pass and rings of rows
/// that only link to each other are removed too. Back sides add no links, so they never keep
/// a row alive.
///
/// The unreachable rows are deleted through a ``Deleter``, with their own `onDelete` rules:
/// when a cascade deletes rows beyond them, reachability is computed again.
struct CleanupPass {
    let plan: ImportPlan

    /// Deletes every unreachable row of the `orphans` entities (reason `orphan`; rows their
    /// cascades reach, `cascade`), counting them in `tracker`.
    ///
    /// - Returns: the deleted rows that existed before the operation.
    /// - Throws: ``DeleteError`` when an orphan's `deny` relationship refuses, ``StoreError``.
    func run(_ deleter: Deleter, tracker: RowTracker) throws -> [Deletion] {
        var deletions: [Deletion] = []
        let followedCascades = deleter.followsCascades
        deleter.followsCascades = true
        defer { deleter.followsCascades = followedCascades }
        while true {
            try deleter.reset()
            guard try markUnreachable(deleter) > 0 else { break }
            let outcome = try deleter.apply(.orphan, tracker: tracker)
            deletions += outcome.deletions
            // Unreachable rows link to nothing reachable that their removal could orphan;
            // rows a cascade deleted beyond them might.
            guard outcome.cascaded > 0 else { break }
        }
        return deletions
    }

    /// Marks every row of the `orphans` entities that no root reaches.
    ///
    /// Reachability spreads a round at a time: the rows the last round reached are the frontier,
    /// and the rows their links reach that were not reached before make the next one.
    ///
    /// - Returns: how many rows were marked.
    func markUnreachable(_ deleter: Deleter) throws(StoreError) -> Int {
        let engine = deleter.engine
        let orphans = plan.entities.filter { $0.spec.cleanup == .orphans }
        guard !orphans.isEmpty else { return 0 }
        try engine.beginReachability(orphans)
        // The first frontier: everything roots link to.
        for link in plan.spec.links {
            let source = plan.entity(named: link.source)!
            let target = plan.entity(named: link.target)!
            guard target.spec.cleanup == .orphans, source.spec.cleanup != .orphans else { continue }
            try engine.reach(through: link, fromFrontier: false)
        }
        while true {
            var grew = false
            for entity in orphans {
                if try engine.advanceFrontier(of: entity) { grew = true }
            }
            guard grew else { break }
            for link in plan.spec.links {
                let source = plan.entity(named: link.source)!
                let target = plan.entity(named: link.target)!
                guard target.spec.cleanup == .orphans, source.spec.cleanup == .orphans else { continue }
                try engine.reach(through: link, fromFrontier: true)
            }
        }
        var marked = 0
        for entity in orphans {
            marked += try deleter.mark(entity, .unreachable)
        }
        return marked
    }
}
