/// The deletion engine on SQLite: marks live in one temporary table of row ids per entity
/// (`id INTEGER PRIMARY KEY, round`), grown with `INSERT OR IGNORE` and counted with
/// `changes()`; each entity's marked rows go in one `DELETE … WHERE rowid IN (SELECT …)
/// RETURNING`, after the links' `ON DELETE` actions, which it applies itself (imports run
/// without SQLite's foreign-key enforcement, see ``Store/write(checkingForeignKeys:deciding:)``).
/// Reachability for the clean-up pass is in `SQLiteDeletionEngine+Reachability.swift`.
final class SQLiteDeletionEngine: DeletionEngine {
    let connection: SQLiteConnection
    let plan: ImportPlan
    /// The frontier and next-frontier tables of each entity in the reachability pass, by index;
    /// they take turns.
    var frontier: [Int: String] = [:]
    var nextFrontier: [Int: String] = [:]

    init(connection: SQLiteConnection, plan: ImportPlan) {
        self.connection = connection
        self.plan = plan
    }

    private func markTable(_ entity: EntityPlan) -> String { DeletionSQL.markTable(entity) }
    private var keptTable: String { DeletionSQL.keptTable }

    func resetMarks() throws(StoreError) {
        for entity in plan.entities {
            let table = markTable(entity)
            try connection.execute(
                "CREATE TEMP TABLE IF NOT EXISTS \(table) (id INTEGER PRIMARY KEY, round INTEGER NOT NULL); DELETE FROM \(table)")
        }
    }

    func mark(_ entity: EntityPlan, _ selection: DeletionSelection) throws(StoreError) -> Int {
        var select: String
        var parameters: [StoredValue] = []
        switch selection {
        case .query(let query):
            select = query.text
            parameters = query.parameters
        case .seenBefore(let time):
            select = "SELECT \(entity.rowID) FROM \(entity.table) WHERE \"_seen_at\" < ?"
            parameters = [.real(time)]
        case .notKept(let tenants, let scope):
            select = "SELECT \(entity.rowID) FROM \(entity.table) WHERE \(entity.rowID) NOT IN (SELECT id FROM \(keptTable))"
            if let tenants, let name = entity.spec.tenantAttribute {
                select += " AND \(quote(name)) IN (\(tenants.map { _ in "?" }.joined(separator: ", ")))"
                parameters = tenants
            }
            if let scope {
                select += " AND \(entity.rowID) IN (\(scope.text))"
                parameters += scope.parameters
            }
        case .unreachable:
            select = "SELECT \(entity.rowID) FROM \(entity.table) WHERE \(entity.rowID) NOT IN (SELECT id FROM \(reachTable(entity)))"
        }
        try connection.run("INSERT OR IGNORE INTO \(markTable(entity)) (id, round) SELECT *, 0 FROM (\(select))", parameters)
        return connection.changes
    }

    func markLinked(by relationship: RelationshipPlan, of entity: EntityPlan, fromRound round: Int) throws(StoreError) -> Int {
        let target = plan.entities[relationship.target]
        let (link, fromSource) = plan.link(of: relationship)
        let pairs = linkPairs(link, fromSource: fromSource, in: "SELECT id FROM \(markTable(entity)) WHERE round = \(round)")
        try connection.execute(
            "INSERT OR IGNORE INTO \(markTable(target)) (id, round) SELECT b, \(round + 1) FROM (\(pairs))")
        return connection.changes
    }

    func linksToUnmarked(by relationship: RelationshipPlan, of entity: EntityPlan) throws(StoreError) -> [(row: Int64, count: Int)] {
        let target = plan.entities[relationship.target]
        let (link, fromSource) = plan.link(of: relationship)
        let pairs = linkPairs(link, fromSource: fromSource, in: "SELECT id FROM \(markTable(entity))")
        let rows = try connection.rows(
            "SELECT p.a, count(*) FROM (\(pairs)) p WHERE p.b NOT IN (SELECT id FROM \(markTable(target))) GROUP BY p.a ORDER BY p.a")
        return rows.compactMap {
            guard case .integer(let id) = $0[0], case .integer(let count) = $0[1] else { return nil }
            return (id, Int(count))
        }
    }

    func unmarkedNeighbours(through link: Link, fromSource: Bool) throws(StoreError) -> [Int64] {
        let marked = plan.entity(named: fromSource ? link.source : link.target)!
        let other = plan.entity(named: fromSource ? link.target : link.source)!
        let pairs = linkPairs(link, fromSource: fromSource, in: "SELECT id FROM \(markTable(marked))")
        return try connection.rows(
            "SELECT DISTINCT p.b FROM (\(pairs)) p WHERE p.b NOT IN (SELECT id FROM \(markTable(other)))"
        ).compactMap {
            if case .integer(let id) = $0[0] { return id }
            return nil
        }
    }

    func deleteMarked(
        _ entity: EntityPlan, cascaded: Bool, readingKeys: Bool
    ) throws(StoreError) -> (rows: [Int64], keys: [[StoredValue]]) {
        let keys = readingKeys ? entity.spec.primaryKey.map(quote) : []
        let marked = "SELECT id FROM \(markTable(entity)) WHERE round \(cascaded ? ">" : "=") 0"
        try dropLinks(to: entity, from: marked)
        let statement = try connection.statement(
            "DELETE FROM \(entity.table) WHERE \(entity.rowID) IN (\(marked)) RETURNING "
                + ([entity.rowID] + keys).joined(separator: ", "))
        var rows: [Int64] = []
        var keyValues: [[StoredValue]] = []
        while try statement.step() {
            rows.append(statement.int64(at: 0))
            if readingKeys { keyValues.append((0..<keys.count).map { statement.value(at: 1 + $0) }) }
        }
        return (rows, keyValues)
    }

    /// Applies the `ON DELETE` actions of the stored links to the rows of `entity` that `rows`
    /// selects, as SQLite's foreign-key enforcement would.
    private func dropLinks(to entity: EntityPlan, from rows: String) throws(StoreError) {
        for statement in DeletionSQL(plan: plan).dropLinks(to: entity, from: rows) {
            try connection.execute(statement)
        }
    }

    func key(of entity: EntityPlan, row: Int64) throws(StoreError) -> [StoredValue] {
        guard !entity.spec.isOwned else { return [] }
        let columns = entity.spec.primaryKey.map(quote).joined(separator: ", ")
        let found = try connection.rows(
            "SELECT \(columns) FROM \(entity.table) WHERE \(entity.rowID) = ?", [.integer(row)])
        return found.first ?? []
    }

    func resetKept() throws(StoreError) {
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS \(keptTable) (id INTEGER PRIMARY KEY); DELETE FROM \(keptTable)")
    }

    /// Inserts the rows a chunk of them per statement.
    func keep(rows: [Int64]) throws(StoreError) {
        try SQLiteConnection.forEachIDList(rows) { (ids) throws(StoreError) in
            try connection.run("INSERT OR IGNORE INTO \(keptTable) (id) SELECT value FROM json_each(?)", [ids])
        }
    }

    func keep(_ entity: EntityPlan, key: [StoredValue]) throws(StoreError) {
        try connection.run("INSERT OR IGNORE INTO \(keptTable) " + EntityStatements.lookupText(of: entity), key)
    }

    func setUpdatedAt(of entity: EntityPlan, rows: [Int64], to time: Double) throws(StoreError) {
        try connection.setColumn("_updated_at", of: entity, rows: rows, to: .real(time))
    }

    private static let pendingKey = "cleanupPending"

    func isCleanupPending() throws(StoreError) -> Bool {
        let rows = try connection.rows(
            "SELECT 1 FROM \(quote(StorageSchema.metadataTable)) WHERE \"key\" = ? AND \"value\" = '1'",
            [.text(Self.pendingKey)])
        return !rows.isEmpty
    }

    func setCleanupPending(_ isPending: Bool) throws(StoreError) {
        try connection.run(
            "INSERT INTO \(quote(StorageSchema.metadataTable)) (\"key\", \"value\") VALUES (?, ?) "
                + "ON CONFLICT(\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
            [.text(Self.pendingKey), .text(isPending ? "1" : "0")])
    }

    private func linkPairs(_ link: Link, fromSource: Bool, in rows: String) -> String {
        DeletionSQL(plan: plan).linkPairs(link, fromSource: fromSource, in: rows)
    }
}
