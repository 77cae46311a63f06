/// The clean-up pass (SPEC 2.5): keeps every row reachable from a root (a row of an entity
/// without `cleanup: orphans`) along forward links, and deletes the other rows of `orphans`
/// entities. Set-based: reachability spreads through temporary tables a frontier at a time,
/// so chains collapse in one pass and rings of rows that only link to each other are removed
/// too. Back sides add no links, so they never keep a row alive.
///
/// The unreachable rows are deleted through a ``Deleter``, with their own `onDelete` rules:
/// when a cascade deletes rows beyond them, reachability is computed again.
struct CleanupPass {
    let connection: SQLiteConnection
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
    /// and the rows their links reach that were not reached before make the next one. Two
    /// frontier tables per entity take turns, so each row is written once to a frontier and once
    /// to the reached set.
    ///
    /// - Returns: how many rows were marked.
    func markUnreachable(_ deleter: Deleter) throws(StoreError) -> Int {
        let orphans = plan.entities.filter { $0.spec.cleanup == .orphans }
        guard !orphans.isEmpty else { return 0 }
        // The reached sets can hold every row id of a large store; past a page cache the size
        // of the store's (8 MB), they go to SQLite's temporary file. Caching them whole (up to
        // 128 MB) made the pass no faster on 2,000,000 rows, and an import of 300,000 users
        // that dropped repositories peaked 20 MB higher.
        try connection.execute("PRAGMA temp.cache_size = -\(SQLiteConnection.pageCacheKB)")
        var front: [Int: String] = [:]
        var next: [Int: String] = [:]
        for entity in orphans {
            for name in ["reach", "a", "b"] {
                try connection.execute(
                    "CREATE TEMP TABLE IF NOT EXISTS \(table(name, entity)) (id INTEGER PRIMARY KEY); DELETE FROM \(table(name, entity))")
            }
            front[entity.index] = table("a", entity)
            next[entity.index] = table("b", entity)
        }
        // The first frontier: everything roots link to.
        for link in plan.spec.links {
            let source = plan.entity(named: link.source)!
            let target = plan.entity(named: link.target)!
            guard target.spec.cleanup == .orphans, source.spec.cleanup != .orphans else { continue }
            try connection.execute("INSERT OR IGNORE INTO \(next[target.index]!) " + targets(of: link, from: nil))
        }
        while true {
            var grew = false
            for entity in orphans {
                let index = entity.index
                try connection.execute("INSERT OR IGNORE INTO \(table("reach", entity)) SELECT id FROM \(next[index]!)")
                if connection.changes > 0 { grew = true }
                try connection.execute("DELETE FROM \(front[index]!)")
                swap(&front[index], &next[index])
            }
            guard grew else { break }
            for link in plan.spec.links {
                let source = plan.entity(named: link.source)!
                let target = plan.entity(named: link.target)!
                guard target.spec.cleanup == .orphans, source.spec.cleanup == .orphans else { continue }
                try connection.execute(
                    "INSERT OR IGNORE INTO \(next[target.index]!) SELECT id FROM ("
                        + targets(of: link, from: front[source.index]!)
                        + ") WHERE id NOT IN (SELECT id FROM \(table("reach", target)))")
            }
        }
        var marked = 0
        for entity in orphans {
            marked += try deleter.mark(
                entity, "SELECT \(entity.rowID) FROM \(entity.table) WHERE \(entity.rowID) NOT IN (SELECT id FROM \(table("reach", entity)))")
        }
        return marked
    }

    private func table(_ name: String, _ entity: EntityPlan) -> String {
        quote("_cleanup_\(name)_\(entity.index)")
    }

    /// `SELECT id` of the target row ids that `link` reaches from every source row (`from: nil`)
    /// or from the source rows in the frontier table `from`.
    private func targets(of link: Link, from frontier: String?) -> String {
        let sourcePlan = plan.entity(named: link.source)!
        let targetPlan = plan.entity(named: link.target)!
        let front = frontier.map { "(SELECT id FROM \($0))" }
        switch link.storage {
        case .foreignKey(_, let column, true, _):
            let filter = front.map { " AND \(sourcePlan.rowID) IN \($0)" } ?? ""
            return "SELECT \(quote(column)) AS id FROM \(sourcePlan.table) WHERE \(quote(column)) IS NOT NULL\(filter)"
        case .foreignKey(_, let column, false, _):
            let filter = front.map { " IN \($0)" } ?? " IS NOT NULL"
            return "SELECT \(targetPlan.rowID) AS id FROM \(targetPlan.table) WHERE \(quote(column))\(filter)"
        case .linkTable(let name):
            let filter = front.map { " WHERE \"source\" IN \($0)" } ?? ""
            return "SELECT \"target\" AS id FROM \(quote(name))\(filter)"
        }
    }
}
