/// The deletion engine on PostgreSQL: the statements of ``SQLiteDeletionEngine`` in
/// PostgreSQL's words, with the same results in the same order. Marks live in one temporary
/// table of row ids per entity (`id int8 PRIMARY KEY, round int4`), grown with
/// `INSERT … ON CONFLICT DO NOTHING` and counted by the rows it inserted; each entity's marked
/// rows go in one `DELETE … RETURNING`, sent in one round trip after the links' `ON DELETE`
/// actions. The store declares no foreign keys, so those actions are all there is: every
/// link-table row that joins a deleted row goes and every link column that points at one is
/// cleared, as SQLite's `ON DELETE CASCADE` and `SET NULL` would. Reachability for the clean-up
/// pass is in `PostgresDeletionEngine+Reachability.swift`.
///
/// The temporary tables belong to the connection's session: created on first use in it
/// (again after a rollback that undid their creation) and emptied when a step starts over, so
/// a connection reused for many transactions creates them once. Every method first has the
/// row path hand over its pending writes.
final class PostgresDeletionEngine: DeletionEngine {
    /// The store's engine, whose row path hands over its pending writes before each step.
    let store: PostgresEngine
    let plan: ImportPlan
    /// The calls to the server (a statement, a pipeline, or statements without parameters
    /// sent at once), for checks that their number does not grow with the rows.
    private(set) var roundTrips = 0
    /// Per entity in the reachability pass (by index): the step whose rows are its frontier.
    var step: [Int: Int] = [:]
    /// Entities in the reachability pass (by index) whose frontier holds no rows.
    var emptyFrontiers: Set<Int> = []
    /// Per entity in the reachability pass (by index): the rows reached since its frontier
    /// last advanced, its next frontier.
    var newlyReached: [Int: Int] = [:]
    /// Entities in the reachability pass (by index) whose reached rows are a query, not a
    /// table: the query.
    var reachQueries: [Int: String] = [:]
    /// Of ``reachQueries``, those of entities without distribution reached by link columns of
    /// their own table from every row linking to them: those columns, and the query of the
    /// rows the other links reach (`nil` when there are none), for the anti-join marking the
    /// rows not reached (see ``PostgresDeletionEngine/unreached(_:)``).
    var reachColumns: [Int: (columns: [String], others: String?)] = [:]
    /// Entities whose reach table has its indexes in this pass.
    var indexedReach: Set<Int> = []
    /// The tenants whose rows the operation's deletions reach, or `nil` for every tenant (see
    /// ``keepToNamedTenants()``): statements on distributed entities' tables name them.
    private(set) var tenantScope: Set<StoredValue>?

    var connection: PostgresConnection { store.connection }

    init(store: PostgresEngine, plan: ImportPlan) {
        self.store = store
        self.plan = plan
    }

    private func markTable(_ entity: EntityPlan) -> String { DeletionSQL.markTable(entity) }
    private var keptTable: String { DeletionSQL.keptTable }

    // MARK: Marks

    func resetMarks() throws(StoreError) {
        try begin()
        try execute(plan.entities.map { entity in
            Self.emptied(markTable(entity), columns: "id int8 PRIMARY KEY, round int4 NOT NULL")
        }.joined(separator: "; "))
    }

    /// Marks what `selection` picks. A ``DeletionSelection/query(_:)`` runs as a subquery with
    /// its own parameters bound as they are (see ``CompiledQuery``): its text numbers them
    /// `$1…$n`, and the statement around it binds none of its own.
    func mark(_ entity: EntityPlan, _ selection: DeletionSelection) throws(StoreError) -> Int {
        try begin()
        var select: String
        var parameters: [StoredValue] = []
        switch selection {
        case .query(let query):
            select = query.text
            parameters = query.parameters
        case .seenBefore(let time):
            select = "SELECT r.\(entity.rowID) FROM \(entity.table) AS r WHERE \(PostgresEngine.seenAt(entity.spec, alias: "r")) < $1"
            parameters = [.real(time)]
        case .notKept(let tenants, let scope):
            select = "SELECT t.\(entity.rowID) FROM \(entity.table) t WHERE " + Self.absent("t.\(entity.rowID)", from: keptTable)
            // The scope's query numbers its parameters from $1; the tenants follow them.
            if let scope {
                select += " AND t.\(entity.rowID) IN (SELECT * FROM (\(scope.text)) s)"
                parameters = scope.parameters
            }
            if let tenants {
                let filter = PostgresEngine.tenantFilter(entity.spec, tenants: tenants, alias: "t", parameter: parameters.count + 1)
                select += filter.sql
                parameters += filter.parameters
            }
        case .unreachable:
            select = "SELECT t.\(entity.rowID) FROM \(entity.table) t WHERE " + unreached(entity) + scopedToTenants(entity, alias: "t")
        case .kept:
            select = "SELECT id FROM \(keptTable)"
        }
        return try run(
            "INSERT INTO \(markTable(entity)) (id, round) SELECT *, 0 FROM (\(select)) q ON CONFLICT (id) DO NOTHING",
            parameters)
    }

    func markLinked(by relationship: RelationshipPlan, of entity: EntityPlan, fromRound round: Int) throws(StoreError) -> Int {
        try begin()
        let target = plan.entities[relationship.target]
        let (link, fromSource) = plan.link(of: relationship)
        let pairs = shared.linkPairs(link, fromSource: fromSource, in: "SELECT id FROM \(markTable(entity)) WHERE round = $1")
        return try run(
            "INSERT INTO \(markTable(target)) (id, round) SELECT p.b, $2::int4 FROM (\(pairs)) p ON CONFLICT (id) DO NOTHING",
            [.integer(Int64(round)), .integer(Int64(round + 1))])
    }

    func linksToUnmarked(by relationship: RelationshipPlan, of entity: EntityPlan) throws(StoreError) -> [(row: Int64, count: Int)] {
        try begin()
        let target = plan.entities[relationship.target]
        let (link, fromSource) = plan.link(of: relationship)
        let pairs = shared.linkPairs(link, fromSource: fromSource, in: "SELECT id FROM \(markTable(entity))")
        let rows = try rows(
            "SELECT p.a, count(*) FROM (\(pairs)) p WHERE \(Self.absent("p.b", from: markTable(target))) "
                + "GROUP BY p.a ORDER BY p.a")
        return rows.compactMap {
            guard case .integer(let id) = $0[0], case .integer(let count) = $0[1] else { return nil }
            return (id, Int(count))
        }
    }

    /// The neighbours in ascending order.
    func unmarkedNeighbours(through link: Link, fromSource: Bool) throws(StoreError) -> [Int64] {
        try begin()
        let marked = plan.entity(named: fromSource ? link.source : link.target)!
        let other = plan.entity(named: fromSource ? link.target : link.source)!
        let pairs = shared.linkPairs(link, fromSource: fromSource, in: "SELECT id FROM \(markTable(marked))")
        return try rows(
            "SELECT DISTINCT p.b FROM (\(pairs)) p WHERE \(Self.absent("p.b", from: markTable(other))) ORDER BY p.b"
        ).compactMap {
            if case .integer(let id) = $0[0] { return id }
            return nil
        }
    }

    /// Deletes in ascending row-id order, the order SQLite's `DELETE … WHERE rowid IN (…)`
    /// takes, so both stores report deletions alike.
    func deleteMarked(
        _ entity: EntityPlan, cascaded: Bool, readingKeys: Bool
    ) throws(StoreError) -> (rows: [Int64], keys: [[StoredValue]]) {
        try begin()
        let keys = readingKeys ? entity.spec.primaryKey.map(quote) : []
        let marked = "SELECT id FROM \(markTable(entity)) WHERE round \(cascaded ? ">" : "=") 0"
        let delete = PostgresStatement(
            "WITH gone AS (DELETE FROM \(entity.table) WHERE \(entity.rowID) IN (\(marked))\(scopedToTenants(entity)) RETURNING "
                + ([entity.rowID] + keys).joined(separator: ", ") + ") SELECT * FROM gone ORDER BY 1")
        var statements = shared.dropLinks(to: entity, from: marked).map { PostgresStatement($0) } + [delete]
        if entity.spec.hasTimestamps {
            statements.append(PostgresStatement(
                "DELETE FROM \(quote(StorageSchema.seenTable(of: entity.spec.table))) WHERE \"_id\" IN (\(marked))"
                    + scopedToTenants(entity, column: entity.spec.tenantAttribute == entity.spec.rowIDColumn ? "_id" : nil)))
        }
        let results = try pipeline(statements)
        var rows: [Int64] = []
        var keyValues: [[StoredValue]] = []
        for row in results[statements.count - (entity.spec.hasTimestamps ? 2 : 1)].rows {
            guard case .integer(let id) = row[0] else { continue }
            rows.append(id)
            if readingKeys { keyValues.append(Array(row.dropFirst())) }
        }
        // The row path's cache may hold the rows gone, and rows and lists linking to them.
        if !rows.isEmpty { store.rowPath.cacheIsStale = true }
        return (rows, keyValues)
    }

    func key(of entity: EntityPlan, row: Int64) throws(StoreError) -> [StoredValue] {
        try begin()
        guard !entity.spec.isOwned else { return [] }
        let columns = entity.spec.primaryKey.map(quote).joined(separator: ", ")
        let found = try rows(
            "SELECT \(columns) FROM \(entity.table) WHERE \(entity.rowID) = $1\(scopedToTenants(entity))", [.integer(row)])
        return found.first ?? []
    }

    // MARK: Prune

    func resetKept() throws(StoreError) {
        try begin()
        try execute(Self.emptied(keptTable, columns: "id int8 PRIMARY KEY"))
    }

    /// Inserts the rows in one statement, as one array.
    func keep(rows: [Int64]) throws(StoreError) {
        try begin()
        guard !rows.isEmpty else { return }
        try run(
            "INSERT INTO \(keptTable) (id) SELECT unnest($1::int8[]) ON CONFLICT (id) DO NOTHING",
            [PostgresEngine.array(rows)])
    }

    func keep(_ entity: EntityPlan, key: [StoredValue]) throws(StoreError) {
        try begin()
        let condition = entity.spec.isOwned
            ? "\(entity.rowID) = $1"
            : entity.spec.primaryKey.enumerated().map { "\(quote($1)) = $\($0 + 1)" }.joined(separator: " AND ")
        try run(
            "INSERT INTO \(keptTable) (id) SELECT \(entity.rowID) FROM \(entity.table) WHERE \(condition) "
                + "ON CONFLICT (id) DO NOTHING",
            key)
    }

    // MARK: Bookkeeping

    func setUpdatedAt(of entity: EntityPlan, rows: [Int64], to time: Double) throws(StoreError) {
        try begin()
        guard !rows.isEmpty else { return }
        roundTrips += 1
        try store.setColumn("_updated_at", of: entity, rows: rows, to: .real(time))
    }

    /// The metadata key that records a pending clean-up pass, as in SQLite stores.
    private static let pendingKey = "cleanupPending"

    func isCleanupPending() throws(StoreError) -> Bool {
        try begin()
        let found = try rows(
            "SELECT 1 FROM \(quote(StorageSchema.metadataTable)) WHERE \"key\" = $1 AND \"value\" = '1'",
            [.text(Self.pendingKey)])
        return !found.isEmpty
    }

    func setCleanupPending(_ isPending: Bool) throws(StoreError) {
        try begin()
        try run(
            "INSERT INTO \(quote(StorageSchema.metadataTable)) (\"key\", \"value\") VALUES ($1, $2) "
                + "ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\"",
            [.text(Self.pendingKey), .text(isPending ? "1" : "0")])
    }

    // MARK: Statements

    /// Starts a step: the row path's pending writes go to the server first, so the step's
    /// statements see them.
    func begin() throws(StoreError) {
        try store.handOverPendingWrites()
    }

    /// The statements that create the temporary `table` in this session unless it exists, and
    /// empty it.
    static func emptied(_ table: String, columns: String) -> String {
        "CREATE TEMP TABLE IF NOT EXISTS \(table) (\(columns)); DELETE FROM \(table)"
    }

    /// A condition that row id `expression` (never NULL) is not in the row ids of `table`: an
    /// anti-join, which `NOT IN (SELECT …)` would not be (its NULL rule keeps the planner from
    /// one, and past its memory it scans the subquery once per row).
    static func absent(_ expression: String, from table: String) -> String {
        "NOT EXISTS (SELECT 1 FROM \(table) x WHERE x.id = \(expression))"
    }

    func execute(_ sql: String) throws(StoreError) {
        roundTrips += 1
        try connection.execute(sql)
    }

    @discardableResult
    func run(_ sql: String, _ parameters: [StoredValue] = []) throws(StoreError) -> Int {
        roundTrips += 1
        let (sql, parameters) = bindingTenants(sql, parameters)
        return try connection.run(sql, parameters)
    }

    func rows(_ sql: String, _ parameters: [StoredValue] = []) throws(StoreError) -> [[StoredValue]] {
        roundTrips += 1
        let (sql, parameters) = bindingTenants(sql, parameters)
        return try connection.rows(sql, parameters)
    }

    /// Runs `statements` in one round trip; the error of the first that fails is thrown.
    private func pipeline(_ statements: [PostgresStatement]) throws(StoreError) -> [PostgresStatementResult] {
        roundTrips += 1
        let statements = statements.map { statement in
            let (sql, parameters) = bindingTenants(statement.sql, statement.parameters)
            return PostgresStatement(sql, parameters, isPlannedEachRun: statement.isPlannedEachRun && parameters.isEmpty)
        }
        do {
            return try connection.pipeline(statements)
        } catch {
            throw error.error
        }
    }

    /// The statements both stores share, kept to the tenants in scope.
    var shared: DeletionSQL {
        var sql = DeletionSQL(plan: plan)
        sql.tenants = { [unowned self] entity in tenantCondition(entity) }
        return sql
    }

    // MARK: Tenants

    func keepToNamedTenants() {
        keep(toTenants: store.rowPath.tenants)
    }

    /// The row path's statements (the neighbours' bookkeeping) name them too.
    func keep(toTenants tenants: Set<StoredValue>) {
        store.rowPath.tenants.formUnion(tenants)
        tenantScope = tenants.isEmpty ? nil : tenants
    }

    func reachEveryTenant() {
        tenantScope = nil
    }

    /// `"tenant" = ANY($tenants::type[])` on the rows of distributed `entity`'s table (its
    /// seen table's `column`, when given), or `nil` outside a ``tenantScope`` or for an entity
    /// that is not distributed. The marker stands for the scope's tenants, bound as the
    /// statement's last parameter when it runs (see ``bindingTenants(_:_:)``).
    func tenantCondition(_ entity: EntityPlan, column: String? = nil, alias: String? = nil) -> String? {
        guard tenantScope != nil, let name = entity.spec.tenantAttribute, let attribute = entity.spec.attribute(named: name)
        else { return nil }
        let qualified = (alias.map { "\($0)." } ?? "") + quote(column ?? name)
        return "\(qualified) = ANY(\(Self.tenantsMarker)::\(PostgresEngine.arrayType(of: attribute.type))[])"
    }

    private static let tenantsMarker = "$tenants"

    /// `sql` with its tenant markers numbered as parameters after `parameters`, and those
    /// parameters with the scope's tenants of each array type appended.
    private func bindingTenants(_ sql: String, _ parameters: [StoredValue]) -> (String, [StoredValue]) {
        guard sql.contains(Self.tenantsMarker), let scope = tenantScope else { return (sql, parameters) }
        var sql = sql
        var parameters = parameters
        for type in ["int8", "text", "uuid"] {
            let marker = "\(Self.tenantsMarker)::\(type)[]"
            guard sql.contains(marker) else { continue }
            parameters.append(PostgresEngine.tenantArray(scope, type: type))
            sql = sql.replacingOccurrences(of: marker, with: "$\(parameters.count)::\(type)[]")
        }
        return (sql, parameters)
    }

    /// `AND` ``tenantCondition(_:column:alias:)``, or nothing.
    func scopedToTenants(_ entity: EntityPlan, column: String? = nil, alias: String? = nil) -> String {
        tenantCondition(entity, column: column, alias: alias).map { " AND \($0)" } ?? ""
    }
}
