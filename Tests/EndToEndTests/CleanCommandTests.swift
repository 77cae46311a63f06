import Foundation
import Testing

/// `jsonimport clean`: the clean-up pass and eviction by age (SPEC 2.5, 4.1, 4.2).
@Suite struct CleanCommandTests {
    /// SPEC 1's example plus an entity without timestamps.
    private static let files = MappingFixtures.valid.merging([
        "logs.yml": """
            entities:
              Log:
                primaryKey: id
                timestamps: false
                attributes: { id: int }

            """
    ]) { $1 }

    @Test func olderThanEvictsThenCleansUpAndPrintsTheJSONReport() throws {
        let fixture = try StoreFixture(Self.files, payload: StoreFixture.users, as: "User")
        try fixture.sql(TestStore.aging("Repo", by: 7200, where: "id = 5"))
        let result = try CLI.run(["clean", "--older-than", "1h", "--report", "json", "--explain"] + fixture.options)
        let report = #"{"entity":null,"records":0,"skipped":0,"dryRun":false,"#
            + #""changes":{"User":{"inserted":0,"updated":1,"unchanged":0,"deleted":0},"#
            + #""Repo":{"inserted":0,"updated":0,"unchanged":0,"deleted":1},"#
            + #""Tag":{"inserted":0,"updated":0,"unchanged":0,"deleted":1}},"#
            + #""orphansRemoved":{"Tag":1},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[],"#
            + #""deletions":[{"entity":"Repo","key":5,"reason":"evict"},{"entity":"Tag","key":"c","reason":"orphan"}]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
    }

    @Test func entityLimitsEvictionAndDurationsTakeEveryUnit() throws {
        let fixture = try StoreFixture(Self.files, payload: StoreFixture.users, as: "User")
        try fixture.sql(TestStore.aging("User", by: 100_000) + TestStore.aging("Repo", by: 100_000))
        for duration in ["2d", "48h", "2880m", "172800s", "1.5d"] {
            let result = try CLI.run(["clean", "--older-than", duration, "--entity", "Repo", "--quiet"] + fixture.options)
            #expect(result == CLIResult(exitCode: 0, stdout: "", stderr: ""), "\(duration)")
            #expect(try fixture.sql(#"SELECT count(*) FROM "Repo";"#) == "3\n", "\(duration)")
        }
        let result = try CLI.run(["clean", "--older-than", "1d", "--entity", "Repo"] + fixture.options)
        #expect(result == CLIResult(exitCode: 0, stdout: """
            clean: 5 rows deleted
              User: 0 inserted, 2 updated, 0 unchanged, 0 deleted
              Repo: 0 inserted, 0 updated, 0 unchanged, 3 deleted
              Tag: 0 inserted, 0 updated, 0 unchanged, 2 deleted
              orphans removed: Tag 2

            """, stderr: ""))
        #expect(try fixture.sql(#"SELECT count(*) FROM "User";"#) == "2\n")
    }

    /// An age reaching before year 0000, however large, evicts nothing more and fails on no
    /// store (PostgreSQL's timestamps end long before such a cutoff).
    @Test func agesPastYearZeroEvictNothingOnEveryStore() throws {
        let fixture = try StoreFixture(Self.files, payload: StoreFixture.users, as: "User")
        for duration in ["3000000d", "99999999999999999d", "9223372036854775807s"] {
            let result = try CLI.run(["clean", "--older-than", duration] + fixture.options)
            #expect(result == CLIResult(exitCode: 0, stdout: "clean: 0 rows deleted\n", stderr: ""), "\(duration)")
        }
        #expect(try fixture.sql(#"SELECT count(*) FROM "Repo";"#) == "3\n")
    }

    @Test func cleanWithoutAgeRemovesOrphansOnly() throws {
        let fixture = try StoreFixture(Self.files, payload: StoreFixture.users, as: "User")
        try fixture.sql(#"DELETE FROM "Repo_tags" WHERE source = 7;"#)
        let result = try CLI.run(["clean", "--report", "json"] + fixture.options)
        #expect(result.stdout == #"{"entity":null,"records":0,"skipped":0,"dryRun":false,"changes":{},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[]}"# + "\n")
        try fixture.sql(#"DELETE FROM "Repo_tags";"#)
        let cleaned = try CLI.run(["clean", "--report", "json"] + fixture.options)
        #expect(cleaned.stdout.contains(#""orphansRemoved":{"Tag":2}"#), "\(cleaned)")
    }

    @Test func malformedDurationsAndEntitiesAreUsageErrors() throws {
        let fixture = try StoreFixture(Self.files, payload: StoreFixture.users, as: "User")
        let durationError = "invalid value '%@' for option '--older-than': expected a duration with a unit, s, m, h or d (90s, 15m, 12h, 30d)"
        let cases: [([String], String)] = [
            (["--older-than", "30"], durationError.replacingOccurrences(of: "%@", with: "30")),
            (["--older-than", "3w"], durationError.replacingOccurrences(of: "%@", with: "3w")),
            (["--older-than", "-1d"], durationError.replacingOccurrences(of: "%@", with: "-1d")),
            (["--older-than", "1d", "--entity", "Rpo"], "unknown entity 'Rpo' (did you mean 'Repo'?)"),
            (["--older-than", "1d", "--entity", "Log"],
             "Log has 'timestamps: false': its rows have no seenAt and are never evicted"),
            (["--entity", "Repo"], "option '--entity' needs '--older-than': it picks the entities to evict from"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["clean"] + arguments + fixture.options)
            let expected = CLIResult(exitCode: 2, stdout: "", stderr: "error: \(message)\nSee 'jsonimport clean --help'.\n")
            #expect(result == expected, "\(arguments)")
        }
    }

    @Test func missingStoreIsAStoreError() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let store = directory.path("none.sqlite")
        let result = try CLI.run(["clean", "--mappings", mappings, "--store", store])
        #expect(result.exitCode == 3, "\(result)")
        #expect(try !TestStore.exists(store))
    }
}
