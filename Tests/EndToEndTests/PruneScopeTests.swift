import Foundation
import Testing

/// `import --prune --prune-scope EXPR` (SPEC 4.1): a partial sync prunes only the root rows
/// matching the filter, such as one repository's issues.
@Suite struct PruneScopeTests {
    static let mapping = """
        entities:
          Repo:
            primaryKey: id
            attributes: { id: int, name: string }
          Issue:
            primaryKey: id
            attributes: { id: int, title: string, state: string }
            relationships:
              repo: { to: Repo, kind: one, by: id }
        """

    private func workspace() throws -> Workspace {
        let workspace = try Workspace(mappings: ["m.yml": Self.mapping])
        try workspace.importing(#"[{"id": 1, "name": "app"}, {"id": 2, "name": "lib"}]"#, as: "Repo", file: "repos.json")
        try workspace.importing(
            #"[{"id": 10, "repo": 1, "state": "open"}, {"id": 11, "repo": 1, "state": "open"}, {"id": 20, "repo": 2, "state": "open"}, {"id": 21, "repo": 2, "state": "closed"}]"#,
            as: "Issue", file: "issues.json")
        return workspace
    }

    @Test func onlyTheRowsInScopeThatThePayloadLeftOutArePruned() throws {
        let workspace = try workspace()
        // A sync of repository 1's issues that no longer lists issue 11.
        try workspace.write(#"[{"id": 10, "repo": 1, "title": "still here"}]"#, to: "app.json")
        let result = try workspace.run(["import", "Issue", "app.json", "--prune", "--prune-scope", "repo.name = 'app'", "--explain"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("deleted Issue 11: prune"), "\(result)")
        #expect(try workspace.run(["query", "Issue", "--fields", "id"]).stdout == "[\n{\"id\":10},\n{\"id\":20},\n{\"id\":21}\n]\n")
        // The scope is read after the records: an issue moved into scope by this very import counts.
        try workspace.write(#"[{"id": 10, "repo": 1}, {"id": 21, "repo": 2, "state": "open"}]"#, to: "open.json")
        let open = try workspace.run(["import", "Issue", "open.json", "--prune", "--prune-scope", "state = 'open'", "--report", "json"])
        #expect(open.stdout.contains(#""Issue":{"inserted":0,"updated":1,"unchanged":1,"deleted":1}"#), "\(open)")
        #expect(try workspace.run(["query", "Issue", "--fields", "id"]).stdout == "[\n{\"id\":10},\n{\"id\":21}\n]\n")
    }

    @Test func aScopeNeedsPruneAndAValidFilter() throws {
        let workspace = try workspace()
        let alone = try workspace.run(["import", "Issue", "issues.json", "--prune-scope", "state = 'open'"])
        #expect(alone.exitCode == 2 && alone.stderr.contains("--prune-scope applies only with --prune"), "\(alone)")
        let bad = try workspace.run(["import", "Issue", "issues.json", "--prune", "--prune-scope", "repo.nam = 'app'"])
        #expect(bad.exitCode == 2, "\(bad)")
        #expect(bad.stderr.contains("prune scope: invalid filter: Repo has no field 'nam' (did you mean 'name'?)"), "\(bad)")
        #expect(try workspace.run(["query", "Issue", "--fields", "id"]).stdout.contains("21"))
    }
}
