import Foundation
import Testing

/// `query`, `export` and `delete` with filters and option lists far past the usual: they run,
/// or stop with a usage error (exit 2) naming the limit before the store is asked; never exit 3
/// on a healthy store.
@Suite struct CommandLimitTests {
    /// Users 1 (ana) and 2 (bo) follow each other; ana owns repo 5.
    private func fixture() throws -> StoreFixture {
        try StoreFixture(
            payload: #"[{"id": 1, "login": "ana", "follower_ids": [2], "repos": [{"id": 5, "name": "x"}]},"#
                + #" {"id": 2, "login": "bo", "follower_ids": [1]}]"#, as: "User")
    }

    private static func path(_ relationship: String, times count: Int, then rest: String) -> String {
        Array(repeating: relationship, count: count).joined(separator: ".") + "." + rest
    }

    /// `id = 1 OR (id = 2 AND (NOT (… leaf)))`: `levels` levels, each nested part last.
    private static func nested(_ levels: Int, around leaf: String) -> String {
        var text = leaf
        for level in 0..<levels {
            switch level % 3 {
            case 0: text = "NOT (\(text))"
            case 1: text = "id = 1 OR (\(text))"
            default: text = "id = 2 AND (\(text))"
            }
        }
        return text
    }

    private func ids(_ fixture: StoreFixture, _ args: [String]) throws -> CLIResult {
        try CLI.run(["query", "User", "--fields", "id", "--format", "jsonl"] + args + fixture.options)
    }

    private func usage(_ message: String, _ command: String) -> CLIResult {
        CLIResult(exitCode: 2, stdout: "", stderr: "error: \(message)\nSee 'jsonimport \(command) --help'.\n")
    }

    private let both = CLIResult(exitCode: 0, stdout: "{\"id\":1}\n{\"id\":2}\n", stderr: "")
    private let ana = CLIResult(exitCode: 0, stdout: "{\"id\":1}\n", stderr: "")
    private let bo = CLIResult(exitCode: 0, stdout: "{\"id\":2}\n", stderr: "")

    @Test(arguments: [5_000, 100_000])
    func anyNumberOfIdsRuns(count: Int) throws {
        let fixture = try fixture()
        let ids = (1...count).map { "--id=\($0)" }
        #expect(try self.ids(fixture, ids) == both)
        let export = try CLI.run(["export", "User", "--depth", "0", "--fields", "id", "--format", "jsonl"] + ids + fixture.options)
        #expect(export == CLIResult(exitCode: 0, stdout: "{\"id\":1}\n{\"id\":2}\n", stderr: ""))
        let delete = try CLI.run(["delete", "User", "--no-cascade", "--report", "json"] + ids + fixture.options)
        #expect(delete.exitCode == 0, "\(delete)")
        #expect(delete.stdout.contains(#""User":{"inserted":0,"updated":0,"unchanged":0,"deleted":2}"#), "\(delete)")
        #expect(try fixture.sql(#"SELECT count(*) FROM "User""#) == "0\n")
    }

    @Test func pathsThroughTenOrThirtyTwoLinkTablesRun() throws {
        let fixture = try fixture()
        #expect(try ids(fixture, ["--where", Self.path("followers", times: 10, then: "login = 'ana'")]) == ana)
        #expect(try ids(fixture, ["--where", Self.path("followers", times: 11, then: "login = 'ana'")]) == bo)
        #expect(try ids(fixture, ["--where", Self.path("followers", times: 32, then: "login = 'ana'")]) == ana)
        #expect(try ids(fixture, ["--where", "followers.repos.owner.followers.login = 'bo'"]) == bo)
        let export = try CLI.run(
            ["export", "User", "--depth", "0", "--fields", "id", "--format", "jsonl",
             "--where", Self.path("followers", times: 10, then: "login = 'bo'")] + fixture.options)
        #expect(export == CLIResult(exitCode: 0, stdout: "{\"id\":2}\n", stderr: ""))
    }

    @Test func aPathOfMoreThanThirtyTwoRelationshipsIsAUsageError() throws {
        let fixture = try fixture()
        let long = Self.path("followers", times: 33, then: "login = 'ana'")
        let refused = "invalid filter: a path may follow at most 32 relationships"
        #expect(try ids(fixture, ["--where", long]) == usage(refused, "query"))
        #expect(try CLI.run(["export", "User", "--where", long] + fixture.options) == usage(refused, "export"))
        #expect(try CLI.run(["delete", "User", "--where", long] + fixture.options) == usage(refused, "delete"))
    }

    @Test func chainedNotsFoldAway() throws {
        let fixture = try fixture()
        #expect(try ids(fixture, ["--where", String(repeating: "NOT ", count: 23) + "login = 'ana'"]) == bo)
        #expect(try ids(fixture, ["--where", String(repeating: "NOT ", count: 24) + "login = 'ana'"]) == ana)
        #expect(try ids(fixture, ["--where", String(repeating: "NOT ", count: 25_000) + "login = 'ana'"]) == ana)
        let delete = try CLI.run(["delete", "User", "--where", String(repeating: "NOT ", count: 23) + "id != 2"] + fixture.options)
        #expect(delete.exitCode == 0, "\(delete)")
        #expect(try fixture.sql(#"SELECT id FROM "User""#) == "1\n")
    }

    @Test func nestingUpToThirtyTwoLevelsRunsAndDeeperIsAUsageError() throws {
        let fixture = try fixture()
        let leaf = Self.path("followers", times: 32, then: "login = 'ana'")
        #expect(try ids(fixture, ["--where", Self.nested(32, around: leaf)]) == both)
        let export = try CLI.run(["export", "User", "--depth", "0", "--fields", "id", "--where", Self.nested(32, around: leaf)] + fixture.options)
        #expect(export.exitCode == 0, "\(export)")
        let refused = "invalid filter: AND, OR and NOT nested more than 32 levels deep"
        #expect(try ids(fixture, ["--where", Self.nested(33, around: leaf)]) == usage(refused, "query"))
        #expect(try CLI.run(["delete", "User", "--where", Self.nested(33, around: leaf)] + fixture.options) == usage(refused, "delete"))
        #expect(try fixture.sql(#"SELECT count(*) FROM "User""#) == "2\n")
    }

    @Test func likePatternsOfUpTo50000BytesRun() throws {
        let fixture = try fixture()
        let longest = "an" + String(repeating: "%", count: 49_998)
        #expect(try ids(fixture, ["--where", "login LIKE '\(longest)'"]) == ana)
        let refused = "invalid filter: LIKE pattern longer than 50000 bytes (50001 bytes)"
        #expect(try ids(fixture, ["--where", "login LIKE '\(longest)%'"]) == usage(refused, "query"))
        #expect(try CLI.run(["delete", "User", "--where", "login LIKE '\(longest)%'"] + fixture.options) == usage(refused, "delete"))
    }

    @Test func twoThousandOrderTermsRun() throws {
        let fixture = try fixture()
        let order = ["--order", "login:desc"] + Array(repeating: "--order=login", count: 2_000)
        #expect(try ids(fixture, order) == CLIResult(exitCode: 0, stdout: "{\"id\":2}\n{\"id\":1}\n", stderr: ""))
    }
}
