extension Store {
    /// Row counts per entity, stubs per entity and links per forward relationship.
    func statistics() throws -> StoreStatistics {
        var stats = StoreStatistics()
        for entity in plan.entities {
            let count = try connection.rows("SELECT count(*) FROM \(entity.table)")
            stats.entities.append((entity.spec.name, count.first?.first?.integer ?? 0))
            let stubs = entity.spec.isOwned ? 0 : try connection.rows(
                "SELECT count(*) FROM \(entity.table) WHERE \"_stub\" = 1").first?.first?.integer ?? 0
            stats.stubs.append((entity.spec.name, stubs))
        }
        for link in spec.links {
            let sql: String
            switch link.storage {
            case .foreignKey(let table, let column, _, _):
                sql = "SELECT count(*) FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL"
            case .linkTable(let name):
                sql = "SELECT count(*) FROM \(quote(name))"
            }
            stats.links.append((link.qualifiedName, try connection.rows(sql).first?.first?.integer ?? 0))
        }
        return stats
    }
}
