import Foundation
import Testing

@testable import JSONImport

/// A ``PostgresEngine`` that counts the round trips of the deletion engines it makes, for the
/// tests that check the deletion stage's statements do not grow with the number of rows.
final class PostgresDeletionStoreEngine: StoreEngine {
    let base: PostgresEngine
    /// The deletion engines made so far, in order.
    private(set) var deletionEngines: [PostgresDeletionEngine] = []

    init(_ base: PostgresEngine) { self.base = base }

    /// The round trips of every deletion engine made so far.
    var deletionRoundTrips: Int { deletionEngines.map(\.roundTrips).reduce(0, +) }

    var name: String { base.name }
    var dialect: SQLDialect { base.dialect }

    func transaction<T>(_ kind: TransactionKind, deciding body: () throws -> ScopeOutcome<T>) throws -> T {
        try base.transaction(kind, deciding: body)
    }

    var isInTransaction: Bool { base.isInTransaction }
    func enforceForeignKeys(_ isOn: Bool) throws(StoreError) { try base.enforceForeignKeys(isOn) }
    func externalCommitVersion() throws(StoreError) -> Int64 { try base.externalCommitVersion() }
    func recordedState() throws -> StoreSchemaState? { try base.recordedState() }
    func execute(_ statements: [String]) throws(StoreError) { try base.execute(statements) }
    func createStorage(_ schema: StorageSchema) throws(StoreError) { try base.createStorage(schema) }
    func executeMigration(_ statements: [String]) throws(StoreError) { try base.executeMigration(statements) }
    func record(_ state: StoreSchemaState) throws(StoreError) { try base.record(state) }

    func setColumn(_ column: String, of entity: EntityPlan, rows: [Int64], to value: StoredValue) throws(StoreError) {
        try base.setColumn(column, of: entity, rows: rows, to: value)
    }

    func finishSeen(of entity: EntityPlan, at value: StoredValue) throws(StoreError) {
        try base.finishSeen(of: entity, at: value)
    }

    var holdsWrites: Bool { base.holdsWrites }

    func stampUpdated(of entity: EntityPlan, rows: [Int64], at value: StoredValue) throws(StoreError) {
        try base.stampUpdated(of: entity, rows: rows, at: value)
    }

    var importRows: any ImportRows { base.importRows }

    func makeDeletionEngine(plan: ImportPlan) -> any DeletionEngine {
        guard let engine = base.makeDeletionEngine(plan: plan) as? PostgresDeletionEngine else {
            preconditionFailure("PostgresEngine makes a PostgresDeletionEngine")
        }
        deletionEngines.append(engine)
        return engine
    }

    func makeSpilledFlags() -> SpilledFlags? { nil }
    func makeSpilledOriginals(plan: ImportPlan) -> SpilledOriginals? { nil }

    func rowIDs(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> [Int64] {
        try base.rowIDs(entity, selection, plan: plan)
    }

    func count(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> Int {
        try base.count(entity, selection, plan: plan)
    }

    func compiledQuery(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> CompiledQuery {
        try base.compiledQuery(entity, selection, plan: plan)
    }

    func storedRows(_ entity: EntityPlan, rows: [Int64]) throws -> [Int64: RecordReader.StoredRow] {
        try base.storedRows(entity, rows: rows)
    }

    func attributeRows(_ entity: EntityPlan, rows: [Int64], meta: Bool) throws(StoreError) -> [Int64: [StoredValue]] {
        try base.attributeRows(entity, rows: rows, meta: meta)
    }

    func readRows(of entity: EntityPlan, _ rows: [Int64], into values: inout [StoredValue]) throws(StoreError) -> [Int64] {
        try base.readRows(of: entity, rows, into: &values)
    }

    func forEachLink(
        _ relationship: RelationshipPlan, of entity: EntityPlan, rows: [Int64], plan: ImportPlan,
        _ body: (Int64, Int64) -> Void
    ) throws(StoreError) {
        try base.forEachLink(relationship, of: entity, rows: rows, plan: plan, body)
    }

    func keyValues(of entity: EntityPlan, rows: [Int64]) throws(StoreError) -> [(Int64, [StoredValue])] {
        try base.keyValues(of: entity, rows: rows)
    }

    func keyOrderPage(
        _ entity: EntityPlan, filter: FilterExpression?, keys: [[StoredValue]], after: [StoredValue]?, limit: Int,
        plan: ImportPlan
    ) throws -> KeyOrderPages.Page {
        try base.keyOrderPage(entity, filter: filter, keys: keys, after: after, limit: limit, plan: plan)
    }

    func rows(_ sql: String, _ values: [StoredValue]) throws(StoreError) -> [[StoredValue]] { try base.rows(sql, values) }
    func run(_ sql: String, _ values: [StoredValue]) throws(StoreError) { try base.run(sql, values) }
}

/// What one side of a comparison did: its value, or its error's message.
enum Outcome<T: Equatable>: Equatable {
    case value(T)
    case failure(String)

    init(_ body: () throws -> T) {
        do {
            self = .value(try body())
        } catch {
            self = .failure("\(error)")
        }
    }

    var value: T? {
        if case .value(let value) = self { return value }
        return nil
    }
}

/// One store imported on SQLite and copied row for row into a fresh PostgreSQL store, so that
/// one deletion can run on both and what each returns and keeps can be compared.
final class TwinStores {
    let mapper: Mapper
    let postgres: Store
    let postgresEngine: PostgresDeletionStoreEngine

    /// Imports with `setUp` into a SQLite store (which may rewrite timestamps too), rounds its
    /// times to whole seconds (PostgreSQL keeps microseconds), and copies every row, link and
    /// metadata value into the store at `url`, which gets the storage of `yaml` first.
    init(_ yaml: String, url: String, setUp: (Mapper) throws -> Void) throws {
        mapper = try Mapper(spec: MappingSpec.load(yaml: yaml, file: "test.yml"), store: .inMemory)
        try setUp(mapper)
        postgresEngine = PostgresDeletionStoreEngine(try PostgresEngine.open(url: url, create: true, busyTimeout: 30))
        postgres = Store(engine: postgresEngine, spec: mapper.spec)
        _ = try Store.migrate(postgresEngine, to: mapper.spec, allowDataLoss: false)
        try mapper.store.withLock { sqlite in
            try Self.roundTimes(in: sqlite)
            try Self.copy(sqlite, into: postgresEngine.base.connection)
        }
    }

    private static func roundTimes(in store: Store) throws {
        for entity in store.plan.entities where entity.spec.hasTimestamps {
            let times = ["_created_at", "_updated_at", "_seen_at"].map { "\(quote($0)) = round(\(quote($0)))" }
            try store.engine.run("UPDATE \(entity.table) SET " + times.joined(separator: ", "), [])
        }
    }

    private static func copy(_ store: Store, into connection: PostgresConnection) throws {
        let schema = StorageSchema(spec: store.spec, dialect: .postgres)
        // Rows go in from the last row id to the first, so that a result read in the tables'
        // physical order is not in row-id order by chance.
        var tables: [(name: String, columns: [PostgresCopyColumn], order: String)] = store.spec.entities.map { entity in
            let columns = schema.columns(of: entity).map { PostgresCopyColumn($0.name, copyType($0.typeName)) }
            return (entity.table, columns, "\(quote(entity.rowIDColumn)) DESC")
        }
        for link in store.spec.links {
            guard case .linkTable(let name) = link.storage else { continue }
            tables.append((name, ["source", "target", "position"].map { PostgresCopyColumn($0, .int8) }, "1 DESC, 2 DESC"))
        }
        for table in tables {
            let columns = table.columns.map { quote($0.name) }.joined(separator: ", ")
            let rows = try store.engine.rows("SELECT \(columns) FROM \(quote(table.name)) ORDER BY \(table.order)", [])
            try connection.copy(into: table.name, columns: table.columns) { writer in
                for row in rows { try writer.appendRow(row) }
            }
        }
        let meta = quote(StorageSchema.metadataTable)
        for row in try store.engine.rows(
            "SELECT \"key\", \"value\" FROM \(meta) WHERE \"key\" NOT IN ('schema', 'format', 'commits')", [])
        {
            try connection.run(
                "INSERT INTO \(meta) (\"key\", \"value\") VALUES ($1, $2) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\"",
                row)
        }
    }

    private static func copyType(_ typeName: String) -> PostgresColumnType {
        PostgresColumnType(rawValue: typeName) ?? .text
    }

    /// Runs `body` on the SQLite store, then on the PostgreSQL one, and expects the same value
    /// (or the same error), then the same rows in every table, and every link on PostgreSQL
    /// intact. Returns what SQLite's did.
    @discardableResult
    func expectAlike<T: Equatable>(
        _ body: (Store) throws -> T, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Outcome<T> {
        let sqlite = try mapper.store.withLock { store in Outcome { try body(store) } }
        let postgres = Outcome { try body(self.postgres) }
        #expect(postgres == sqlite, sourceLocation: sourceLocation)
        try expectSameContents(sourceLocation: sourceLocation)
        return sqlite
    }

    /// Expects both stores to hold the same rows, links and clean-up flag, and PostgreSQL's
    /// links to join rows that exist.
    func expectSameContents(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let sqlite = try mapper.store.withLock { try Self.contents(of: $0) }
        let postgres = try Self.contents(of: postgres)
        for table in sqlite.keys.sorted() {
            #expect(postgres[table] == sqlite[table], "table \(table)", sourceLocation: sourceLocation)
        }
        #expect(try self.postgres.integrityViolations() == [], sourceLocation: sourceLocation)
    }

    /// Every table's rows in row-id order (link tables by source and target), and the
    /// metadata that records a pending clean-up pass.
    static func contents(of store: Store) throws -> [String: [[StoredValue]]] {
        let schema = StorageSchema(spec: store.spec, dialect: store.engine.dialect)
        var contents: [String: [[StoredValue]]] = [:]
        for entity in store.plan.entities {
            let columns = schema.columns(of: entity.spec).map { quote($0.name) }.joined(separator: ", ")
            contents[entity.spec.table] = try store.engine.rows(
                "SELECT \(columns) FROM \(entity.table) ORDER BY \(entity.rowID)", [])
        }
        for link in store.spec.links {
            guard case .linkTable(let name) = link.storage else { continue }
            contents[name] = try store.engine.rows(
                "SELECT \"source\", \"target\", \"position\" FROM \(quote(name)) ORDER BY 1, 2", [])
        }
        contents[StorageSchema.metadataTable] = try store.engine.rows(
            "SELECT \"value\" FROM \(quote(StorageSchema.metadataTable)) WHERE \"key\" = 'cleanupPending'", [])
        return contents
    }
}

extension Store {
    /// The query of the row ids of `entity` that `condition` (on alias `r`, with `?`
    /// parameters) selects, then `order` and `limit`, in this store's SQL.
    func rowsWhere(
        _ entity: String, _ condition: String, _ parameters: [StoredValue] = [], order: String = "", limit: Int? = nil
    ) throws -> (EntityPlan, CompiledQuery) {
        let plan = try entityPlan(entity)
        var sql = "SELECT r.\(plan.rowID) FROM \(plan.table) r WHERE \(condition)"
        if !order.isEmpty { sql += " ORDER BY \(order)" }
        if let limit { sql += " LIMIT \(limit)" }
        return (plan, CompiledQuery(text: engine.dialect == .postgres ? PostgresSQL.numbered(sql) : sql, parameters: parameters))
    }

    /// Deletes what `rowsWhere` selects as `Mapper.delete` does, at time 2,000,000.
    func delete(
        _ entity: String, where condition: String, _ parameters: [StoredValue] = [], order: String = "", limit: Int? = nil,
        options: DeleteOptions = .init(explain: true)
    ) throws -> ImportReport {
        let (plan, query) = try rowsWhere(entity, condition, parameters, order: order, limit: limit)
        return try DeleteRun(store: self, now: 2_000_000, explain: options.explain).delete(plan, query, options: options)
    }

    /// Evicts rows of the entities with timestamps not seen since `cutoff`, when given, then
    /// runs the clean-up pass, as `Mapper.clean` does, at time 2,000,000.
    func clean(seenBefore cutoff: Double? = nil) throws -> ImportReport {
        let evicted = plan.entities.filter { $0.spec.hasTimestamps }
        return try DeleteRun(store: self, now: 2_000_000, explain: true).clean(evicting: evicted, seenBefore: cutoff)
    }

    /// Prunes `entity` as an import does, keeping `keepingRows` and the rows whose keys are
    /// `keys`, then runs the clean-up pass; returns the deletions.
    func prune(_ entity: String, keepingRows rows: [Int64], keys: [[StoredValue]]) throws -> [Deletion] {
        let plan = try entityPlan(entity)
        let deleter = Deleter(store: self)
        deleter.readsKeys = true
        let tracker = RowTracker(keyIsRowID: self.plan.entities.map(\.keyIsRowID))
        return try write {
            try deleter.reset()
            try deleter.engine.resetKept()
            try deleter.engine.keep(rows: rows)
            for key in keys { try deleter.engine.keep(plan, key: key) }
            try deleter.mark(plan, .notKept(tenants: nil))
            let pruned = try deleter.apply(.prune, tracker: tracker).deletions
            return pruned + (try cleanUp(isOn: true, mayHaveOrphans: true, deleter: deleter, tracker: tracker))
        }
    }
}
