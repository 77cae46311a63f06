import Foundation
import Testing

@testable import JSONImport

/// A new PostgreSQL store's tables start without their indexes, which the first import that
/// fills them builds once its rows are in: the store then has every index and key its DDL
/// names, as if they had been there all along.
@Suite(
    .tags(.postgres),
    .enabled(
        if: TestPostgres.url != nil,
        "JSONIMPORT_TEST_POSTGRES names no PostgreSQL server (bash Scripts/test.sh starts a throwaway one)"))
struct PostgresDeferredIndexTests {
    static let yaml = PostgresImportRowsTests.yaml

    /// Every index and constraint of the tables of `schema`, as the catalog defines them.
    private static func catalog(_ admin: PostgresConnection, _ schema: String) throws -> [String] {
        try admin.rows(
            """
            SELECT c.relname || ' ' || pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
            WHERE c.relnamespace = $1::regnamespace
            UNION ALL
            SELECT c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid) FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
            WHERE c.relnamespace = $1::regnamespace
            ORDER BY 1
            """, [.text(quote(schema))]
        ).map { row in
            guard case .text(let text) = row[0] else { return "" }
            return text.replacingOccurrences(of: "\(quote(schema)).", with: "").replacingOccurrences(of: "\(schema).", with: "")
        }
    }

    /// The catalog of a schema made by running the DDL of `yaml` as it is.
    private static func expectedCatalog(_ yaml: String) throws -> [String] {
        var result: [String] = []
        try TestPostgres.withSchema { url, schema in
            let connection = try PostgresConnection(url: url)
            for statement in StorageSchema(spec: try MappingSpec.load(yaml: yaml, file: "m.yml"), dialect: .postgres).statements {
                try connection.execute(statement)
            }
            result = try catalog(connection, schema)
        }
        return result
    }

    private static func deferredTables(_ admin: PostgresConnection, _ schema: String) throws -> [String] {
        try admin.rows("SELECT \"key\" FROM \(quote(schema)).\"_jsonimport_meta\" WHERE \"key\" LIKE 'deferred:%' ORDER BY 1").map { row in
            guard case .text(let key) = row[0] else { return "" }
            return key
        }
    }

    /// What building `table`'s indexes after a commit takes, as its metadata row records it.
    private static func work(_ admin: PostgresConnection, _ schema: String, _ table: String) throws -> PostgresDeferredIndexes.Work {
        let rows = try admin.rows(
            "SELECT \"value\" FROM \(quote(schema)).\"_jsonimport_meta\" WHERE \"key\" = $1", [.text(PostgresDeferredIndexes.key(table))])
        guard case .text(let json) = try #require(rows.first)[0] else { throw StoreError(.corrupt, "no text") }
        let entry = try JSONDecoder().decode(PostgresDeferredIndexes.Table.self, from: Data(json.utf8))
        return PostgresDeferredIndexes.Work(table: table, size: 1, builds: entry.build)
    }

    /// A new store of ``yaml`` at `url`, and its engine (which lives as long as the mapper).
    private static func newStore(_ url: String) throws -> (Mapper, PostgresEngine) {
        let mapper = try Mapper(spec: try MappingSpec.load(yaml: yaml, file: "test.yml"), store: .postgres(URL(string: url)!))
        return (mapper, try engine(mapper))
    }

    /// Copies one row into `Tag`, as an import's hand-over does.
    private static func copyOneTag(_ engine: PostgresEngine) throws {
        try engine.connection.copy(into: "Tag", columns: [PostgresCopyColumn("_id", .int8), PostgresCopyColumn("name", .text)]) { rows in
            try rows.append(.integer(1))
            try rows.append(.text("swift"))
        }
    }

    private static func engine(_ mapper: Mapper) throws -> PostgresEngine {
        try #require(mapper.store.withLock { $0.engine as? PostgresEngine })
    }

    @Test func theFirstImportBuildsTheIndexesTheDDLNames() throws {
        let expected = try Self.expectedCatalog(Self.yaml)
        try TestPostgres.withSchema { url, schema in
            let admin = try PostgresConnection(url: url)
            let spec = try MappingSpec.load(yaml: Self.yaml, file: "test.yml")
            let mapper = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
            let created = try Self.catalog(admin, schema)
            #expect(!created.contains { $0.hasPrefix("User ") || $0.hasPrefix("Repo_tags ") }, "\(created)")
            #expect(created.contains { $0.hasPrefix("User__seen ") }, "seen tables keep their keys")
            #expect(try Self.deferredTables(admin, schema) == ["deferred:Address", "deferred:Repo", "deferred:Repo_tags", "deferred:Tag", "deferred:User", "deferred:User_followers"])

            // Nothing to write, then a failed import: still nothing built, nothing in the tables.
            try mapper.importData(Data("[]".utf8), as: "User")
            #expect(throws: (any Error).self) {
                try mapper.importData(Data(#"[{"id": 1, "login": "a"}, {"id": "two"}]"#.utf8), as: "User")
            }
            #expect(try Self.catalog(admin, schema) == created)

            let report = try mapper.importData(Data(PostgresImportRowsTests.users(30).utf8), as: "User")
            #expect(report.counts(for: "User").inserted > 30)
            #expect(try Self.catalog(admin, schema) == expected)
            #expect(try Self.deferredTables(admin, schema).isEmpty)

            // The store is done with it: a re-import reads nothing about it.
            let connection = try Self.engine(mapper).connection
            connection.statementLog = []
            try mapper.importData(Data(PostgresImportRowsTests.users(30, round: 1).utf8), as: "User")
            #expect(!(connection.statementLog ?? []).contains { $0.contains("deferred:") })
            #expect(try Self.catalog(admin, schema) == expected)
        }
    }

    /// The tables whose indexes the statements in `log` build: `CREATE … INDEX … ON "TABLE"`.
    private static func tablesIndexed(in log: [String]) -> Set<String> {
        var tables: Set<String> = []
        for statement in log {
            for part in statement.components(separatedBy: "; ") where part.hasPrefix("CREATE") && part.contains(" INDEX ") {
                guard let on = part.range(of: " ON \"") else { continue }
                tables.insert(String(part[on.upperBound...].prefix { $0 != "\"" }))
            }
        }
        return tables
    }

    /// After the commit, a first import with little to index builds it all on its own
    /// connection; one with more builds some tables' indexes there and the rest on a second
    /// connection at once. Either way the store ends with every index and key.
    @Test(arguments: [(30, false), (5_000, true)])
    func theIndexesAreBuiltAfterTheCommitOnOneOrTwoConnections(users: Int, onTwo: Bool) throws {
        let expected = try Self.expectedCatalog(Self.yaml)
        let all: Set<String> = ["Address", "Repo", "Repo_tags", "Tag", "User", "User_followers"]
        try TestPostgres.withSchema { url, schema in
            let admin = try PostgresConnection(url: url)
            let (mapper, engine) = try Self.newStore(url)
            let indexes = try all.reduce(0) { $0 + (try Self.work(admin, schema, $1).builds.count) }
            engine.connection.statementLog = []
            try mapper.importData(Data(PostgresImportRowsTests.users(users).utf8), as: "User")
            let log = try #require(engine.connection.statementLog)
            let here = Self.tablesIndexed(in: log)
            let builtHere = log.reduce(0) { $0 + $1.components(separatedBy: "; ").filter { $0.hasPrefix("CREATE") && $0.contains(" INDEX ") }.count }
            if onTwo {
                #expect(builtHere > 0 && builtHere < indexes, "\(builtHere) of \(indexes)")
            } else {
                #expect(here == all)
            }
            #expect(try Self.catalog(admin, schema) == expected)
            #expect(try Self.deferredTables(admin, schema).isEmpty)
            #expect(try admin.rows("SELECT count(*) FROM \(quote(schema)).\"Repo\"") == [[.integer(Int64(2 * users))]])
        }
    }

    /// The connections building after a commit take the indexes of the largest tables first,
    /// one at a time: the two indexes of one table may be built at once, one on each.
    @Test func theIndexesOfTheLargestTablesAreTakenFirst() {
        typealias Work = PostgresDeferredIndexes.Work
        let queue = PostgresDeferredIndexes.Queue([
            Work(table: "User", size: 38, builds: ["u1", "u2"]), Work(table: "Repo", size: 64, builds: ["r1", "r2"]),
            Work(table: "Tag", size: 0, builds: ["t1"]), Work(table: "Repo_tags", size: 56, builds: ["rt1", "rt2"]),
            Work(table: "Address", size: 4, builds: ["a1"]), Work(table: "Address__x", size: 4, builds: ["x1"]),
        ])
        var taken: [String] = []
        while let unit = queue.next() { taken.append(unit.build) }
        #expect(taken == ["r1", "r2", "rt1", "rt2", "u1", "u2", "a1", "x1", "t1"])
        #expect(queue.isEmpty)
    }

    /// Builds after a commit hold the store's writer lock shared; when a writer holds it (or
    /// waits for it), they leave the tables to it, and build once it is free.
    @Test func buildsAfterTheCommitLeaveTheTablesToAWriterHoldingTheLock() throws {
        try TestPostgres.withSchema { url, schema in
            let (mapper, engine) = try Self.newStore(url)
            defer { withExtendedLifetime(mapper) {} }
            let admin = try PostgresConnection(url: url)
            try admin.execute("INSERT INTO \(quote(schema)).\"Tag\" (\"_id\", \"name\") VALUES (1, 'swift')")
            let indexes = "SELECT count(*) FROM pg_index WHERE indrelid = '\(quote(schema)).\"Tag\"'::regclass"
            let lock = "\(PostgresConnection.lockClass), \(PostgresConnection.lockKey(schema: schema))"
            try admin.execute("SELECT pg_advisory_lock(\(lock))")
            engine.connection.buildIndexesAfterCommit([try Self.work(admin, schema, "Tag")], url: url)
            #expect(try admin.rows(indexes) == [[.integer(0)]])
            #expect(try Self.deferredTables(admin, schema).contains("deferred:Tag"))
            try admin.execute("SELECT pg_advisory_unlock(\(lock))")
            engine.connection.buildIndexesAfterCommit([try Self.work(admin, schema, "Tag")], url: url)
            #expect(try admin.rows(indexes) == [[.integer(2)]])
            #expect(!(try Self.deferredTables(admin, schema).contains("deferred:Tag")))
        }
    }

    /// With enough to index, the two connections building after a commit build the two indexes
    /// of one table at once, one each; each records its own as built in the table's metadata
    /// row, and the primary key goes on once both are in.
    @Test func theTwoIndexesOfOneTableAreBuiltAtOnceOnTwoConnections() throws {
        let expected = try Self.expectedCatalog(Self.yaml).filter { $0.hasPrefix("Tag ") }
        try TestPostgres.withSchema { url, schema in
            let (mapper, engine) = try Self.newStore(url)
            defer { withExtendedLifetime(mapper) {} }
            let admin = try PostgresConnection(url: url)
            // Rows of SQL of the user's own: each index takes a while to build.
            try admin.execute(
                "INSERT INTO \(quote(schema)).\"Tag\" (\"_id\", \"name\") SELECT n, 'tag-' || n FROM generate_series(1, 300000) AS n")
            var work = try Self.work(admin, schema, "Tag")
            #expect(work.builds.count == 2)
            work.size = PostgresDeferredIndexes.twoConnectionsSize
            engine.connection.statementLog = []
            engine.connection.buildIndexesAfterCommit([work], url: url)
            let here = try #require(engine.connection.statementLog).filter { $0.contains("CREATE UNIQUE INDEX") }
            #expect(here.count == 1, "\(here)")
            #expect(try Self.catalog(admin, schema).filter { $0.hasPrefix("Tag ") } == expected)
            #expect(!(try Self.deferredTables(admin, schema).contains("deferred:Tag")))
        }
    }

    /// Within a write transaction, a statement other than a `COPY` that follows rows copied
    /// into such a table finds its indexes there, as its plan expects.
    @Test func aStatementAfterACopyFindsTheTablesIndexes() throws {
        try TestPostgres.withSchema { url, _ in
            let (mapper, engine) = try Self.newStore(url)
            defer { withExtendedLifetime(mapper) {} }
            let indexes = "SELECT count(*) FROM pg_index WHERE indrelid = '\"Tag\"'::regclass"
            let counts: [StoredValue] = try engine.transaction(.write) {
                let before = try engine.connection.rows(indexes)[0][0]
                try Self.copyOneTag(engine)
                return ScopeOutcome(value: [before, try engine.connection.rows(indexes)[0][0]], keepsWork: false)
            }
            #expect(counts == [.integer(0), .integer(2)])
            #expect(try engine.connection.rows(indexes) == [[.integer(0)]], "undone with the transaction")
        }
    }

    /// Building the indexes lets parallel workers help with smaller tables than the server's
    /// setting does, then puts the setting back as the transaction had it.
    @Test func buildingTheIndexesLeavesTheParallelSettingAsItWas() throws {
        try TestPostgres.withSchema { url, _ in
            let (mapper, engine) = try Self.newStore(url)
            defer { withExtendedLifetime(mapper) {} }
            let read = "SELECT current_setting('min_parallel_table_scan_size'), (SELECT count(*) FROM pg_index WHERE indrelid = '\"Tag\"'::regclass)"
            for value in ["4MB", "64kB"] {
                let found: [[StoredValue]] = try engine.transaction(.write) {
                    try engine.connection.execute("SET LOCAL min_parallel_table_scan_size = '\(value)'")
                    try Self.copyOneTag(engine)
                    // The read finds the indexes built first, and the setting as it was.
                    return ScopeOutcome(value: try engine.connection.rows(read), keepsWork: false)
                }
                #expect(found == [[.text(value), .integer(2)]])
            }
        }
    }

    /// Rows put in a new store's tables by SQL of the user's own, before any import: the next
    /// write transaction of a store it opens builds the indexes before its first statement.
    @Test func rowsWrittenBySQLGetTheirIndexesBeforeTheNextWrite() throws {
        try TestPostgres.withSchema { url, schema in
            let spec = try MappingSpec.load(yaml: Self.yaml, file: "test.yml")
            _ = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
            let admin = try PostgresConnection(url: url)
            try admin.execute("INSERT INTO \(quote(schema)).\"Tag\" (\"_id\", \"name\") VALUES (1, 'swift')")
            let mapper = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
            let engine = try Self.engine(mapper)
            let indexes = "SELECT count(*) FROM pg_index WHERE indrelid = '\"Tag\"'::regclass"
            let count = try engine.transaction(.write) { ScopeOutcome(value: try engine.connection.rows(indexes), keepsWork: false) }
            #expect(count == [[.integer(2)]])
            try mapper.importData(Data(#"[{"id": 1, "repos": [{"id": 10, "tags": [{"name": "swift"}]}]}]"#.utf8), as: "User")
            #expect(try Self.catalog(admin, schema) == Self.expectedCatalog(Self.yaml))
            #expect(try admin.rows("SELECT count(*) FROM \(quote(schema)).\"Tag\"") == [[.integer(1)]])
        }
    }

    /// A reader holding a table while the first import commits neither waits for it nor holds
    /// it up: the import keeps its unique indexes, and the primary-key constraints go on with a
    /// later write.
    @Test func aReaderDoesNotHoldUpTheFirstImport() throws {
        let expected = try Self.expectedCatalog(Self.yaml)
        try TestPostgres.withSchema { url, schema in
            let admin = try PostgresConnection(url: url)
            let spec = try MappingSpec.load(yaml: Self.yaml, file: "test.yml")
            let mapper = try Mapper(spec: spec, store: .postgres(URL(string: url)!), configuration: .init(busyTimeout: 5))
            let reader = try PostgresConnection(url: url)
            try reader.beginRead()
            #expect(try reader.rows("SELECT count(*) FROM \"User\"") == [[.integer(0)]])

            let started = Date()
            try mapper.importData(Data(PostgresImportRowsTests.users(30).utf8), as: "User")
            #expect(Date().timeIntervalSince(started) < 4, "the import did not wait for the reader")
            #expect(try reader.rows("SELECT count(*) FROM \"User\"") == [[.integer(0)]], "the reader's snapshot")
            let built = try Self.catalog(admin, schema)
            #expect(built.contains(#"User CREATE UNIQUE INDEX "User_pkey" ON "User" USING btree (id)"#), "\(built)")
            #expect(!built.contains { $0.hasPrefix("User User_pkey PRIMARY KEY") })
            #expect(try Self.deferredTables(admin, schema).contains("deferred:User"))
            try reader.rollback()

            try mapper.importData(Data(PostgresImportRowsTests.users(30).utf8), as: "User")
            #expect(try Self.catalog(admin, schema) == expected)
            #expect(try Self.deferredTables(admin, schema).isEmpty)
        }
    }

    /// A store whose schema is renamed before its first rows: the indexes it still lacks are
    /// built in the schema it has now, as the rows come.
    @Test func aStoreRenamedBeforeItsFirstRowsGetsItsIndexes() throws {
        let expected = try Self.expectedCatalog(Self.yaml)
        try TestPostgres.withSchema { url, schema in
            let spec = try MappingSpec.load(yaml: Self.yaml, file: "test.yml")
            _ = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
            let admin = try PostgresConnection(url: url)
            let renamed = schema + "_renamed"
            try admin.execute("ALTER SCHEMA \(quote(schema)) RENAME TO \(quote(renamed))")
            // Renamed back at the end, for the schema's clean-up.
            defer { try? admin.execute("ALTER SCHEMA \(quote(renamed)) RENAME TO \(quote(schema))") }
            let moved = url.replacingOccurrences(of: "schema=\(schema)", with: "schema=\(renamed)")
            let mapper = try Mapper(spec: spec, store: .postgres(URL(string: moved)!))
            let report = try mapper.importData(Data(PostgresImportRowsTests.users(30).utf8), as: "User")
            #expect(report.counts(for: "User").inserted > 30)
            #expect(try Self.catalog(admin, renamed) == expected)
            #expect(try Self.deferredTables(admin, renamed).isEmpty)
        }
    }

    /// A migration of a store never filled starts from the schema its record names.
    @Test func aStoreNeverFilledMigratesAsAnyOther() throws {
        let changed = Self.yaml.replacingOccurrences(of: "attributes: { city: string }", with: "attributes: { city: string, zip: string }")
            .replacingOccurrences(of: "primaryKey: name\n    attributes: { name: string }", with: "primaryKey: label\n    attributes: { label: string }")
        #expect(changed != Self.yaml)
        let expected = try Self.expectedCatalog(changed)
        try TestPostgres.withSchema { url, schema in
            let admin = try PostgresConnection(url: url)
            _ = try Mapper(spec: try MappingSpec.load(yaml: Self.yaml, file: "test.yml"), store: .postgres(URL(string: url)!))
            let plan = try Mapper.migrate(store: url, to: try MappingSpec.load(yaml: changed, file: "test.yml"), allowDataLoss: true)
            #expect(plan.losesData)
            #expect(try Self.deferredTables(admin, schema).isEmpty)
            #expect(try Self.catalog(admin, schema).filter { !$0.contains("_pkey") } == expected.filter { !$0.contains("_pkey") })
        }
    }

    /// The rows a new store's first import copies are held back and sent in one `COPY` per
    /// table, not one per batch; rows copied into a table that has its indexes go at once.
    @Test func aNewStoresRowsGoInOneCopyPerTable() throws {
        try TestPostgres.withSchema { url, _ in
            let (mapper, engine) = try Self.newStore(url)
            engine.connection.statementLog = []
            try mapper.importData(Data(PostgresImportRowsTests.users(300).utf8), as: "User", options: PostgresImportRowsTests.inBatches)
            let copies = try #require(engine.connection.statementLog).filter { $0.hasPrefix("COPY ") }
            let tables = copies.map { $0.split(separator: " ")[1] }
            #expect(tables.sorted() == [#""Address""#, #""Repo""#, #""Repo_tags""#, #""Tag""#, #""User""#, #""User_followers""#], "\(copies)")
            #expect(try engine.connection.rows("SELECT count(*) FROM \"User\"") == [[.integer(600)]], "300 users and 300 stubs")
            #expect(try engine.connection.rows("SELECT count(*) FROM \"Repo_tags\"") == [[.integer(1_200)]])

            let held: Bool = try engine.transaction(.write) {
                try engine.connection.copy(into: "Tag", columns: [PostgresCopyColumn("_id", .int8), PostgresCopyColumn("name", .text)]) { rows in
                    try rows.append(.integer(1_000))
                    try rows.append(.text("new"))
                }
                return ScopeOutcome(value: !engine.connection.held.isEmpty, keepsWork: false)
            }
            #expect(!held)
        }
    }

    /// Held rows are on the server for the next statement of their transaction, whatever it is;
    /// a rollback to a savepoint taken before them drops them, and so does an error while they
    /// are written, for the rows of that copy only.
    @Test func heldRowsAreThereForTheNextStatementAndGoWithARollback() throws {
        try TestPostgres.withSchema { url, _ in
            let (mapper, engine) = try Self.newStore(url)
            defer { withExtendedLifetime(mapper) {} }
            let connection = engine.connection
            let names = "SELECT string_agg(\"name\", ',' ORDER BY \"_id\") FROM \"Tag\""
            func copy(_ tags: [(Int64, StoredValue)]) throws {
                try connection.copy(into: "Tag", columns: [PostgresCopyColumn("_id", .int8), PostgresCopyColumn("name", .text)]) { rows in
                    for (id, name) in tags {
                        try rows.append(.integer(id))
                        try rows.append(name)
                    }
                }
            }
            let found: [[StoredValue]] = try engine.transaction(.write) {
                try copy([(1, .text("swift"))])
                #expect(!connection.held.isEmpty)
                try connection.savepoint("s")
                #expect(connection.held.isEmpty, "sent before the savepoint")
                try copy([(2, .text("rust"))])
                try connection.rollbackTo("s")
                #expect(connection.held.isEmpty, "dropped with the work after the savepoint")
                try copy([(3, .text("go"))])
                #expect(throws: StoreError.self) { try copy([(4, .text("c")), (5, .integer(7))]) }
                return ScopeOutcome(value: try connection.rows(names), keepsWork: true)
            }
            #expect(found == [[.text("swift,go")]], "the rows of the failed copy are not held")
            #expect(try connection.rows(names) == [[.text("swift,go")]])
        }
    }

    /// Past ``PostgresHeldCopies/budget`` bytes, the table holding the most rows goes to the
    /// server at once.
    @Test func heldRowsStayWithinTheirBudget() throws {
        try TestPostgres.withSchema { url, _ in
            let (mapper, engine) = try Self.newStore(url)
            defer { withExtendedLifetime(mapper) {} }
            let connection = engine.connection
            let name = String(repeating: "x", count: 1_000)
            let sizes: [Int] = try engine.transaction(.write) {
                var sizes: [Int] = []
                for copy in 0..<20 {
                    try connection.copy(into: "Tag", columns: [PostgresCopyColumn("_id", .int8), PostgresCopyColumn("name", .text)]) { rows in
                        for i in 0..<1_000 {
                            try rows.append(.integer(Int64(copy * 1_000 + i)))
                            try rows.append(.text(name + String(copy * 1_000 + i)))
                        }
                    }
                    sizes.append(connection.held.size)
                }
                return ScopeOutcome(value: sizes, keepsWork: true)
            }
            #expect(sizes.allSatisfy { $0 <= PostgresHeldCopies.budget }, "\(sizes)")
            #expect(sizes.contains { $0 < sizes.max()! }, "rows sent before the end: \(sizes)")
            #expect(try connection.rows("SELECT count(*), count(DISTINCT \"_id\") FROM \"Tag\"") == [[.integer(20_000), .integer(20_000)]])
        }
    }
}
