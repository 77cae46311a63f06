import Foundation
import Testing

/// `jsonimport validate`: lists entities on success; every mapping error with file:line:col.
@Suite struct ValidateTests {
    @Test func validMappingsListEachEntityWithKeyAndCounts() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let result = try CLI.run(["validate", "--mappings", mappings])
        #expect(result == CLIResult(exitCode: 0, stdout: MappingFixtures.validReport, stderr: ""))
    }

    @Test func singleFileWithCompositeKeyIsListed() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(MappingFixtures.single, to: "members.yml")
        let result = try CLI.run(["--mappings=\(file.path)", "validate"])
        let report = """
            Membership  key: team, user  attributes: 3  relationships: 0
            1 entity in 1 file: the mappings are valid.

            """
        #expect(result == CLIResult(exitCode: 0, stdout: report, stderr: ""))
    }

    @Test func quietSilencesTheReport() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let result = try CLI.run(["validate", "--quiet", "--mappings=\(mappings)"])
        #expect(result == CLIResult(exitCode: 0, stdout: "", stderr: ""))
    }

    @Test func everyErrorIsReportedWithFileLineAndColumn() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.invalid, into: directory, folder: "Bad")
        let result = try CLI.run(["validate", "--mappings", mappings])
        let (a, b) = ("\(mappings)/a.yml", "\(mappings)/b.yml")
        let stderr = """
            error: \(a):6:14: unknown type 'strng' (did you mean 'string'?)
                  login: strng
                         ^
            error: \(a):8:19: unknown entity 'Team'
                  team: { to: Team, kind: one }
                              ^
            error: \(b):2:3: entity 'Repo' has no 'attributes'
              Repo:
              ^
            error: \(b):4:5: unknown key 'atributes' in entity 'Repo' (did you mean 'attributes'?)
                atributes:
                ^

            """
        #expect(result == CLIResult(exitCode: 1, stdout: "", stderr: stderr))
    }

    @Test func everyErrorLineStartsWithErrorAndALocation() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.invalid, into: directory, folder: "Bad")
        let result = try CLI.run(["validate", "--mappings", mappings])
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 4)
        #expect(errors.allSatisfy { $0.firstMatch(of: /^error: \S+\.yml:\d+:\d+: \S/) != nil }, "\(result)")
    }

    @Test func yamlSyntaxErrorIsReportedWithItsPosition() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(MappingFixtures.syntaxError, to: "broken.yml")
        let result = try CLI.run(["validate", "--mappings", file.path])
        let stderr = """
            error: \(file.path):5:1: did not find expected ',' or '}' (while parsing a flow mapping)

            ^

            """
        #expect(result == CLIResult(exitCode: 1, stdout: "", stderr: stderr))
    }

    @Test func missingMappingsLocationIsInvalidInput() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("nowhere")
        let result = try CLI.run(["validate", "--mappings", missing])
        let stderr = "error: \(missing):1:1: cannot read '\(missing)': no such file or directory\n"
        #expect(result == CLIResult(exitCode: 1, stdout: "", stderr: stderr))
    }

    @Test func validateNeverOpensTheStore() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let store = directory.path("store.sqlite")
        let result = try CLI.run(["validate", "--mappings", mappings, "--store", store])
        #expect(result.exitCode == 0)
        #expect(try directory.contents() == ["Mappings"])
        #expect(try !TestStore.exists(store))
    }
    /// `Wide` with `id` and `count - 1` more string attributes.
    private static func wide(_ count: Int) -> String {
        "entities:\n  Wide:\n    primaryKey: id\n    attributes:\n      id: int\n"
            + (1..<count).map { "      a\($0): string\n" }.joined()
    }

    @Test func anEntityWithMoreColumnsThanSQLiteHoldsIsRefusedByEveryCommand() throws {
        let workspace = try Workspace(mappings: ["wide.yml": Self.wide(1_997)])
        try workspace.write(#"[{"id": 1}]"#, to: "wide.json")
        let error = """
            error: Mappings/wide.yml:2:3: entity 'Wide' needs 2001 columns (1997 attributes, 4 link and bookkeeping columns); a SQLite table holds at most 2000
              Wide:
              ^

            """
        #expect(try workspace.run(["--mappings", "Mappings", "validate"]) == CLIResult(exitCode: 1, stdout: "", stderr: error))
        #expect(try workspace.run(["--mappings", "Mappings", "import", "Wide", "wide.json"]) == CLIResult(exitCode: 1, stdout: "", stderr: error))
        #expect(try workspace.run(["--mappings", "Mappings", "schema"]) == CLIResult(exitCode: 1, stdout: "", stderr: error))
        #expect(try !workspace.hasStore())
    }

    @Test(.sqliteStore("SQLite's limit of 2000 columns a table (PostgreSQL's is 1600)"))
    func anEntityWithAsManyColumnsAsSQLiteHoldsImportsAndReads() throws {
        let workspace = try Workspace(mappings: ["wide.yml": Self.wide(1_996)])
        let record = "{\"id\":1," + (1..<1_996).map { "\"a\($0)\":\"v\($0)\"" }.joined(separator: ",") + "}"
        try workspace.importing("[\(record)]", as: "Wide", file: "wide.json")
        try workspace.importing("[\(record.replacingOccurrences(of: "\"v1\"", with: "\"w1\""))]", as: "Wide", file: "wide.json")
        let query = try workspace.run(["query", "Wide", "--meta", "--format", "jsonl"])
        #expect(query.exitCode == 0, "\(query)")
        #expect(query.stdout.hasPrefix(#"{"id":1,"a1":"w1","a2":"v2","#), "\(query)")
        #expect(query.stdout.contains(#""a1995":"v1995","_createdAt":""#), "\(query)")
        #expect(try workspace.run(["delete", "Wide", "--id", "1", "--quiet"]) == CLIResult(exitCode: 0, stdout: "", stderr: ""))
    }
}
