import Foundation
import JSONImport
import Testing

/// `jsonimport schema`: the DDL, one statement per `;`, accepted by sqlite3.
@Suite struct SchemaTests {
    @Test func schemaIsAcceptedBySQLite() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let result = try CLI.run(["schema", "--mappings", mappings])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasSuffix(";\n"))

        let tables = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name;\n"
        let sqlite = try SQLite.run(result.stdout + tables)
        #expect(sqlite.exitCode == 0, "\(sqlite)")
        #expect(sqlite.stderr == "")
        let names = Set(sqlite.stdout.split(separator: "\n").map(String.init))
        #expect(names.isSuperset(of: ["User", "Address", "Repo", "Tag"]), "\(sqlite)")
    }

    @Test(.enabled(if: PSQL.url != nil, "needs a PostgreSQL server: JSONIMPORT_TEST_POSTGRES (Scripts/test.sh starts one)"))
    func postgresSchemaIsAcceptedByPostgreSQL() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let result = try CLI.run(["schema", "--dialect", "postgres", "--mappings", mappings])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("\"_stub\" bool NOT NULL DEFAULT false"))
        #expect(!result.stdout.contains("REFERENCES"))
        let tables = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1;"
        let psql = try PSQL.run(result.stdout + tables)
        #expect(psql.exitCode == 0, "\(psql)")
        let names = Set(psql.stdout.split(separator: "\n").map(String.init))
        #expect(names.isSuperset(of: ["_jsonimport_meta", "User", "Address", "Repo", "Tag"]), "\(psql)")
    }

    /// `Examples/tenants/Mappings`, distributed by organisation.
    private static let tenantMappings: String = {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }  // file, EndToEndTests, Tests
        return root.appendingPathComponent("Examples/tenants/Mappings").path
    }()

    @Test func citusDialectDistributesTablesByTheirTenant() throws {
        let result = try CLI.run(["schema", "--dialect", "citus", "--mappings", Self.tenantMappings])
        #expect(result.exitCode == 0, "\(result)")
        let postgres = try CLI.run(["schema", "--dialect", "postgres", "--mappings", Self.tenantMappings])
        #expect(result.stdout.hasPrefix(postgres.stdout))
        let calls = result.stdout.dropFirst(postgres.stdout.count).split(separator: "\n")
        #expect(calls == [
            #"SELECT create_reference_table('"_jsonimport_meta"');"#,
            #"SELECT create_distributed_table('"Org"', 'id', colocate_with => 'none');"#,
            #"SELECT create_distributed_table('"Org__seen"', '_id', colocate_with => '"Org"');"#,
            #"SELECT create_distributed_table('"Member"', 'orgId', colocate_with => '"Org"');"#,
            #"SELECT create_distributed_table('"Member__seen"', 'orgId', colocate_with => '"Org"');"#,
            #"SELECT create_distributed_table('"Address"', 'orgId', colocate_with => '"Org"');"#,
            #"SELECT create_distributed_table('"Address__seen"', 'orgId', colocate_with => '"Org"');"#,
            #"SELECT create_distributed_table('"Project"', 'orgId', colocate_with => '"Org"');"#,
            #"SELECT create_distributed_table('"Project__seen"', 'orgId', colocate_with => '"Org"');"#,
            #"SELECT create_reference_table('"Tag"');"#,
            #"SELECT create_reference_table('"Tag__seen"');"#,
            #"SELECT create_distributed_table('"Member_friends"', 'orgId', colocate_with => '"Org"');"#,
            #"SELECT create_distributed_table('"Project_tags"', 'orgId', colocate_with => '"Org"');"#,
        ])
        // Every unique index and primary key of a distributed table holds the tenant, as Citus requires.
        #expect(postgres.stdout.contains(#"PRIMARY KEY ("orgId", "_id")"#))
        #expect(postgres.stdout.contains(#"CREATE UNIQUE INDEX "Member_key" ON "Member"("orgId", "id")"#))
        #expect(postgres.stdout.contains(#"PRIMARY KEY ("orgId", "source", "target")"#))
        #expect(postgres.stdout.contains(#"CREATE INDEX "Member_friends_target" ON "Member_friends"("orgId", "target")"#))
    }

    @Test(.enabled(if: PSQL.url != nil, "needs a PostgreSQL server: JSONIMPORT_TEST_POSTGRES (Scripts/test.sh starts one)"))
    func distributedSchemaIsAcceptedByPostgreSQL() throws {
        let result = try CLI.run(["schema", "--dialect", "postgres", "--mappings", Self.tenantMappings])
        let psql = try PSQL.run(result.stdout)
        #expect(psql.exitCode == 0, "\(psql)")
    }

    @Test func eachDialectTypesColumnsItsOwnWay() throws {
        let spec = try MappingSpec.load(yaml: """
            version: 1
            entities:
              Item:
                primaryKey: sku
                attributes: { sku: string, count: int, price: decimal, ok: bool, at: date, token: uuid, ratio: double }
            """, file: "items.yml")
        let sqlite = StorageSchema(spec: spec).columns(of: spec[entity: "Item"]).map(\.typeName)
        let postgres = StorageSchema(spec: spec, dialect: .postgres).columns(of: spec[entity: "Item"]).map(\.typeName)
        #expect(sqlite == ["INTEGER", "TEXT", "INTEGER", "TEXT", "INTEGER", "REAL", "TEXT", "REAL", "REAL", "REAL", "REAL", "INTEGER"])
        let text = "text COLLATE \"C\""
        #expect(postgres == ["int8", text, "int8", text, "bool", "timestamptz", "uuid", "float8"]
            + ["timestamptz", "timestamptz", "timestamptz", "bool"])
    }

    @Test func anUnknownDialectIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(MappingFixtures.single, to: "members.yml")
        let result = try CLI.run(["schema", "--dialect", "mysql", "--mappings", file.path])
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: invalid value 'mysql' for option '--dialect': expected one of sqlite, postgres, citus\n"))
    }

    @Test func schemaPrintsTheLibrarysStatementsEachEndedBySemicolon() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let statements = StorageSchema(spec: try MappingSpec.load(from: mappings)).statements
        let result = try CLI.run(["schema"], env: ["JSONIMPORT_MAPPINGS": mappings])
        let expected = statements.map { $0 + ";\n" }.joined()
        #expect(result == CLIResult(exitCode: 0, stdout: expected, stderr: ""))
    }

    @Test func everyStatementEndsWithSemicolonAndNewline() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(MappingFixtures.single, to: "members.yml")
        let result = try CLI.run(["schema", "--mappings", file.path])
        #expect(result.exitCode == 0)
        let statements = result.stdout.split(separator: ";\n", omittingEmptySubsequences: false)
        #expect(statements.last == "")
        #expect(statements.dropLast().allSatisfy { !$0.isEmpty && !$0.hasSuffix(";") })
        #expect(statements.contains { $0.hasPrefix("CREATE TABLE \"Membership\"") }, "\(result)")
        #expect(try SQLite.run(result.stdout).exitCode == 0)
    }

    @Test func quietDoesNotSilenceTheSchema() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(MappingFixtures.single, to: "members.yml")
        let loud = try CLI.run(["schema", "--mappings", file.path])
        let quiet = try CLI.run(["--quiet", "schema", "--mappings", file.path])
        #expect(quiet == loud)
        #expect(!quiet.stdout.isEmpty)
    }

    @Test func invalidMappingsPrintNoSchema() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.invalid, into: directory, folder: "Bad")
        let schema = try CLI.run(["schema", "--mappings", mappings])
        let validate = try CLI.run(["validate", "--mappings", mappings])
        #expect(schema == CLIResult(exitCode: 1, stdout: "", stderr: validate.stderr))
    }

    @Test func schemaNeverOpensTheStore() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(MappingFixtures.single, to: "members.yml")
        let store = directory.path("s.sqlite")
        let result = try CLI.run(["schema", "--mappings", file.path], env: ["JSONIMPORT_STORE": store])
        #expect(result.exitCode == 0)
        #expect(try directory.contents() == ["members.yml"])
        #expect(try !TestStore.exists(store))
    }
}

/// The system's `sqlite3` shell.
/// `psql` against the test server (`JSONIMPORT_TEST_POSTGRES`, which `Scripts/test.sh` starts).
enum PSQL {
    /// The test server's URL, when one is given.
    static let url = ProcessInfo.processInfo.environment["JSONIMPORT_TEST_POSTGRES"]

    /// Runs `sql` in a schema of its own, created first and dropped after, stopping at the
    /// first error.
    static func run(_ sql: String) throws -> CLIResult {
        let schema = "schema_test_\(UUID().uuidString.prefix(8).lowercased())"
        let script = "CREATE SCHEMA \(schema);\nSET search_path TO \(schema);\n\(sql)\nDROP SCHEMA \(schema) CASCADE;\n"
        return try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/psql"), [url ?? "", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"],
            environment: ProcessInfo.processInfo.environment, stdin: script)
    }
}

enum SQLite {
    /// Runs `sql` in a fresh in-memory database.
    static func run(_ sql: String) throws -> CLIResult {
        try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-bail", ":memory:"],
            environment: ProcessInfo.processInfo.environment, stdin: sql)
    }
}
