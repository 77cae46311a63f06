/// Reachability for the clean-up pass on SQLite: per entity, a temporary table of reached row
/// ids and two frontier tables that take turns, so each row is written once to a frontier and
/// once to the reached set; each step is one `INSERT OR IGNORE … SELECT` per link.
extension SQLiteDeletionEngine {
    func reachTable(_ entity: EntityPlan) -> String { table("reach", entity) }

    private func table(_ name: String, _ entity: EntityPlan) -> String {
        quote("_cleanup_\(name)_\(entity.index)")
    }

    func beginReachability(_ entities: [EntityPlan]) throws(StoreError) {
        // The reached sets can hold every row id of a large store; past a page cache the size
        // of the store's (8 MB), they go to SQLite's temporary file. Caching them whole (up to
        // 128 MB) made the pass no faster on 2,000,000 rows, and an import of 300,000 users
        // that dropped repositories peaked 20 MB higher.
        try connection.execute("PRAGMA temp.cache_size = -\(SQLiteConnection.pageCacheKB)")
        frontier = [:]
        nextFrontier = [:]
        for entity in entities {
            for name in ["reach", "a", "b"] {
                try connection.execute(
                    "CREATE TEMP TABLE IF NOT EXISTS \(table(name, entity)) (id INTEGER PRIMARY KEY); DELETE FROM \(table(name, entity))")
            }
            frontier[entity.index] = table("a", entity)
            nextFrontier[entity.index] = table("b", entity)
        }
    }

    func reach(through link: Link, fromFrontier: Bool) throws(StoreError) {
        let source = plan.entity(named: link.source)!
        let target = plan.entity(named: link.target)!
        guard fromFrontier else {
            try connection.execute("INSERT OR IGNORE INTO \(nextFrontier[target.index]!) " + targets(of: link, from: nil))
            return
        }
        try connection.execute(
            "INSERT OR IGNORE INTO \(nextFrontier[target.index]!) SELECT id FROM ("
                + targets(of: link, from: frontier[source.index]!)
                + ") WHERE id NOT IN (SELECT id FROM \(reachTable(target)))")
    }

    func advanceFrontier(of entity: EntityPlan) throws(StoreError) -> Bool {
        let index = entity.index
        try connection.execute("INSERT OR IGNORE INTO \(reachTable(entity)) SELECT id FROM \(nextFrontier[index]!)")
        let grew = connection.changes > 0
        try connection.execute("DELETE FROM \(frontier[index]!)")
        swap(&frontier[index], &nextFrontier[index])
        return grew
    }

    /// `SELECT id` of the target row ids that `link` reaches from every source row (`from: nil`)
    /// or from the source rows in the frontier table `from`.
    private func targets(of link: Link, from frontier: String?) -> String {
        DeletionSQL(plan: plan).targets(of: link, from: frontier.map { "SELECT id FROM \($0)" })
    }
}
