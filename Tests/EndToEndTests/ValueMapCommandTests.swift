import Foundation
import Testing

/// `nullIf`, `map` and `present` through the command line (SPEC 1.2): validated with
/// positions, applied on import, written back by export.
@Suite struct ValueMapCommandTests {
    static let mapping = """
        version: 1
        defaults: { keyStyle: snake_case }
        entities:
          Issue:
            primaryKey: id
            attributes:
              id: int
              homepage: { type: url, nullIf: "" }
              state: { type: int, map: { open: 1, closed: 2 } }
              isPullRequest: { key: pull_request, type: bool, present: true }
        """

    @Test func importQueryExportAndImportAgain() throws {
        let workspace = try Workspace(mappings: ["issues.yml": Self.mapping])
        try workspace.write(
            #"[{"id": 1, "homepage": "", "state": "closed", "pull_request": {}}, {"id": 2, "state": "open"}]"#, to: "issues.json")
        #expect(try workspace.run(["import", "Issue", "issues.json", "--quiet"]).exitCode == 0)
        let query = try workspace.run(["query", "Issue"])
        #expect(query.stdout == """
            [
            {"id":1,"homepage":null,"state":2,"isPullRequest":true},
            {"id":2,"homepage":null,"state":1,"isPullRequest":false}
            ]

            """)
        let export = try workspace.run(["export", "Issue"])
        #expect(export.stdout.contains(#"{"id":1,"homepage":null,"state":"closed","pull_request":true}"#))
        try workspace.write(export.stdout, to: "export.json")
        let again = try workspace.run(["import", "Issue", "export.json"])
        #expect(again.stdout.contains("Issue: 0 inserted, 0 updated, 2 unchanged, 0 deleted"), "\(again)")
    }

    @Test func aValueOutsideTheMapNamesItsPath() throws {
        let workspace = try Workspace(mappings: ["issues.yml": Self.mapping])
        try workspace.write(#"[{"id": 1, "state": "merged"}]"#, to: "issues.json")
        let result = try workspace.run(["import", "Issue", "issues.json"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(
            #"issues.json: record 0 at $[0].state: string "merged" is not a key of the 'map' of 'state', which has no 'mapDefault'"#),
            "\(result)")
    }

    @Test func badMapValuesAreReportedWithTheirPosition() throws {
        let bad = Self.mapping.replacingOccurrences(of: "closed: 2", with: "closed: two")
            .replacingOccurrences(of: "type: bool, present", with: "type: string, present")
        let workspace = try Workspace(mappings: ["issues.yml": bad])
        let result = try workspace.run(["validate"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(#"error: ./Mappings/issues.yml:9:51: invalid 'map' value for 'Issue.state': expected int, found string "two""#), "\(result)")
        #expect(result.stderr.contains("error: ./Mappings/issues.yml:10:57: 'present' applies only to bool attributes ('Issue.isPullRequest' is string)"), "\(result)")
    }
}
