/// The SQL both deletion engines share, written in words SQLite and PostgreSQL spell alike: the
/// pairs of rows a stored link joins, the rows it reaches, and the links' `ON DELETE` actions.
/// Each engine puts its own statements around them (its temporary tables, its way of
/// inserting without repeats).
struct DeletionSQL {
    let plan: ImportPlan
    /// The condition (`"orgId" = ANY(…)`) that keeps a read of a distributed entity's table,
    /// or of the link table of its relationships, to the tenants the operation named, so that
    /// a distributed PostgreSQL runs it on their shards alone (SPEC 6); `nil` when the entity
    /// is not distributed, outside such an operation, and on SQLite.
    var tenants: (EntityPlan) -> String? = { _ in nil }

    /// ``tenants`` of the table of `owner`, when the rows the statement starts from are of a
    /// distributed entity. Rows of a reference entity are linked from every tenant: what
    /// reads their links reads them all.
    private func condition(_ owner: EntityPlan, from rows: EntityPlan) -> String? {
        rows.spec.tenantAttribute == nil ? nil : tenants(owner)
    }

    /// ``condition(_:from:)`` as ` AND condition`, or nothing.
    private func scoped(_ owner: EntityPlan, from rows: EntityPlan) -> String {
        condition(owner, from: rows).map { " AND \($0)" } ?? ""
    }

    /// The temporary table of rows to delete from `entity`: `id`, and `round`, 0 for rows the
    /// operation marked and n for rows n cascade steps away from them.
    static func markTable(_ entity: EntityPlan) -> String { quote("_delete_\(entity.index)") }

    /// The temporary table of the prune's kept rows.
    static let keptTable = quote("_prune_keep")

    /// `SELECT a, b` over the stored links of `link`: `a` is a row on one side (the source
    /// when `fromSource`, else the target) taken from `rows`, an SQL expression of row ids such
    /// as `SELECT id FROM t`; `b` is the row linked to it on the other side. One pair per link.
    func linkPairs(_ link: Link, fromSource: Bool, in rows: String) -> String {
        let source = plan.entity(named: link.source)!
        let target = plan.entity(named: link.target)!
        switch link.storage {
        case .foreignKey(_, let column, true, _):
            // The column sits on the source table and points at the target.
            let c = quote(column)
            let tenant = scoped(source, from: fromSource ? source : target)
            return fromSource
                ? "SELECT \(source.rowID) AS a, \(c) AS b FROM \(source.table) WHERE \(source.rowID) IN (\(rows)) AND \(c) IS NOT NULL\(tenant)"
                : "SELECT \(c) AS a, \(source.rowID) AS b FROM \(source.table) WHERE \(c) IN (\(rows))\(tenant)"
        case .foreignKey(_, let column, false, _):
            // The column sits on the target table and points at the source.
            let c = quote(column)
            let tenant = scoped(target, from: fromSource ? source : target)
            return fromSource
                ? "SELECT \(c) AS a, \(target.rowID) AS b FROM \(target.table) WHERE \(c) IN (\(rows))\(tenant)"
                : "SELECT \(target.rowID) AS a, \(c) AS b FROM \(target.table) WHERE \(target.rowID) IN (\(rows)) AND \(c) IS NOT NULL\(tenant)"
        case .linkTable(let name):
            let mine = fromSource ? "\"source\"" : "\"target\""
            let theirs = fromSource ? "\"target\"" : "\"source\""
            let tenant = scoped(source, from: fromSource ? source : target)
            return "SELECT \(mine) AS a, \(theirs) AS b FROM \(quote(name)) WHERE \(mine) IN (\(rows))\(tenant)"
        }
    }

    /// `SELECT id` of the target row ids that `link` reaches from every source row (`from: nil`)
    /// or from the source rows `from` selects, an SQL expression of row ids.
    func targets(of link: Link, from rows: String?) -> String {
        let source = plan.entity(named: link.source)!
        let target = plan.entity(named: link.target)!
        let front = rows.map { "(\($0))" }
        // Rows of a distributed target are reached from their tenant only; those of a
        // reference target from every tenant.
        switch link.storage {
        case .foreignKey(_, let column, true, _):
            let filter = front.map { " AND \(source.rowID) IN \($0)" } ?? ""
            return "SELECT \(quote(column)) AS id FROM \(source.table) WHERE \(quote(column)) IS NOT NULL\(filter)"
                + scoped(source, from: target)
        case .foreignKey(_, let column, false, _):
            let filter = front.map { " IN \($0)" } ?? " IS NOT NULL"
            return "SELECT \(target.rowID) AS id FROM \(target.table) WHERE \(quote(column))\(filter)" + scoped(target, from: target)
        case .linkTable(let name):
            let conditions = [front.map { "\"source\" IN \($0)" }, condition(source, from: target)].compactMap { $0 }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            return "SELECT \"target\" AS id FROM \(quote(name))\(filter)"
        }
    }

    /// The statements that apply the `ON DELETE` actions of the stored links to the rows of
    /// `entity` that `rows` selects, as declared foreign keys would: their link-table rows go
    /// (`CASCADE`), link columns pointing at them are cleared (`SET NULL`).
    func dropLinks(to entity: EntityPlan, from rows: String) -> [String] {
        let name = entity.spec.name
        var statements: [String] = []
        for link in plan.spec.links {
            switch link.storage {
            case .linkTable(let table):
                let tenant = scoped(plan.entity(named: link.source)!, from: entity)
                for (column, end) in [("source", link.source), ("target", link.target)] where end == name {
                    statements.append("DELETE FROM \(quote(table)) WHERE \(quote(column)) IN (\(rows))\(tenant)")
                }
            case .foreignKey(let table, let column, let onSource, _):
                guard (onSource ? link.target : link.source) == name else { continue }
                let tenant = scoped(plan.entity(named: onSource ? link.source : link.target)!, from: entity)
                statements.append("UPDATE \(quote(table)) SET \(quote(column)) = NULL WHERE \(quote(column)) IN (\(rows))\(tenant)")
            }
        }
        return statements
    }
}
