/// The clean-up pass (SPEC 2.5): keeps every row reachable from a root (a row of an entity
/// without `cleanup: orphans`) along forward links, and deletes the other rows of `orphans`
/// entities. Set-based: reachability spreads through temporary tables a frontier at a time,
/// so rings of rows that only link to each other are removed too.
struct CleanupPass {
    let connection: SQLiteConnection
    let plan: ImportPlan

    /// A row the pass deleted.
    struct Removed {
        let entity: Int
        let row: Int64
        let key: [StoredValue]
    }

    func run() throws(StoreError) -> [Removed] {
        let orphans = plan.entities.filter { $0.spec.cleanup == .orphans }
        guard !orphans.isEmpty else { return [] }
        for entity in orphans {
            for name in ["reach", "front", "next"] {
                try connection.execute(
                    "CREATE TEMP TABLE IF NOT EXISTS \(table(name, entity)) (id INTEGER PRIMARY KEY); DELETE FROM \(table(name, entity))")
            }
        }
        // Seed with everything roots link to.
        for link in plan.spec.links {
            let source = plan.entity(named: link.source)!
            let target = plan.entity(named: link.target)!
            guard target.spec.cleanup == .orphans, source.spec.cleanup != .orphans else { continue }
            try connection.execute("INSERT OR IGNORE INTO \(table("next", target)) " + targets(of: link, from: nil))
        }
        // Spread a frontier at a time until nothing new is reached.
        while true {
            var grew = false
            for entity in orphans {
                let front = table("front", entity), next = table("next", entity), reach = table("reach", entity)
                try connection.execute("""
                    DELETE FROM \(front);
                    INSERT INTO \(front) SELECT id FROM \(next) WHERE id NOT IN (SELECT id FROM \(reach));
                    DELETE FROM \(next);
                    INSERT INTO \(reach) SELECT id FROM \(front)
                    """)
                if connection.changes > 0 { grew = true }
            }
            guard grew else { break }
            for link in plan.spec.links {
                let source = plan.entity(named: link.source)!
                let target = plan.entity(named: link.target)!
                guard target.spec.cleanup == .orphans, source.spec.cleanup == .orphans else { continue }
                try connection.execute("INSERT OR IGNORE INTO \(table("next", target)) " + targets(of: link, from: source))
            }
        }
        var removed: [Removed] = []
        for entity in orphans {
            let keys = entity.spec.primaryKey.map(quote)
            let statement = try connection.statement(
                "DELETE FROM \(entity.table) WHERE \(entity.rowID) NOT IN (SELECT id FROM \(table("reach", entity))) RETURNING "
                    + ([entity.rowID] + keys).joined(separator: ", "))
            while try statement.step() {
                removed.append(Removed(
                    entity: entity.index, row: statement.int64(at: 0),
                    key: (0..<keys.count).map { statement.value(at: 1 + $0) }))
            }
        }
        return removed
    }

    private func table(_ name: String, _ entity: EntityPlan) -> String {
        quote("_cleanup_\(name)_\(entity.index)")
    }

    /// `SELECT` of the target row ids that `link` reaches from every source row (`from: nil`)
    /// or from the source rows in the frontier of `from`.
    private func targets(of link: Link, from source: EntityPlan?) -> String {
        let sourcePlan = plan.entity(named: link.source)!
        let targetPlan = plan.entity(named: link.target)!
        let front = source.map { "(SELECT id FROM \(table("front", $0)))" }
        switch link.storage {
        case .foreignKey(_, let column, true, _):
            let filter = front.map { " AND \(sourcePlan.rowID) IN \($0)" } ?? ""
            return "SELECT \(quote(column)) FROM \(sourcePlan.table) WHERE \(quote(column)) IS NOT NULL\(filter)"
        case .foreignKey(_, let column, false, _):
            let filter = front.map { " IN \($0)" } ?? " IS NOT NULL"
            return "SELECT \(targetPlan.rowID) FROM \(targetPlan.table) WHERE \(quote(column))\(filter)"
        case .linkTable(let name):
            let filter = front.map { " WHERE \"source\" IN \($0)" } ?? ""
            return "SELECT \"target\" FROM \(quote(name))\(filter)"
        }
    }
}
