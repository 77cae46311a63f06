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
