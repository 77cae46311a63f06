/// Set-based reads of links, shared by deletion, cascades and the deny check.
extension ImportPlan {
    /// `SELECT a, b` over the stored links of `link`: `a` is a row on one side (the source
    /// when `fromSource`, else the target) taken from `rows`, an SQL expression of row ids such
    /// as `SELECT id FROM t`; `b` is the row linked to it on the other side. One pair per link.
    func linkPairs(_ link: Link, fromSource: Bool, in rows: String) -> String {
        let source = entity(named: link.source)!
        let target = entity(named: link.target)!
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

    /// The link a relationship reads, and whether `entity` is its source.
    func link(of relationship: RelationshipPlan) -> (link: Link, fromSource: Bool) {
        (spec.links[relationship.spec.linkIndex], relationship.spec.isForward)
    }
}
