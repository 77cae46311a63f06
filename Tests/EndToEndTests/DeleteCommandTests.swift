import Foundation
import Testing

/// `jsonimport delete`: onDelete rules, clean-up, reports and exit codes (SPEC 2.5, 4.1, 4.2).
@Suite struct DeleteCommandTests {
    @Test func deleteByIdPrintsTheJSONReportWithEveryDeletion() throws {
        let fixture = try StoreFixture(payload: StoreFixture.users, as: "User")
        let result = try CLI.run(["delete", "User", "--id", "1", "--report", "json", "--explain"] + fixture.options)
        let report = #"{"entity":"User","records":0,"skipped":0,"dryRun":false,"#
            + #""changes":{"User":{"inserted":0,"updated":1,"unchanged":0,"deleted":1},"#
            + #""Address":{"inserted":0,"updated":0,"unchanged":0,"deleted":1},"#
            + #""Repo":{"inserted":0,"updated":0,"unchanged":0,"deleted":2},"#
            + #""Tag":{"inserted":0,"updated":0,"unchanged":0,"deleted":1}},"#
            + #""orphansRemoved":{"Tag":1},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[],"#
            + #""deletions":[{"entity":"User","key":1,"reason":"delete"},{"entity":"Address","key":null,"reason":"cascade"},"#
            + #"{"entity":"Repo","key":5,"reason":"cascade"},{"entity":"Repo","key":6,"reason":"cascade"},"#
            + #"{"entity":"Tag","key":"c","reason":"orphan"}]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
        #expect(try fixture.sql(#"SELECT id FROM "User"; SELECT id FROM "Repo"; SELECT name FROM "Tag";"#) == "2\n7\nswift\n")
    }

    @Test func textReportAndQuiet() throws {
        let fixture = try StoreFixture(payload: StoreFixture.users, as: "User")
        let result = try CLI.run(["delete", "Repo", "--where", "name = 'z'", "--explain"] + fixture.options)
        let text = """
            delete Repo: 1 row deleted
              User: 0 inserted, 1 updated, 0 unchanged, 0 deleted
              Repo: 0 inserted, 0 updated, 0 unchanged, 1 deleted
              deleted Repo 7: delete

            """
        #expect(result == CLIResult(exitCode: 0, stdout: text, stderr: ""))
        let quiet = try CLI.run(["--quiet", "delete", "Repo", "--id", "6"] + fixture.options)
        #expect(quiet == CLIResult(exitCode: 0, stdout: "", stderr: ""))
        let json = try CLI.run(["--quiet", "delete", "Repo", "--id", "6", "--report", "json"] + fixture.options)
        #expect(json.stdout.hasPrefix(#"{"entity":"Repo","#))
    }

    @Test func noCascadeAndNoCleanupDeleteTheNamedRowsOnly() throws {
        let fixture = try StoreFixture(payload: StoreFixture.users, as: "User")
        let result = try CLI.run(
            ["delete", "User", "--id", "1", "--id", "2", "--no-cascade", "--no-cleanup", "--report", "json"] + fixture.options)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains(#""changes":{"User":{"inserted":0,"updated":0,"unchanged":0,"deleted":2},"Repo":{"inserted":0,"updated":3,"unchanged":0,"deleted":0}}"#), "\(result)")
        #expect(try fixture.sql(#"SELECT count(*) FROM "Repo" WHERE owner IS NULL; SELECT count(*) FROM "Address";"#) == "3\n1\n")
    }

    @Test func denyRefusalExitsOneAndLeavesTheStoreUnchanged() throws {
        let fixture = try StoreFixture(StoreFixture.denyingFiles, payload: StoreFixture.users, as: "User")
        let before = try fixture.sql(#"SELECT count(*) FROM "User"; SELECT count(*) FROM "Repo"; SELECT count(*) FROM "Tag";"#)
        let result = try CLI.run(["delete", "User", "--where", "id > 0", "--report", "json"] + fixture.options)
        let stderr = """
            error: cannot delete User 1: Repo.owner links 2 rows (onDelete: deny on User.repos)
            error: cannot delete User 2: Repo.owner links 1 row (onDelete: deny on User.repos)

            """
        let report = #"{"entity":"User","records":0,"skipped":0,"dryRun":false,"changes":{},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":["#
            + #"{"file":null,"record":null,"path":"$","message":"cannot delete User 1: Repo.owner links 2 rows (onDelete: deny on User.repos)"},"#
            + #"{"file":null,"record":null,"path":"$","message":"cannot delete User 2: Repo.owner links 1 row (onDelete: deny on User.repos)"}]}"#
        #expect(result == CLIResult(exitCode: 1, stdout: report + "\n", stderr: stderr))
        #expect(try fixture.sql(#"SELECT count(*) FROM "User"; SELECT count(*) FROM "Repo"; SELECT count(*) FROM "Tag";"#) == before)
    }

    @Test func unknownNamesAndMalformedFiltersAreUsageErrors() throws {
        let fixture = try StoreFixture(payload: StoreFixture.users, as: "User")
        let cases: [([String], String)] = [
            (["delete", "Usr", "--id", "1"], "unknown entity 'Usr' (did you mean 'User'?)"),
            (["delete", "User", "--where", "logn = 'ana'"],
             "invalid filter: User has no field 'logn' (did you mean 'login'?)"),
            (["delete", "User", "--id", "one"], "'one' is not a valid int for User.id"),
            (["delete", "User"], "name the rows to delete with --id or --where"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments + fixture.options)
            let expected = CLIResult(exitCode: 2, stdout: "", stderr: "error: \(message)\nSee 'jsonimport delete --help'.\n")
            #expect(result == expected, "\(arguments)")
        }
        let malformed = try CLI.run(["delete", "User", "--where", "login = "] + fixture.options)
        #expect(malformed.exitCode == 2, "\(malformed)")
        #expect(malformed.stderr.hasPrefix("error: invalid filter"), "\(malformed)")
        #expect(try fixture.sql(#"SELECT count(*) FROM "User";"#) == "2\n")
    }

    @Test func missingStoreIsAStoreError() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let store = directory.path("none.sqlite")
        let result = try CLI.run(["delete", "User", "--id", "1", "--mappings", mappings, "--store", store])
        #expect(result == CLIResult(exitCode: 3, stdout: "", stderr: "error: store '\(store)' does not exist\n"))
        #expect(try directory.contents() == ["Mappings"])
        #expect(try !TestStore.exists(store))
    }
}
