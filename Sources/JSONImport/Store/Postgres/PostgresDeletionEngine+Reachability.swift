/// Reachability for the clean-up pass on PostgreSQL: per entity, one temporary table of the
/// rows reached so far, each with the step that reached it (`id int8 PRIMARY KEY, step int4`,
/// indexed by step). A step's frontier is the rows of the step before; the rows a link reaches
/// go straight in with the next step, `ON CONFLICT DO NOTHING` leaving out those reached
/// already. Each row is written once and nothing is deleted until the pass starts over: a
/// frontier table emptied every step, as SQLite's are, would keep every row it ever held in
/// PostgreSQL until the transaction ends, and each step would read them all again.
extension PostgresDeletionEngine {
    func reachTable(_ entity: EntityPlan) -> String { quote("_cleanup_reach_\(entity.index)") }

    func beginReachability(_ entities: [EntityPlan]) throws(StoreError) {
        try begin()
        step = [:]
        var statements: [String] = []
        for entity in entities {
            let table = reachTable(entity)
            statements.append(Self.emptied(table, columns: "id int8 PRIMARY KEY, step int4 NOT NULL"))
            statements.append("CREATE INDEX IF NOT EXISTS \(quote("_cleanup_reach_\(entity.index)_step")) ON \(table) (step)")
            step[entity.index] = 0
        }
        guard !statements.isEmpty else { return }
        try execute(statements.joined(separator: "; "))
    }

    func reach(through link: Link, fromFrontier: Bool) throws(StoreError) {
        try begin()
        let source = plan.entity(named: link.source)!
        let target = plan.entity(named: link.target)!
        let next = Int64(step[target.index]! + 1)
        guard fromFrontier else {
            try run(
                "INSERT INTO \(reachTable(target)) (id, step) SELECT t.id, $1::int4 FROM ("
                    + shared.targets(of: link, from: nil) + ") t ON CONFLICT (id) DO NOTHING",
                [.integer(next)])
            return
        }
        let frontier = "SELECT id FROM \(reachTable(source)) WHERE step = $2"
        try run(
            "INSERT INTO \(reachTable(target)) (id, step) SELECT t.id, $1::int4 FROM ("
                + shared.targets(of: link, from: frontier) + ") t ON CONFLICT (id) DO NOTHING",
            [.integer(next), .integer(Int64(step[source.index]!))])
    }

    func advanceFrontier(of entity: EntityPlan) throws(StoreError) -> Bool {
        try begin()
        let reached = step[entity.index]! + 1
        step[entity.index] = reached
        let found = try rows(
            "SELECT 1 FROM \(reachTable(entity)) WHERE step = $1 LIMIT 1", [.integer(Int64(reached))])
        return !found.isEmpty
    }
}
