import Foundation
import Testing

@testable import JSONImport

/// The same stored data in both stores: payloads imported into an in-memory SQLite store, then
/// every table copied row by row into a PostgreSQL schema of its own made with the PostgreSQL
/// DDL, with a ``PostgresEngine`` opened on it. Dates are first rounded to the microsecond in
/// the SQLite store, as PostgreSQL holds them, so both hold exactly the same values.
struct StorePair {
    let mapper: Mapper
    let sqlite: Store
    let postgres: PostgresEngine
    /// A connection of its own to the PostgreSQL schema, for running compiled queries.
    let connection: PostgresConnection

    var plan: ImportPlan { sqlite.plan }
    var sqliteEngine: any StoreEngine { sqlite.engine }

    func entity(_ name: String) throws -> EntityPlan { try #require(plan.entity(named: name)) }

    /// Runs `body` with a pair over `yaml` after `imports` (entity, JSON text) and then the
    /// SQLite statements of `adjust` (values import would refuse), in a schema dropped after it.
    static func with(
        _ yaml: String, imports: [(entity: String, json: String)], adjust: [(sql: String, values: [StoredValue])] = [],
        _ body: (StorePair) throws -> Void
    ) throws {
        let mapper = try Mapper(spec: MappingSpec.load(yaml: yaml, file: "test.yml"), store: .inMemory)
        for (entity, json) in imports { try mapper.importJSON(json, as: entity) }
        let store = try mapper.store.withLock { $0 }
        for (sql, values) in adjust { try store.engine.run(sql, values) }
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try copy(store, to: connection)
            let engine = try PostgresEngine.open(url: url, create: false, busyTimeout: 5)
            try body(StorePair(mapper: mapper, sqlite: store, postgres: engine, connection: connection))
        }
    }

    private static func copy(_ store: Store, to connection: PostgresConnection) throws {
        let schema = StorageSchema(spec: store.spec, dialect: .postgres)
        for statement in schema.statements { try connection.execute(statement) }
        var tables: [(name: String, rowID: String?, dates: [String])] = [(StorageSchema.metadataTable, nil, [])]
        for entity in store.spec.entities {
            let dates = schema.columns(of: entity).filter { $0.typeName == "timestamptz" }.map(\.name)
            tables.append((entity.table, entity.rowIDColumn, dates))
        }
        for link in store.spec.links {
            if case .linkTable(let name) = link.storage { tables.append((name, nil, [])) }
        }
        for table in tables {
            if let rowID = table.rowID {
                for date in table.dates { try roundToMicroseconds(store, table: table.name, column: date, rowID: rowID) }
            }
            let rows = try store.engine.rows("SELECT * FROM \(quote(table.name))", [])
            guard let width = rows.first?.count else { continue }
            let insert = "INSERT INTO \(quote(table.name)) VALUES (\((1...width).map { "$\($0)" }.joined(separator: ", ")))"
            for row in rows { try connection.run(insert, row) }
        }
    }

    private static func roundToMicroseconds(_ store: Store, table: String, column: String, rowID: String) throws {
        let rows = try store.engine.rows("SELECT \(quote(rowID)), \(quote(column)) FROM \(quote(table))", [])
        for row in rows {
            guard case .real(let seconds) = row[1], let microseconds = PostgresTimestamp.microseconds(fromSeconds: seconds) else {
                continue
            }
            let rounded = PostgresTimestamp.seconds(fromMicroseconds: microseconds)
            guard rounded != seconds else { continue }
            try store.engine.run("UPDATE \(quote(table)) SET \(quote(column)) = ? WHERE \(quote(rowID)) = ?", [.real(rounded), row[0]])
        }
    }

    // MARK: Comparing

    /// Expects both engines to give the same row ids and count for `selection` of `entity`, and
    /// the compiled query to select the same rows when run by itself; returns the row ids.
    @discardableResult
    func expectSameRows(
        _ entity: String, _ selection: RecordReader.Selection, _ label: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> [Int64] {
        let plan = try self.entity(entity)
        let expected = try sqliteEngine.rowIDs(plan, selection, plan: self.plan)
        let ids = try postgres.rowIDs(plan, selection, plan: self.plan)
        #expect(ids == expected, "\(entity): \(label)", sourceLocation: sourceLocation)
        let count = try postgres.count(plan, selection, plan: self.plan)
        #expect(count == expected.count, "count of \(entity): \(label)", sourceLocation: sourceLocation)
        let query = try postgres.compiledQuery(plan, selection, plan: self.plan)
        let compiled = try connection.rows(query.text, query.parameters).map { $0[0] }
        #expect(compiled == expected.map(StoredValue.integer), "compiled query of \(entity): \(label)", sourceLocation: sourceLocation)
        return expected
    }

    /// The ids of `entity`'s rows, ascending, as SQLite holds them.
    func allRows(_ entity: String) throws -> [Int64] {
        let plan = try self.entity(entity)
        return try sqliteEngine.rows("SELECT \(plan.rowID) FROM \(plan.table) ORDER BY 1", []).compactMap {
            if case .integer(let id) = $0[0] { return id }
            return nil
        }
    }
}

extension RecordReader.Selection {
    /// A selection by a filter's text, an order, a limit and an offset.
    static func filtered(
        _ filter: String? = nil, order: [(field: String, descending: Bool)] = [], limit: Int? = nil, offset: Int? = nil,
        excludesStubs: Bool = false
    ) throws -> RecordReader.Selection {
        var selection = RecordReader.Selection()
        selection.filter = try filter.map(FilterParser.parse)
        selection.order = order
        selection.limit = limit
        selection.offset = offset
        selection.excludesStubs = excludesStubs
        return selection
    }
}
