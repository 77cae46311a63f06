import Foundation
import Testing

/// `jsonimport export`: records shaped like the API payload (SPEC 4.4), its options, and its
/// exit codes.
@Suite struct ExportCommandTests {
    /// A store holding ``Payloads/users`` (user 3 is a stub).
    private func usersWorkspace() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.importing(Payloads.users, as: "User", file: "users.json")
        return workspace
    }

    private let ana = #"{"id":1,"login":"ana","name":"Ana","contact":{"email":"ana@x.io"},"created_at":"2024-01-02T02:04:05.5Z","site_admin":true,"score":4.5,"bio":null,"topics":["swift","db"],"meta":{"plan":"pro","seats":1.50},"address":{"street":"Main St 1","city":"Oslo","zip":null},"repos":[10],"follower_ids":[2,3]}"#
    private let bo = #"{"id":2,"login":"bo","name":null,"contact":{"email":null},"created_at":"2023-06-01T00:00:00Z","site_admin":false,"score":null,"bio":null,"topics":null,"meta":null,"address":null,"repos":[11,12],"follower_ids":[]}"#

    // MARK: Output

    @Test func jsonLinesAtDepthZeroWriteRelationshipsAsKeysAndLeaveStubsOut() throws {
        let result = try usersWorkspace().run(["export", "User", "--format", "jsonl", "--depth", "0"])
        #expect(result == CLIResult(exitCode: 0, stdout: ana + "\n" + bo + "\n", stderr: ""))
    }

    @Test func jsonIsAnArrayAndTheDefaultDepthNestsTheRootsRelationships() throws {
        let result = try usersWorkspace().run(["export", "User", "--id", "2"])
        let repos = #""repos":[{"id":11,"name":"db","stars":0,"language":null,"owner":2,"tags":["swift"]},{"id":12,"name":"web","stars":2,"language":null,"owner":2,"tags":[]}]"#
        let expected = "[\n" + bo.replacingOccurrences(of: #""repos":[11,12]"#, with: repos) + "\n]\n"
        #expect(result == CLIResult(exitCode: 0, stdout: expected, stderr: ""))
    }

    @Test func depthTwoNestsTheRelationshipsOfNestedRecords() throws {
        let result = try usersWorkspace().run(["export", "Repo", "--id", "10", "--depth", "2", "--format", "jsonl"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains(#""owner":1,"tags":[{"name":"swift"},{"name":"cli"}]"#), "\(result)")
    }

    @Test func idsWhereAndFieldSelectionPickRecordsAndProperties() throws {
        let workspace = try usersWorkspace()
        let selected = try workspace.run(["export", "User", "--where", "login = 'bo' OR id = 1", "--id", "2", "--fields", "login,id"])
        #expect(selected == CLIResult(exitCode: 0, stdout: "[\n{\"id\":2,\"login\":\"bo\"}\n]\n", stderr: ""))
        let excepted = try workspace.run([
            "export", "Repo", "--id", "12", "--except", "tags,owner,language", "--format", "jsonl",
        ])
        #expect(excepted == CLIResult(exitCode: 0, stdout: "{\"id\":12,\"name\":\"web\",\"stars\":2}\n", stderr: ""))
        let none = try workspace.run(["export", "User", "--id", "3"])
        #expect(none == CLIResult(exitCode: 0, stdout: "[]\n", stderr: ""))
    }

    @Test func jsonIsWrappedUnderTheEntitysRootAndJSONLinesAreNot() throws {
        let workspace = try Workspace(mappings: ["shop.yml": """
            entities:
              Order:
                primaryKey: id
                root: data.orders
                attributes:
                  id: int
                  total: decimal

            """])
        try workspace.importing(#"{"data": {"orders": [{"id": 1, "total": "9.90"}]}}"#, as: "Order")
        let json = try workspace.run(["export", "Order"])
        #expect(json == CLIResult(exitCode: 0, stdout: "{\"data\":{\"orders\":[\n{\"id\":1,\"total\":9.90}\n]}}\n", stderr: ""))
        let lines = try workspace.run(["export", "Order", "--format", "jsonl"])
        #expect(lines == CLIResult(exitCode: 0, stdout: "{\"id\":1,\"total\":9.90}\n", stderr: ""))
    }

    @Test(arguments: ["0", "1", "2", "3"])
    func importingAnExportBackChangesNothing(depth: String) throws {
        let workspace = try usersWorkspace()
        for (entity, format) in [("User", "json"), ("Repo", "jsonl"), ("Tag", "json")] {
            let export = try workspace.run(["export", entity, "--depth", depth, "--format", format])
            #expect(export.exitCode == 0, "\(export)")
            try workspace.write(export.stdout, to: "export.\(format)")
            let result = try workspace.run(["import", entity, "export.\(format)", "--report", "json"])
            #expect(result.exitCode == 0, "\(result)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let changes = report?["changes"] as? [String: [String: Int]] ?? [:]
            #expect(!changes.isEmpty, "\(result)")
            for (name, counts) in changes {
                #expect(counts["inserted"] == 0 && counts["updated"] == 0 && counts["deleted"] == 0, "\(entity) \(name): \(counts)")
            }
        }
    }

    // MARK: Errors

    @Test func namesTheMappingsDoNotHaveAreUsageErrors() throws {
        let workspace = try usersWorkspace()
        let entity = try workspace.run(["export", "Usr"])
        #expect(entity == CLIResult(exitCode: 2, stdout: "", stderr: "error: unknown entity 'Usr' (did you mean 'User'?)\nSee 'jsonimport export --help'.\n"))
        let field = try workspace.run(["export", "User", "--fields", "id,logn"])
        #expect(field == CLIResult(exitCode: 2, stdout: "", stderr: "error: User has no field 'logn' (did you mean 'login'?)\nSee 'jsonimport export --help'.\n"))
        let filter = try workspace.run(["export", "User", "--where", "logn = 'x'"])
        #expect(filter == CLIResult(exitCode: 2, stdout: "", stderr: "error: invalid filter: User has no field 'logn' (did you mean 'login'?)\nSee 'jsonimport export --help'.\n"))
        let id = try workspace.run(["export", "User", "--id", "abc"])
        #expect(id == CLIResult(exitCode: 2, stdout: "", stderr: "error: 'abc' is not a valid int for User.id\nSee 'jsonimport export --help'.\n"))
    }

    @Test(arguments: [
        ["--depth", "-1"], ["--depth", "two"], ["--format", "table"], ["--fields", "id", "--except", "login"],
        ["--where", "login = "],
    ])
    func malformedOptionsAreUsageErrors(options: [String]) throws {
        let result = try usersWorkspace().run(["export", "User"] + options)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.hasSuffix("See 'jsonimport export --help'.\n"), "\(result)")
    }

    @Test func aMissingStoreIsAStoreErrorAndIsNotCreated() throws {
        let workspace = try Workspace()
        let result = try workspace.run(["export", "User"])
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasSuffix("jsonimport.sqlite' does not exist\n"), "\(result)")
        #expect(try !workspace.hasStore())
    }
}
