/// Reachability for the clean-up pass on PostgreSQL: per entity, one temporary table of the
/// rows reached so far, each with the step that reached it (`id int8, step int4`). A step's
/// frontier is the rows of the step before; the rows a link reaches go straight in with the
/// next step, leaving out those reached already. Each row is written once and nothing is
/// deleted until the pass starts over: a frontier table emptied every step, as SQLite's are,
/// would keep every row it ever held in PostgreSQL until the transaction ends, and each step
/// would read them all again.
///
/// The first steps (everything the roots link to, and what that links to: most rows, in a
/// large store) go in before the tables have indexes, as bulk inserts checked against the
/// table by a hash anti-join: with the indexes in place each row took an index entry at a time,
/// three times as long. The indexes (by id, by step) come before a step after them, which
/// reaches few rows, so that a long chain does not read the whole table every step; a pass
/// whose chains end within the first steps builds none.
extension PostgresDeletionEngine {
    func reachTable(_ entity: EntityPlan) -> String { quote("_cleanup_reach_\(entity.index)") }

    func beginReachability(_ entities: [EntityPlan]) throws(StoreError) {
        try begin()
        step = [:]
        emptyFrontiers = []
        var statements: [String] = []
        for entity in entities {
            let table = reachTable(entity)
            // Emptied with TRUNCATE: a pass leaves no dead rows for the next to read past.
            statements.append("CREATE TEMP TABLE IF NOT EXISTS \(table) (id int8 NOT NULL, step int4 NOT NULL)")
            statements.append("TRUNCATE \(table)")
            for index in reachIndexes(entity) { statements.append("DROP INDEX IF EXISTS \(index.name)") }
            step[entity.index] = 0
        }
        indexedReach = []
        guard !statements.isEmpty else { return }
        // Hashing a large store's rows in memory: at the default `work_mem` (4 MB) the hash
        // tables of the first steps spill to disk. Raised for the transaction, never lowered.
        statements.append(
            "SELECT set_config('work_mem', (greatest(pg_size_bytes(current_setting('work_mem')), \(Self.reachWorkMemory)) / 1024)::text || 'kB', true)")
        try execute(statements.joined(separator: "; "))
    }

    func reach(through link: Link, fromFrontier: Bool) throws(StoreError) {
        try begin()
        let source = plan.entity(named: link.source)!
        let target = plan.entity(named: link.target)!
        let next = Int64(step[target.index]! + 1)
        guard fromFrontier else {
            try run(
                "INSERT INTO \(reachTable(target)) (id, step) SELECT DISTINCT t.id, $1::int4 FROM ("
                    + shared.targets(of: link, from: nil) + ") t WHERE " + Self.absent("t.id", from: reachTable(target)),
                [.integer(next)])
            return
        }
        // An empty frontier reaches nothing.
        guard !emptyFrontiers.contains(source.index) else { return }
        if step[source.index]! >= Self.unindexedSteps {
            try indexReach(source)
            try indexReach(target)
        }
        let frontier = "SELECT id FROM \(reachTable(source)) WHERE step = $2"
        try run(
            "INSERT INTO \(reachTable(target)) (id, step) SELECT DISTINCT t.id, $1::int4 FROM ("
                + shared.targets(of: link, from: frontier) + ") t WHERE " + Self.absent("t.id", from: reachTable(target)),
            [.integer(next), .integer(Int64(step[source.index]!))])
    }

    func advanceFrontier(of entity: EntityPlan) throws(StoreError) -> Bool {
        try begin()
        let reached = step[entity.index]! + 1
        step[entity.index] = reached
        let found = try rows(
            "SELECT 1 FROM \(reachTable(entity)) WHERE step = $1 LIMIT 1", [.integer(Int64(reached))])
        if found.isEmpty {
            emptyFrontiers.insert(entity.index)
        } else {
            emptyFrontiers.remove(entity.index)
            // Temporary tables get no statistics but from ANALYZE: without them the steps
            // after a bulk one are planned for a table of a few thousand rows (a nested loop
            // over an index, a row at a time).
            if reached <= Self.unindexedSteps { try execute("ANALYZE \(reachTable(entity))") }
        }
        return !found.isEmpty
    }

    /// The `work_mem` of a pass, in bytes, at least.
    static let reachWorkMemory = 64 << 20

    /// Steps of a pass that run before the reach tables get their indexes.
    static let unindexedSteps = 2

    /// The indexes of `entity`'s reach table: by id, by step.
    private func reachIndexes(_ entity: EntityPlan) -> [(name: String, create: String)] {
        let table = reachTable(entity)
        return [
            (quote("_cleanup_reach_\(entity.index)_id"), "CREATE UNIQUE INDEX \(quote("_cleanup_reach_\(entity.index)_id")) ON \(table) (id)"),
            (quote("_cleanup_reach_\(entity.index)_step"), "CREATE INDEX \(quote("_cleanup_reach_\(entity.index)_step")) ON \(table) (step)"),
        ]
    }

    /// Builds the indexes of `entity`'s reach table once the first frontier is in.
    private func indexReach(_ entity: EntityPlan) throws(StoreError) {
        guard indexedReach.insert(entity.index).inserted else { return }
        try execute(reachIndexes(entity).map(\.create).joined(separator: "; "))
    }
}
