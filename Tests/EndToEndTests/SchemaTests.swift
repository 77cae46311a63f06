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
    }
}

/// The system's `sqlite3` shell.
enum SQLite {
    /// Runs `sql` in a fresh in-memory database.
    static func run(_ sql: String) throws -> CLIResult {
        try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-bail", ":memory:"],
            environment: ProcessInfo.processInfo.environment, stdin: sql)
    }
}
