/// Reachability for the clean-up pass on PostgreSQL. Most entities of a mapping need no table
/// of the rows reached: an entity that only roots link to is reached by a query of the roots'
/// links, and one that links to no entity of the pass is looked at only when its unreachable
/// rows are marked, by a query of the links into it. Both are answered by the anti-join that
/// marks the unreachable rows (``PostgresDeletionEngine/reached(_:)``), which reads each
/// link once and writes nothing: on the kit's clean-up benchmark (users own repos, repos carry
/// tags), filling tables of the 800,000 rows reached took longer than marking the orphans.
///
/// The others, entities on a chain or a ring of the pass's entities, keep the rows reached in a
/// temporary table (`id int8, step int4`). A step's frontier is the rows of the step before;
/// the rows a link reaches go straight in with the next step, leaving out those reached
/// already. Each row is written once and nothing is deleted until the pass starts over: a
/// frontier table emptied every step, as SQLite's are, would keep every row it ever held in
/// PostgreSQL until the transaction ends, and each step would read them all again.
///
/// The first steps (everything the roots link to, and what that links to: most rows, in a
/// large store) go in before the tables have indexes, as bulk inserts checked against the
/// table by a hash anti-join: with the indexes in place each row took an index entry at a time,
/// three times as long. The indexes (by id, by step) come before a step after them, which
/// reaches few rows, so that a long chain does not read the whole table every step; a pass
/// whose chains end within the first steps builds none.
extension PostgresDeletionEngine {
    func reachTable(_ entity: EntityPlan) -> String { quote("_cleanup_reach_\(entity.index)") }

    /// The rows of `entity` reached in the pass (`id`), to read from: its reach table, or the
    /// query that stands for one.
    func reached(_ entity: EntityPlan) -> String {
        reachQueries[entity.index].map { "(\($0))" } ?? reachTable(entity)
    }

    /// The condition that row `t` of `entity` was not reached in the pass. A link column on
    /// `entity`'s own table reaches the row exactly when it is set: asked of the row itself,
    /// not by an anti-join of the table with itself (on the kit's mutated file, marking the
    /// repos no user owns took 0.10 s that way, and 5 ms by the column).
    func unreached(_ entity: EntityPlan) -> String {
        guard let (columns, others) = reachColumns[entity.index] else { return Self.absent("t.\(entity.rowID)", from: reached(entity)) }
        var conditions = columns.map { "t.\(quote($0)) IS NULL" }
        if let others { conditions.append(Self.absent("t.\(entity.rowID)", from: "(\(others))")) }
        return conditions.joined(separator: " AND ")
    }

    func beginReachability(_ entities: [EntityPlan]) throws(StoreError) {
        try begin()
        step = [:]
        emptyFrontiers = []
        newlyReached = [:]
        (reachQueries, reachColumns) = makeReachQueries(entities)
        var statements: [String] = []
        for entity in entities {
            step[entity.index] = 0
            guard reachQueries[entity.index] == nil else { continue }
            let table = reachTable(entity)
            // Emptied with TRUNCATE: a pass leaves no dead rows for the next to read past.
            statements.append("CREATE TEMP TABLE IF NOT EXISTS \(table) (id int8 NOT NULL, step int4 NOT NULL)")
            statements.append("TRUNCATE \(table)")
            for index in reachIndexes(entity) { statements.append("DROP INDEX IF EXISTS \(index.name)") }
        }
        indexedReach = []
        // Hashing a large store's rows in memory: at the default `work_mem` (4 MB) the hash
        // tables of the first steps, and of the anti-joins of queries that stand for reach
        // tables, spill to disk. Raised for the transaction, never lowered.
        statements.append(
            "SELECT set_config('work_mem', (greatest(pg_size_bytes(current_setting('work_mem')), \(Self.reachWorkMemory)) / 1024)::text || 'kB', true)")
        try execute(statements.joined(separator: "; "))
        // What an entity reached by a query links to goes in with the roots' links.
        for link in plan.spec.links {
            let source = plan.entity(named: link.source)!
            let target = plan.entity(named: link.target)!
            guard let query = reachQueries[source.index], step[target.index] != nil, reachQueries[target.index] == nil
            else { continue }
            try insertReached(through: link, from: query)
        }
    }

    func reach(through link: Link, fromFrontier: Bool) throws(StoreError) {
        try begin()
        let source = plan.entity(named: link.source)!
        let target = plan.entity(named: link.target)!
        // Reached by a query, the target needs nothing now.
        guard reachQueries[target.index] == nil else { return }
        guard fromFrontier else {
            try insertReached(through: link, from: nil)
            return
        }
        // A source reached by a query went in whole at the start; an empty frontier reaches
        // nothing.
        guard reachQueries[source.index] == nil, !emptyFrontiers.contains(source.index) else { return }
        if step[source.index]! >= Self.unindexedSteps {
            try indexReach(source)
            try indexReach(target)
        }
        try insertReached(through: link, from: "SELECT id FROM \(reachTable(source)) WHERE step = \(step[source.index]!)")
    }

    func advanceFrontier(of entity: EntityPlan) throws(StoreError) -> Bool {
        try begin()
        guard reachQueries[entity.index] == nil else { return false }
        let reached = step[entity.index]! + 1
        step[entity.index] = reached
        let found = newlyReached.removeValue(forKey: entity.index) ?? 0 > 0
        if !found {
            emptyFrontiers.insert(entity.index)
        } else {
            emptyFrontiers.remove(entity.index)
            // Temporary tables get no statistics but from ANALYZE: without them the steps
            // after a bulk one are planned for a table of a few thousand rows (a nested loop
            // over an index, a row at a time).
            if reached <= Self.unindexedSteps { try execute("ANALYZE \(reachTable(entity))") }
        }
        return found
    }

    /// Adds to the next frontier of `link`'s target, a reach table, the rows `link` reaches
    /// from the source rows `rows` selects (every one: `nil`), leaving out those reached
    /// already.
    private func insertReached(through link: Link, from rows: String?) throws(StoreError) {
        let target = plan.entity(named: link.target)!
        let table = reachTable(target)
        let inserted = try run(
            "INSERT INTO \(table) (id, step) SELECT DISTINCT t.id, $1::int4 FROM (" + shared.targets(of: link, from: rows)
                + ") t WHERE " + Self.absent("t.id", from: table),
            [.integer(Int64(step[target.index]! + 1))])
        newlyReached[target.index, default: 0] += inserted
    }

    /// The queries of the rows reached of the pass's `entities` that need no reach table, by
    /// entity index: those of entities only roots link to (everything their links reach),
    /// then those of entities that link to none of the pass (everything the roots' links and
    /// the pass's reached rows reach). With them, ``reachColumns``.
    private func makeReachQueries(
        _ entities: [EntityPlan]
    ) -> (queries: [Int: String], columns: [Int: (columns: [String], others: String?)]) {
        let inPass = Set(entities.map(\.index))
        let links = plan.spec.links.map { link in
            (link: link, source: plan.entity(named: link.source)!.index, target: plan.entity(named: link.target)!.index)
        }
        var queries: [Int: String] = [:]
        var columns: [Int: (columns: [String], others: String?)] = [:]
        /// Records the query of `entity` from its links' queries; `rows` gives the rows of a
        /// link's source (by index) the link starts from, `nil` for every row.
        func record(_ entity: EntityPlan, from rows: (Int) -> String?) {
            var own: [String] = []
            var others: [String] = []
            var all: [String] = []
            for link in links where link.target == entity.index {
                let from = rows(link.source)
                let query = shared.targets(of: link.link, from: from)
                all.append(query)
                if from == nil, entity.spec.tenantAttribute == nil, case .foreignKey(_, let column, false, _) = link.link.storage {
                    own.append(column)
                } else {
                    others.append(query)
                }
            }
            queries[entity.index] = all.isEmpty ? "SELECT NULL::int8 AS id WHERE false" : all.joined(separator: " UNION ALL ")
            if !own.isEmpty { columns[entity.index] = (own, others.isEmpty ? nil : others.joined(separator: " UNION ALL ")) }
        }
        for entity in entities where !links.contains(where: { $0.target == entity.index && inPass.contains($0.source) }) {
            record(entity) { _ in nil }
        }
        for entity in entities
        where queries[entity.index] == nil && !links.contains(where: { $0.source == entity.index && inPass.contains($0.target) }) {
            record(entity) { source in
                guard inPass.contains(source) else { return nil }
                return queries[source] ?? "SELECT id FROM \(reachTable(plan.entities[source]))"
            }
        }
        return (queries, columns)
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
