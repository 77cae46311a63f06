import Foundation
import TestAPIServer
import Testing

/// `--prune-scope EXPR` on the example mappings: prune only the root rows a filter selects,
/// once the records are applied, from files or across the pages of a fetch.
@Suite struct FetchPruneScopeTests {
    private static let repos = #"""
        [{"id": 5, "name": "a", "language": "Swift"}, {"id": 6, "name": "b", "language": "Swift"},
         {"id": 7, "name": "c", "language": "C"}, {"id": 8, "name": "d"}]
        """#

    private func report(records: Int, unchanged: Int, deleted: Int, deletions: String) -> String {
        #"{"entity":"Repo","records":\#(records),"skipped":0,"dryRun":false,"#
            + #""changes":{"Repo":{"inserted":0,"updated":0,"unchanged":\#(unchanged),"deleted":\#(deleted)}},"#
            + #""orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[],"deletions":[\#(deletions)]}"# + "\n"
    }

    @Test func onlyTheRowsTheScopeSelectsArePruned() throws {
        let workspace = try Workspace()
        try workspace.importing(Self.repos, as: "Repo")
        try workspace.write(#"[{"id": 5, "name": "a", "language": "Swift"}]"#, to: "swift.json")
        let result = try workspace.run(
            ["import", "Repo", "swift.json", "--prune", "--prune-scope", "language = 'Swift'", "--report", "json", "--explain"])
        #expect(result == CLIResult(
            exitCode: 0, stdout: report(records: 1, unchanged: 1, deleted: 1, deletions: #"{"entity":"Repo","key":6,"reason":"prune"}"#),
            stderr: ""))
        let left = try workspace.run(["query", "Repo", "--fields", "id", "--format", "jsonl"])
        #expect(left.stdout == #"{"id":5}"# + "\n" + #"{"id":7}"# + "\n" + #"{"id":8}"# + "\n")
    }

    @Test func aFetchPrunesAcrossItsPagesWithinTheScope() throws {
        let api = try TestAPIServer([
            "/repos": [.init(body: #"[{"id": 5, "name": "a", "language": "Swift"}]"#, headers: ["Link": #"<{base}/repos?page=2>; rel="next""#])],
            "/repos?page=2": [.init(body: #"[{"id": 8, "name": "d"}]"#)],
        ])
        let workspace = try Workspace()
        try workspace.importing(Self.repos, as: "Repo")
        let result = try workspace.fetch(
            "Repo", api.url("/repos"), ["--prune", "--prune-scope", "language = 'Swift' OR language IS NULL", "--report", "json"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains(#""Repo":{"inserted":0,"updated":0,"unchanged":2,"deleted":1}"#), "\(result)")
        let left = try workspace.run(["query", "Repo", "--fields", "id", "--format", "jsonl"])
        #expect(left.stdout == #"{"id":5}"# + "\n" + #"{"id":7}"# + "\n" + #"{"id":8}"# + "\n")
    }

    @Test(arguments: [
        (["--prune-scope", "language = 'C'"], "--prune-scope applies only with --prune"),
        (["--prune", "--prune-scope", "lang = 'C'"], "prune scope: invalid filter: Repo has no field 'lang'"),
        (["--prune", "--prune-scope", "language ="], "prune scope: invalid filter at column 11: expected a value"),
    ])
    func aScopeThatCannotApplyIsAUsageErrorAndChangesNothing(_ options: [String], _ message: String) throws {
        let workspace = try Workspace()
        try workspace.importing(Self.repos, as: "Repo")
        let before = try TestStore.state(workspace.store)
        try workspace.write("[]", to: "none.json")
        let result = try workspace.run(["import", "Repo", "none.json"] + options)
        #expect(result == CLIResult(exitCode: 2, stdout: "", stderr: "error: \(message)\nSee 'jsonimport import --help'.\n"))
        #expect(try TestStore.state(workspace.store) == before)
    }
}
