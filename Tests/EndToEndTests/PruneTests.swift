import Foundation
import Testing

/// `jsonimport import --prune`: sync mode deletes the root entity's rows the payload left out.
@Suite struct PruneTests {
    @Test func pruneDeletesRowsThePayloadLeftOutWithTheirCascades() throws {
        let fixture = try StoreFixture(payload: StoreFixture.users, as: "User")
        // User 1 is unchanged: the follower link from user 2 is not one of user 1's links.
        let payload = try fixture.directory.write(#"[{"id": 1, "login": "ana"}]"#, to: "users.json")
        let result = try CLI.run(
            ["import", "User", payload.path, "--prune", "--report", "json", "--explain"] + fixture.options)
        let report = #"{"entity":"User","records":1,"skipped":0,"dryRun":false,"#
            + #""changes":{"User":{"inserted":0,"updated":0,"unchanged":1,"deleted":1},"#
            + #""Repo":{"inserted":0,"updated":0,"unchanged":0,"deleted":1}},"#
            + #""orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[],"#
            + #""deletions":[{"entity":"User","key":2,"reason":"prune"},{"entity":"Repo","key":7,"reason":"cascade"}]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
    }

    @Test func pruneWithAnEmptyPayloadDeletesEveryRowOfTheRootEntity() throws {
        let fixture = try StoreFixture(payload: StoreFixture.users, as: "User")
        let result = try CLI.run(["import", "User", "-", "--prune", "--quiet"] + fixture.options, stdin: "[]")
        #expect(result == CLIResult(exitCode: 0, stdout: "", stderr: ""))
        #expect(try fixture.sql(#"SELECT count(*) FROM "User"; SELECT count(*) FROM "Repo"; SELECT count(*) FROM "Tag";"#) == "0\n0\n0\n")
    }
}
