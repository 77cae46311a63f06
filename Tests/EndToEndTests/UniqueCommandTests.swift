import Foundation
import Testing

/// `unique` through the command line: renames that swap values import, a duplicate left at the
/// end is the later record's error, and `skip` leaves that record out, standard input included.
@Suite struct UniqueCommandTests {
    private let mappings = [
        "repos.yml": """
            entities:
              Repo:
                primaryKey: id
                attributes:
                  id: int
                  name: { type: string, unique: true }

            """
    ]

    private func workspace() throws -> Workspace {
        let workspace = try Workspace(mappings: mappings)
        try workspace.importing(#"[{"id": 1, "name": "api"}, {"id": 2, "name": "web"}]"#, as: "Repo")
        return workspace
    }

    @Test func repositoriesRenamedIntoEachOthersNamesImport() throws {
        let workspace = try workspace()
        try workspace.write(#"[{"id": 1, "name": "web"}, {"id": 2, "name": "api"}]"#, to: "renamed.json")
        let result = try workspace.run(["import", "Repo", "renamed.json", "--report", "json"])
        #expect(result.exitCode == 0, "\(result)")
        let query = try workspace.run(["query", "Repo", "--format", "jsonl"])
        #expect(query.stdout == "{\"id\":1,\"name\":\"web\"}\n{\"id\":2,\"name\":\"api\"}\n")
    }

    @Test func aDuplicateIsTheLaterRecordsErrorNamingTheHolder() throws {
        let workspace = try workspace()
        try workspace.write(#"[{"id": 3, "name": "cli"}, {"id": 4, "name": "api"}]"#, to: "dup.json")
        let result = try workspace.run(["import", "Repo", "dup.json"])
        #expect(result == CLIResult(
            exitCode: 1, stdout: "",
            stderr: #"error: dup.json: record 1 at $[1].name: 'name' must be unique: "api" (key 'name') is also held by Repo 1"# + "\n"))
    }

    /// A `unique` attribute that is part of a composite key: a value held by another row is the
    /// record's error at once (a key cannot wait for the end of the import as other values do),
    /// in the same words on every store; and a `unique` key found by a reference's `targetKey`
    /// in the same import.
    @Test func aUniqueKeyPartHeldByAnotherRowIsTheRecordsErrorOnEveryStore() throws {
        let workspace = try Workspace(mappings: ["items.yml": """
            entities:
              Item:
                primaryKey: [region, sku]
                attributes: { region: string, sku: { type: string, unique: true } }
              Part:
                primaryKey: code
                attributes: { code: { type: string, unique: true } }
              Order:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  parts: { to: Part, kind: many }
                  first: { to: Part, kind: one, by: id, targetKey: code, missing: error }
            """])
        try workspace.write(#"[{"region": "eu", "sku": "A"}, {"region": "us", "sku": "A"}, {"region": "us", "sku": "B"}]"#, to: "i.json")
        let result = try workspace.run(["import", "Item", "i.json", "--on-error", "skip", "--report", "json"])
        #expect(result.stdout.contains(
            #""errors":[{"file":"i.json","record":1,"path":"$[1].sku","message":"'sku' must be unique: \"A\" (key 'sku') is also held by Item (\"eu\", \"A\")"}]"#),
            "\(result)")
        #expect(try workspace.run(["query", "Item", "--format", "jsonl"]).stdout
            == #"{"region":"eu","sku":"A"}"# + "\n" + #"{"region":"us","sku":"B"}"# + "\n")
        try workspace.write(#"[{"id": 1, "parts": [{"code": "p1"}], "first": "p1"}]"#, to: "o.json")
        #expect(try workspace.run(["import", "Order", "o.json", "--quiet"]).exitCode == 0)
        #expect(try workspace.run(["query", "Order", "--format", "jsonl"]).stdout == #"{"id":1,"parts":["p1"],"first":"p1"}"# + "\n")
    }

    @Test func skipLeavesTheRecordOutWhenReadFromStandardInput() throws {
        let workspace = try workspace()
        let result = try workspace.run(
            ["import", "Repo", "-", "--on-error", "skip", "--report", "json"],
            stdin: #"[{"id": 3, "name": "api"}, {"id": 4, "name": "cli"}]"#)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains(#""records":2,"skipped":1"#), "\(result)")
        #expect(result.stdout.contains(#""errors":[{"file":"-","record":0,"path":"$[0].name","message":"'name' must be unique: \"api\" (key 'name') is also held by Repo 1"}]"#), "\(result)")
        let query = try workspace.run(["query", "Repo", "--fields", "id", "--format", "jsonl"])
        #expect(query.stdout == "{\"id\":1}\n{\"id\":2}\n{\"id\":4}\n")
    }
}
