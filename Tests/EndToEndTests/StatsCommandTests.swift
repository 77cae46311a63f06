import Foundation
import Testing

/// `jsonimport stats --format json` (SPEC 4.1, 4.2): rows, stubs and links, zeros included.
@Suite struct StatsCommandTests {
    @Test func statsListsEveryEntityStubsAndForwardLinks() throws {
        let workspace = try Workspace()
        try workspace.importing(Payloads.users, as: "User", file: "users.json")
        let expected = #"{"entities":{"User":3,"Address":1,"Repo":3,"Tag":2},"stubs":{"User":1,"Address":0,"Repo":0,"Tag":0},"links":{"User.address":1,"User.repos":3,"User.followers":2,"Repo.tags":3}}"#
        #expect(try workspace.run(["stats", "--format", "json"]) == CLIResult(exitCode: 0, stdout: expected + "\n", stderr: ""))
    }

    @Test func statsOfAnEmptyStoreListsZeros() throws {
        let workspace = try Workspace()
        try workspace.importing("[]", as: "User")
        let expected = #"{"entities":{"User":0,"Address":0,"Repo":0,"Tag":0},"stubs":{"User":0,"Address":0,"Repo":0,"Tag":0},"links":{"User.address":0,"User.repos":0,"User.followers":0,"Repo.tags":0}}"#
        #expect(try workspace.run(["stats", "--format", "json"]) == CLIResult(exitCode: 0, stdout: expected + "\n", stderr: ""))
    }

    @Test func linksSetFromTheBackSideAreCountedOnceUnderTheForwardRelationship() throws {
        let mapping = """
            entities:
              Article:
                primaryKey: id
                attributes:
                  id: int
                relationships:
                  labels: { to: Label, kind: many }
              Label:
                primaryKey: name
                attributes:
                  name: string
                relationships:
                  articles: { to: Article, kind: many, inverse: labels }
            """
        let workspace = try Workspace(mappings: ["blog.yml": mapping])
        // Labels a and b start as stubs; a record fills a, article 2 is a stub.
        try workspace.importing(#"[{"id": 1, "labels": ["a", "b"]}]"#, as: "Article")
        try workspace.importing(#"[{"name": "c", "articles": [1, 2]}, {"name": "a", "articles": [1]}]"#, as: "Label", file: "labels.json")
        let expected = #"{"entities":{"Article":2,"Label":3},"stubs":{"Article":1,"Label":1},"links":{"Article.labels":4}}"#
        #expect(try workspace.run(["stats", "--format", "json"]) == CLIResult(exitCode: 0, stdout: expected + "\n", stderr: ""))
    }

    @Test func aDryRunLeavesTheCountsAsTheyWere() throws {
        let workspace = try Workspace()
        try workspace.importing(Payloads.users, as: "User", file: "users.json")
        let before = try workspace.run(["stats", "--format", "json"])
        try workspace.write(#"[{"id": 9, "repos": [{"id": 90, "name": "n", "tags": [{"name": "new"}]}]}]"#, to: "more.json")
        #expect(try workspace.run(["--quiet", "import", "User", "more.json", "--dry-run"]).exitCode == 0)
        #expect(try workspace.run(["stats", "--format", "json"]) == before)
    }

    @Test func statsOnAMissingStoreIsAStoreError() throws {
        let workspace = try Workspace()
        let result = try workspace.run(["stats", "--format", "json"])
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: store '"), "\(result)")
        #expect(try !workspace.hasStore())
    }
}
