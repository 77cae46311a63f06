/// The SQL both deletion engines share, written in words SQLite and PostgreSQL spell alike: the
/// pairs of rows a stored link joins, the rows it reaches, and the links' `ON DELETE` actions.
/// Each engine puts its own statements around them (its temporary tables, its way of
/// inserting without repeats).
struct DeletionSQL {
    let plan: ImportPlan

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
            return fromSource
                ? "SELECT \(source.rowID) AS a, \(c) AS b FROM \(source.table) WHERE \(source.rowID) IN (\(rows)) AND \(c) IS NOT NULL"
                : "SELECT \(c) AS a, \(source.rowID) AS b FROM \(source.table) WHERE \(c) IN (\(rows))"
        case .foreignKey(_, let column, false, _):
            // The column sits on the target table and points at the source.
            let c = quote(column)
            return fromSource
                ? "SELECT \(c) AS a, \(target.rowID) AS b FROM \(target.table) WHERE \(c) IN (\(rows))"
                : "SELECT \(target.rowID) AS a, \(c) AS b FROM \(target.table) WHERE \(target.rowID) IN (\(rows)) AND \(c) IS NOT NULL"
        case .linkTable(let name):
            let mine = fromSource ? "\"source\"" : "\"target\""
            let theirs = fromSource ? "\"target\"" : "\"source\""
            return "SELECT \(mine) AS a, \(theirs) AS b FROM \(quote(name)) WHERE \(mine) IN (\(rows))"
        }
    }

    /// `SELECT id` of the target row ids that `link` reaches from every source row (`from: nil`)
    /// or from the source rows `from` selects, an SQL expression of row ids.
    func targets(of link: Link, from rows: String?) -> String {
        let source = plan.entity(named: link.source)!
        let target = plan.entity(named: link.target)!
        let front = rows.map { "(\($0))" }
        switch link.storage {
        case .foreignKey(_, let column, true, _):
            let filter = front.map { " AND \(source.rowID) IN \($0)" } ?? ""
            return "SELECT \(quote(column)) AS id FROM \(source.table) WHERE \(quote(column)) IS NOT NULL\(filter)"
        case .foreignKey(_, let column, false, _):
            let filter = front.map { " IN \($0)" } ?? " IS NOT NULL"
            return "SELECT \(target.rowID) AS id FROM \(target.table) WHERE \(quote(column))\(filter)"
        case .linkTable(let name):
            let filter = front.map { " WHERE \"source\" IN \($0)" } ?? ""
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
                for (column, end) in [("source", link.source), ("target", link.target)] where end == name {
                    statements.append("DELETE FROM \(quote(table)) WHERE \(quote(column)) IN (\(rows))")
                }
            case .foreignKey(let table, let column, let onSource, _):
                guard (onSource ? link.target : link.source) == name else { continue }
                statements.append("UPDATE \(quote(table)) SET \(quote(column)) = NULL WHERE \(quote(column)) IN (\(rows))")
            }
        }
        return statements
    }
}
