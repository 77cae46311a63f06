import Foundation
import Testing

/// `jsonimport import`: the JSON report of SPEC 4.2 field for field, exit codes of SPEC 4, and
/// the options of SPEC 4.1.
@Suite struct ImportCommandTests {
    /// A payload whose second record has an error deep inside, and whose third has a bad key.
    static let badUsers = """
        [{"id": 6, "login": "f"},
         {"id": 5, "repos": [{"id": 20, "name": "x", "stars": "many"}]},
         {"id": "x"},
         {"id": 7}]
        """

    // MARK: --report json

    @Test func jsonReportOfAFreshImportCountsEveryEntityAndStub() throws {
        let workspace = try Workspace()
        try workspace.write(Payloads.users, to: "users.json")
        let result = try workspace.run(["import", "User", "users.json", "--report", "json"])
        let report = #"{"entity":"User","records":2,"skipped":0,"dryRun":false,"changes":{"User":{"inserted":3,"updated":0,"unchanged":0,"deleted":0},"Address":{"inserted":1,"updated":0,"unchanged":0,"deleted":0},"Repo":{"inserted":3,"updated":0,"unchanged":0,"deleted":0},"Tag":{"inserted":2,"updated":0,"unchanged":0,"deleted":0}},"orphansRemoved":{},"stubs":{"User":1},"skippedLinks":{},"staleRecords":{},"errors":[]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
    }

    @Test func jsonReportOfTheSameFileAgainIsAllUnchanged() throws {
        let workspace = try Workspace()
        try workspace.importing(Payloads.users, as: "User", file: "users.json")
        let result = try workspace.run(["import", "User", "users.json", "--report", "json"])
        let report = #"{"entity":"User","records":2,"skipped":0,"dryRun":false,"changes":{"User":{"inserted":0,"updated":0,"unchanged":2,"deleted":0},"Address":{"inserted":0,"updated":0,"unchanged":1,"deleted":0},"Repo":{"inserted":0,"updated":0,"unchanged":3,"deleted":0},"Tag":{"inserted":0,"updated":0,"unchanged":2,"deleted":0}},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
    }

    /// A first file of a megabyte or more is read while the store opens: it imports, and fails,
    /// as any file does.
    @Test func aLargeFirstFileImportsAndFailsAsAnyFile() throws {
        let workspace = try Workspace()
        let users = (1...30_000).map { #"{"id": \#($0), "login": "user-\#($0)"}"# }
        #expect(users.joined(separator: ",\n").utf8.count > 1 << 20)
        try workspace.write("[" + users.joined(separator: ",\n") + "]", to: "large.json")
        try workspace.write(#"[{"id": 30001, "login": "last"}]"#, to: "small.json")
        let report = #"{"entity":"User","records":30001,"skipped":0,"dryRun":false,"changes":{"User":{"inserted":30001,"updated":0,"unchanged":0,"deleted":0}},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[]}"#
        #expect(try workspace.run(["import", "User", "large.json", "small.json", "--report", "json"])
            == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))

        try workspace.write("[" + users.joined(separator: ",\n") + ",]", to: "broken.json")
        let broken = try workspace.run(["import", "User", "broken.json"])
        #expect(broken.exitCode == 1)
        #expect(broken.stderr.hasPrefix("error: broken.json:30000:"), "\(broken.stderr)")
        #expect(try workspace.run(["query", "User", "--where", "id >= 29999", "--fields", "id", "--format", "jsonl"]).stdout
            == "{\"id\":29999}\n{\"id\":30000}\n{\"id\":30001}\n")
    }

    @Test func jsonReportCountsOrphansRemovedAndExplainListsThem() throws {
        let workspace = try Workspace()
        try workspace.importing(Payloads.users, as: "User", file: "users.json")
        try workspace.write(#"{"id": 1, "repos": [{"id": 10, "name": "kit", "tags": [{"name": "go"}]}]}"#, to: "update.json")
        let result = try workspace.run(["import", "User", "update.json", "--report", "json", "--explain"])
        let report = #"{"entity":"User","records":1,"skipped":0,"dryRun":false,"changes":{"User":{"inserted":0,"updated":0,"unchanged":1,"deleted":0},"Repo":{"inserted":0,"updated":1,"unchanged":0,"deleted":0},"Tag":{"inserted":1,"updated":0,"unchanged":0,"deleted":1}},"orphansRemoved":{"Tag":1},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[],"deletions":[{"entity":"Tag","key":"cli","reason":"orphan"}]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
    }

    @Test func noCleanupKeepsRowsThatNothingLinksToAnyMore() throws {
        let workspace = try Workspace()
        try workspace.importing(Payloads.users, as: "User", file: "users.json")
        try workspace.write(#"{"id": 1, "repos": [{"id": 10, "name": "kit", "tags": [{"name": "go"}]}]}"#, to: "update.json")
        let result = try workspace.run(["import", "User", "update.json", "--report", "json", "--no-cleanup"])
        let report = #"{"entity":"User","records":1,"skipped":0,"dryRun":false,"changes":{"User":{"inserted":0,"updated":0,"unchanged":1,"deleted":0},"Repo":{"inserted":0,"updated":1,"unchanged":0,"deleted":0},"Tag":{"inserted":1,"updated":0,"unchanged":0,"deleted":0}},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
        #expect(try workspace.run(["query", "Tag", "--fields", "name", "--format", "jsonl"]).stdout
            == "{\"name\":\"cli\"}\n{\"name\":\"go\"}\n{\"name\":\"swift\"}\n")
    }

    @Test func jsonReportCountsSkippedLinksPerEntityAndRelationship() throws {
        let mapping = """
            entities:
              Person:
                primaryKey: id
                attributes:
                  id: int
                relationships:
                  friends: { to: Person, kind: many, missing: skip }
                  boss: { to: Person, kind: one, missing: skip }
            """
        let workspace = try Workspace(mappings: ["people.yml": mapping])
        try workspace.write(#"[{"id": 1, "friends": [2, 3], "boss": 9}, {"id": 2, "friends": [1]}]"#, to: "people.json")
        let result = try workspace.run(["import", "Person", "people.json", "--report", "json"])
        let report = #"{"entity":"Person","records":2,"skipped":0,"dryRun":false,"changes":{"Person":{"inserted":2,"updated":0,"unchanged":0,"deleted":0}},"orphansRemoved":{},"stubs":{},"skippedLinks":{"Person.boss":1,"Person.friends":2},"staleRecords":{},"errors":[]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
    }

    @Test func skipReportListsEverySkippedRecordAndKeepsTheRest() throws {
        let workspace = try Workspace()
        try workspace.write(Self.badUsers, to: "bad.json")
        let result = try workspace.run(["import", "User", "bad.json", "--on-error", "skip", "--report", "json"])
        let report = #"{"entity":"User","records":4,"skipped":2,"dryRun":false,"changes":{"User":{"inserted":2,"updated":0,"unchanged":0,"deleted":0}},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[{"file":"bad.json","record":1,"path":"$[1].repos[0].stars","message":"expected int, found string \"many\""},{"file":"bad.json","record":2,"path":"$[2].id","message":"expected int, found string \"x\""}]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
        let ids = try workspace.run(["query", "User", "--fields", "id", "--format", "jsonl"])
        #expect(ids.stdout == "{\"id\":6}\n{\"id\":7}\n")
    }

    /// U+0000 in a string is refused where it is, as any value that does not convert: no store
    /// keeps it (PostgreSQL's `text` cannot), so both refuse it alike.
    @Test func aStringHoldingUPlus0000IsARecordErrorAtItsPath() throws {
        let workspace = try Workspace()
        try workspace.write(#"[{"id": 1, "login": "a\u0000b"}, {"id": 2, "login": "ok"}]"#, to: "nul.json")
        let error = #"error: nul.json: record 0 at $[0].login: expected string without U+0000, found string "a\u0000b""#
        #expect(try workspace.run(["import", "User", "nul.json"]) == CLIResult(exitCode: 1, stdout: "", stderr: error + "\n"))
        let skipped = try workspace.run(["import", "User", "nul.json", "--on-error", "skip", "--quiet"])
        #expect(skipped.exitCode == 0)
        #expect(try workspace.run(["query", "User", "--fields", "id,login", "--format", "jsonl"]).stdout == "{\"id\":2,\"login\":\"ok\"}\n")
    }

    @Test func abortExitsOnePrintsTheReportWithEmptyChangesAndKeepsNothing() throws {
        let workspace = try Workspace()
        try workspace.importing(Payloads.users, as: "User", file: "users.json")
        let before = try workspace.run(["query", "User", "--meta"])
        try workspace.write(Self.badUsers, to: "bad.json")
        let result = try workspace.run(["import", "User", "bad.json", "--report", "json"])
        let report = #"{"entity":"User","records":2,"skipped":0,"dryRun":false,"changes":{},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[{"file":"bad.json","record":1,"path":"$[1].repos[0].stars","message":"expected int, found string \"many\""}]}"#
        let error = #"error: bad.json: record 1 at $[1].repos[0].stars: expected int, found string "many""# + "\n"
        #expect(result == CLIResult(exitCode: 1, stdout: report + "\n", stderr: error))
        #expect(try workspace.run(["query", "User", "--meta"]) == before)
    }

    @Test func abortWithATextReportPrintsOnlyTheError() throws {
        let workspace = try Workspace()
        try workspace.write(Self.badUsers, to: "bad.json")
        let result = try workspace.run(["import", "User", "bad.json"])
        let error = #"error: bad.json: record 1 at $[1].repos[0].stars: expected int, found string "many""# + "\n"
        #expect(result == CLIResult(exitCode: 1, stdout: "", stderr: error))
    }

    @Test func jsonLinesErrorsGiveTheLineAndTheRecordAmongNonEmptyLines() throws {
        let workspace = try Workspace()
        try workspace.write("{\"id\": 1}\n\n  \n{\"id\": \"z\"}\n{\"id\": 2}\n", to: "users.jsonl")
        let result = try workspace.run(["import", "User", "users.jsonl", "--on-error", "skip", "--report", "json"])
        let report = #"{"entity":"User","records":3,"skipped":1,"dryRun":false,"changes":{"User":{"inserted":2,"updated":0,"unchanged":0,"deleted":0}},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[{"file":"users.jsonl","record":1,"line":4,"path":"$.id","message":"expected int, found string \"z\""}]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
    }

    @Test func formatOptionOverridesTheFileExtension() throws {
        let workspace = try Workspace()
        try workspace.write("{\"id\": 1}\n{\"id\": 2}\n", to: "users.txt")
        let lines = try workspace.run(["import", "User", "users.txt", "--format", "jsonl", "--report", "json"])
        #expect(lines.exitCode == 0)
        #expect(lines.stdout.hasPrefix(#"{"entity":"User","records":2,"#), "\(lines)")
        try workspace.write("[{\"id\": 3}]", to: "more.jsonl")
        let json = try workspace.run(["import", "User", "more.jsonl", "--format", "json", "--report", "json"])
        #expect(json.stdout.hasPrefix(#"{"entity":"User","records":1,"#), "\(json)")
    }

    @Test func rootOptionReadsTheRecordsUnderAKeyPath() throws {
        let workspace = try Workspace()
        try workspace.write(#"{"data": {"items": [{"id": 1}, {"id": "x"}]}}"#, to: "page.json")
        let result = try workspace.run(["import", "User", "page.json", "--root", "data.items", "--on-error", "skip", "--report", "json"])
        let report = #"{"entity":"User","records":2,"skipped":1,"dryRun":false,"changes":{"User":{"inserted":1,"updated":0,"unchanged":0,"deleted":0}},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[{"file":"page.json","record":1,"path":"$.data.items[1].id","message":"expected int, found string \"x\""}]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
    }

    // MARK: Options

    @Test func dashReadsStandardInput() throws {
        let workspace = try Workspace()
        let result = try workspace.run(["import", "User", "-", "--report", "json"], stdin: #"{"id": 1, "score": "high"}"#)
        let report = #"{"entity":"User","records":1,"skipped":0,"dryRun":false,"changes":{},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[{"file":"-","record":0,"path":"$.score","message":"expected double, found string \"high\""}]}"#
        #expect(result == CLIResult(exitCode: 1, stdout: report + "\n", stderr: #"error: -: record 0 at $.score: expected double, found string "high""# + "\n"))
        let ok = try workspace.run(["import", "User", "-", "--report", "json", "--format", "jsonl"], stdin: "{\"id\": 1}\n{\"id\": 2}\n")
        #expect(ok.exitCode == 0)
        #expect(ok.stdout.hasPrefix(#"{"entity":"User","records":2,"#), "\(ok)")
    }

    @Test func dryRunReportsTheChangesAndKeepsNone() throws {
        let workspace = try Workspace()
        try workspace.importing(#"{"id": 1, "login": "a"}"#, as: "User")
        let before = try workspace.run(["query", "User", "--meta"])
        try workspace.write(#"[{"id": 1, "login": "b"}, {"id": 2}]"#, to: "change.json")
        let result = try workspace.run(["import", "User", "change.json", "--dry-run", "--report", "json"])
        let report = #"{"entity":"User","records":2,"skipped":0,"dryRun":true,"changes":{"User":{"inserted":1,"updated":1,"unchanged":0,"deleted":0}},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[]}"#
        #expect(result == CLIResult(exitCode: 0, stdout: report + "\n", stderr: ""))
        #expect(try workspace.run(["query", "User", "--meta"]) == before)
    }

    @Test func quietSilencesTheTextReportButNeitherTheJSONReportNorErrors() throws {
        let workspace = try Workspace()
        try workspace.write(#"[{"id": 1}]"#, to: "one.json")
        let text = try workspace.run(["import", "User", "one.json"])
        #expect(text.exitCode == 0)
        #expect(text.stdout.hasPrefix("User: 1 record read, 0 skipped\n"), "\(text)")
        #expect(try workspace.run(["--quiet", "import", "User", "one.json"]) == CLIResult(exitCode: 0, stdout: "", stderr: ""))
        let json = try workspace.run(["import", "User", "one.json", "--quiet", "--report", "json"])
        #expect(json.stdout.hasPrefix(#"{"entity":"User","records":1,"#), "\(json)")
        try workspace.write(#"{"id": null}"#, to: "bad.json")
        let bad = try workspace.run(["--quiet", "import", "User", "bad.json"])
        #expect(bad == CLIResult(exitCode: 1, stdout: "", stderr: "error: bad.json: record 0 at $.id: missing primary key 'id' (key 'id')\n"))
    }

    @Test func allFilesOfOneImportAreKeptTogetherOrNotAtAll() throws {
        let workspace = try Workspace()
        try workspace.write(#"[{"id": 1}, {"id": 2}]"#, to: "a.json")
        try workspace.write(#"[{"id": 3, "site_admin": "maybe"}]"#, to: "b.json")
        let failed = try workspace.run(["import", "User", "a.json", "b.json"])
        #expect(failed == CLIResult(exitCode: 1, stdout: "", stderr: #"error: b.json: record 0 at $[0].site_admin: expected bool, found string "maybe""# + "\n"))
        // Nothing is kept: not even the store, which this first import would have created.
        #expect(try !workspace.hasStore())
        let both = try workspace.run(["import", "User", "a.json", "a.json", "--report", "json"])
        #expect(both.stdout.hasPrefix(#"{"entity":"User","records":4,"skipped":0,"dryRun":false,"changes":{"User":{"inserted":2,"updated":0,"unchanged":0,"deleted":0}}"#), "\(both)")
    }

    // MARK: Exit codes

    @Test func unknownEntityIsAUsageErrorWithASuggestion() throws {
        let workspace = try Workspace()
        try workspace.write("[]", to: "users.json")
        let result = try workspace.run(["import", "Usr", "users.json"])
        #expect(result == CLIResult(
            exitCode: 2, stdout: "",
            stderr: "error: unknown entity 'Usr' (did you mean 'User'?)\nSee 'jsonimport import --help'.\n"))
    }

    @Test func rootWithJSONLinesIsAUsageError() throws {
        let workspace = try Workspace()
        try workspace.write("{\"id\": 1}\n", to: "users.jsonl")
        try workspace.write("{\"id\": 1}\n", to: "users.txt")
        let expected = CLIResult(
            exitCode: 2, stdout: "",
            stderr: "error: --root does not apply to JSON Lines payloads\nSee 'jsonimport import --help'.\n")
        #expect(try workspace.run(["import", "User", "users.jsonl", "--root", "data"]) == expected)
        #expect(try workspace.run(["import", "User", "users.txt", "--root", "data", "--format", "jsonl"]) == expected)
    }

    @Test func missingFileIsInvalidInput() throws {
        let workspace = try Workspace()
        let result = try workspace.run(["import", "User", "missing.json"])
        #expect(result == CLIResult(
            exitCode: 1, stdout: "", stderr: "error: cannot read 'missing.json': No such file or directory\n"))
    }

    @Test func invalidJSONIsInvalidInputWithFileLineAndColumn() throws {
        let workspace = try Workspace()
        try workspace.write("[{\"id\": 1},\n {\"id\": 2,]", to: "broken.json")
        let result = try workspace.run(["import", "User", "broken.json"])
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: broken.json:2:11: invalid JSON (byte 22)"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
    }

    @Test(.sqliteStore("a text file at the store's path"))
    func aFileThatIsNoStoreIsAStoreError() throws {
        let workspace = try Workspace()
        try workspace.write("not a database, just text\n", to: "jsonimport.sqlite")
        try workspace.write("[]", to: "users.json")
        let result = try workspace.run(["import", "User", "users.json"])
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.stderr.hasPrefix("error: "), "\(result)")
        #expect(workspace.contents(of: "jsonimport.sqlite") == Data("not a database, just text\n".utf8))
    }

    /// An empty file at the store's path holds no store, as an empty PostgreSQL schema does not:
    /// every command but `import` fails as on a missing store and leaves the file as it was;
    /// `import` makes the store there.
    @Test(.sqliteStore("an empty file at the store's path"))
    func anEmptyFileIsNoStoreUntilAnImport() throws {
        let workspace = try Workspace()
        try workspace.write("", to: "jsonimport.sqlite")
        let missing = "error: store './jsonimport.sqlite' does not exist\n"
        for command in [["query", "User"], ["delete", "User", "--id", "1"], ["migrate"], ["stats"]] {
            let result = try workspace.run(command)
            #expect(result == CLIResult(exitCode: 3, stdout: "", stderr: missing), "\(command) \(result)")
        }
        #expect(workspace.contents(of: "jsonimport.sqlite") == Data())
        try workspace.write(#"[{"id": 1}]"#, to: "users.json")
        #expect(try workspace.run(["--quiet", "import", "User", "users.json"]).exitCode == 0)
        #expect(try workspace.run(["query", "User", "--fields", "id", "--format", "jsonl"]).stdout == "{\"id\":1}\n")
    }

    @Test func importCreatesAMissingStoreWhereTheEnvironmentSays() throws {
        let workspace = try Workspace()
        try workspace.write(#"{"id": 1}"#, to: "one.json")
        let env = ["JSONIMPORT_STORE": workspace.path("elsewhere.sqlite")]
        #expect(try workspace.run(["--quiet", "import", "User", "one.json"], env: env).exitCode == 0)
        #expect(try workspace.hasStore("elsewhere.sqlite"))
        #expect(try !workspace.hasStore())
        #expect(try workspace.run(["query", "User", "--fields", "id", "--format", "jsonl"], env: env).stdout == "{\"id\":1}\n")
    }

    /// Keys are compared by their code points, as both stores compare text: `"é"` (U+00E9) and
    /// `"e\u{301}"` are two rows, in one import and in the next, as keys and as references (the
    /// importer's caches took them for one, as `String`'s `==` does, so that a re-import counted
    /// one row updated, or failed on PostgreSQL with a duplicate key).
    @Test func keysThatDifferOnlyInNormalizationAreTwoRows() throws {
        let workspace = try Workspace(mappings: ["m.yml": """
            entities:
              Node:
                primaryKey: key
                attributes: { key: string }
                relationships:
                  peers: { to: Peer, kind: many }
              Peer:
                primaryKey: key
                attributes: { key: string, val: int }
                relationships:
                  next: { to: Peer, kind: one, by: id }
            """])
        try workspace.write(
            #"[{"key": "n1", "peers": [{"key": "p\u00e9", "val": 1, "next": "pe\u0301"}]},"#
                + #" {"key": "n2", "peers": [{"key": "pe\u0301", "val": 2, "next": "p\u00e9"}]}]"#, to: "nodes.json")
        let first = try workspace.run(["import", "Node", "nodes.json", "--report", "json"])
        #expect(first.stdout.contains(#""Peer":{"inserted":2,"updated":0,"unchanged":0,"deleted":0}"#), "\(first)")
        let again = try workspace.run(["import", "Node", "nodes.json", "--report", "json"])
        #expect(again.stdout.contains(#""Peer":{"inserted":0,"updated":0,"unchanged":2,"deleted":0}"#), "\(again)")
        // Bytewise, "e" (0x65) sorts before "é" (0xC3 0xA9).
        #expect(try workspace.run(["query", "Peer", "--format", "jsonl"]).stdout
            == "{\"key\":\"pe\u{301}\",\"val\":2,\"next\":\"p\u{e9}\"}\n{\"key\":\"p\u{e9}\",\"val\":1,\"next\":\"pe\u{301}\"}\n")
    }
}
