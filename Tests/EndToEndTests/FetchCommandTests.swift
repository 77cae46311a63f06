import Foundation
import TestAPIServer
import Testing

/// `jsonimport fetch ENTITY URL`: the pages of an HTTP API imported in one transaction, against
/// a real server on 127.0.0.1 (pagination, conditional requests, prune, incremental sync).
@Suite struct FetchCommandTests {
    typealias Response = TestAPIServer.Response

    @Test func linkHeadersAreFollowedAndEveryPageIsImported() throws {
        let api = try TestAPIServer(FetchFixtures.twoPages)
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"), ["--report", "json"])
        #expect(result == CLIResult(exitCode: 0, stdout: FetchFixtures.report(records: 3, requests: 2, inserted: 3), stderr: ""))
        #expect(try api.targets() == ["/users", "/users?page=2"])
        #expect(try workspace.users() == #"{"id":1,"login":"u1"}"# + "\n" + #"{"id":2,"login":"u2"}"# + "\n" + #"{"id":3,"login":"u3"}"# + "\n")
    }

    @Test func theTextReportCountsRequestsAndNotModifiedPages() throws {
        let api = try TestAPIServer(FetchFixtures.twoPages)
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"))
        #expect(result == CLIResult(
            exitCode: 0, stdout: "User: 3 records read, 0 skipped\n  2 requests, 0 not modified\n  User: 3 inserted, 0 updated, 0 unchanged, 0 deleted\n",
            stderr: ""))
    }

    @Test func aSecondFetchSendsTheStoredETagsAndCountsA304AsTheSameRecords() throws {
        let api = try TestAPIServer(FetchFixtures.twoPages)
        let workspace = try Workspace()
        #expect(try workspace.fetch("User", api.url("/users")).exitCode == 0)
        try TestStore.sql(TestStore.aging("User", by: 3600), on: workspace.store)
        let result = try workspace.fetch("User", api.url("/users"), ["--report", "json"])
        #expect(result.stdout == FetchFixtures.report(records: 3, requests: 2, notModified: 2, unchanged: 3))
        let second = try api.requests().suffix(2)
        #expect(second.map(\.target) == ["/users", "/users?page=2"])
        #expect(second.map { $0.headers["if-none-match"] } == ["\"p1\"", "\"p2\""])
        // The rows were seen again: none is an hour old any more.
        let stale = TestStore.isSQLite
            ? #"SELECT count(*) FROM "User" WHERE "_seen_at" < strftime('%s', 'now') - 600"#
            : #"SELECT count(*) FROM "User" u LEFT JOIN "User__seen" s ON s."_id" = u."id" "#
                + #"WHERE greatest(u."_seen_at", s."_seen_at", (SELECT "value"::timestamptz FROM "_jsonimport_meta" WHERE "key" = 'seen:User')) "#
                + #"< now() - interval '600 seconds'"#
        #expect(try TestStore.sql(stale, on: workspace.store) == "0\n")
    }

    @Test func aNotModifiedPageSeesTheRowsNestedInItsRecordsSoEvictionKeepsThem() throws {
        let page = #"[{"id": 1, "login": "a", "repos": [{"id": 5, "name": "x", "tags": ["swift"]}]}]"#
        let api = try TestAPIServer(["/users": [.init(body: page, etag: "\"v1\"")]])
        let workspace = try Workspace()
        #expect(try workspace.fetch("User", api.url("/users")).exitCode == 0)
        try TestStore.sql(["User", "Repo", "Tag"].map { TestStore.aging($0, by: 3600) }.joined(separator: "\n"), on: workspace.store)
        let result = try workspace.fetch("User", api.url("/users"), ["--report", "json"])
        let unchanged = #"{"inserted":0,"updated":0,"unchanged":1,"deleted":0}"#
        #expect(result.stdout == #"{"entity":"User","records":1,"skipped":0,"dryRun":false,"requests":1,"notModified":1,"#
            + #""changes":{"User":\#(unchanged),"Repo":\#(unchanged),"Tag":\#(unchanged)},"orphansRemoved":{},"stubs":{},"#
            + #""skippedLinks":{},"staleRecords":{},"errors":[]}"# + "\n")
        let clean = try workspace.run(["clean", "--older-than", "30m", "--report", "json"])
        #expect(clean.stdout == #"{"entity":null,"records":0,"skipped":0,"dryRun":false,"changes":{},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[]}"# + "\n")
    }

    @Test func aNotModifiedPageGoesOnFromTheStoredNextLink() throws {
        // The second time, page 1 answers 304 without a Link header: page 2 comes from the store.
        let api = try TestAPIServer([
            "/users": [
                .init(body: FetchFixtures.users(1...2), headers: FetchFixtures.next("/users?page=2"), etag: "\"p1\""),
                .init(body: FetchFixtures.users(1...2), etag: "\"p1\""),
            ],
            "/users?page=2": [.init(body: FetchFixtures.users(3...3))],
        ])
        let workspace = try Workspace()
        #expect(try workspace.fetch("User", api.url("/users")).exitCode == 0)
        let result = try workspace.fetch("User", api.url("/users"), ["--report", "json"])
        #expect(result.stdout == FetchFixtures.report(records: 3, requests: 2, notModified: 1, unchanged: 3))
        #expect(try api.targets() == ["/users", "/users?page=2", "/users", "/users?page=2"])
    }

    @Test func lastModifiedIsSentBackAsIfModifiedSince() throws {
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        let api = try TestAPIServer(["/users": [.init(body: FetchFixtures.users(1...2), lastModified: date)]])
        let workspace = try Workspace()
        #expect(try workspace.fetch("User", api.url("/users")).exitCode == 0)
        let result = try workspace.fetch("User", api.url("/users"), ["--report", "json"])
        #expect(result.stdout == FetchFixtures.report(records: 2, requests: 1, notModified: 1, unchanged: 2))
        #expect(try api.requests().map { $0.headers["if-modified-since"] } == [nil, date])
    }

    @Test func pruneDeletesRowsNoPageReturnedAndKeepsThoseOfNotModifiedPages() throws {
        let api = try TestAPIServer([
            "/users": [.init(body: FetchFixtures.users(1...2), headers: FetchFixtures.next("/users?page=2"), etag: "\"p1\"")],
            "/users?page=2": [.init(body: FetchFixtures.users(3...4)), .init(body: FetchFixtures.users(3...3))],
        ])
        let workspace = try Workspace()
        try workspace.importing(FetchFixtures.users([9]), as: "User")
        let first = try workspace.fetch("User", api.url("/users"), ["--prune", "--report", "json", "--explain"])
        #expect(first.stdout == FetchFixtures.report(records: 4, requests: 2, inserted: 4, deleted: 1, explain: #"{"entity":"User","key":9,"reason":"prune"}"#))
        // Page 1 is not modified, page 2 lost user 4: only user 4 goes.
        let second = try workspace.fetch("User", api.url("/users"), ["--prune", "--report", "json", "--explain"])
        #expect(second.stdout == FetchFixtures.report(
            records: 3, requests: 2, notModified: 1, unchanged: 3, deleted: 1, explain: #"{"entity":"User","key":4,"reason":"prune"}"#))
        #expect(try workspace.users() == [1, 2, 3].map { #"{"id":\#($0),"login":"u\#($0)"}"# + "\n" }.joined())
    }

    @Test func aNextLinkInTheBodyIsFollowedRelativeToThePage() throws {
        let api = try TestAPIServer([
            "/v1/users": [.init(body: #"{"data": \#(FetchFixtures.users(1...1)), "links": {"next": "users?after=1"}}"#)],
            "/v1/users?after=1": [.init(body: #"{"data": \#(FetchFixtures.users(2...2)), "links": {"next": null}}"#)],
        ])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/v1/users"), ["--next", "links.next", "--root", "data", "--report", "json"])
        #expect(result.stdout == FetchFixtures.report(records: 2, requests: 2, inserted: 2))
        #expect(try api.targets() == ["/v1/users", "/v1/users?after=1"])
    }

    @Test func aCursorIsSentBackAsAQueryParameterPercentEncodedExactly() throws {
        let api = try TestAPIServer([
            "/users?per_page=1": [.init(body: #"{"items": \#(FetchFixtures.users(1...1)), "meta": {"next": "a+b/c=d é&"}}"#)],
            "/users?per_page=1&cursor=a%2Bb%2Fc%3Dd%20%C3%A9%26": [.init(body: #"{"items": \#(FetchFixtures.users(2...2)), "meta": {"next": 42}}"#)],
            "/users?per_page=1&cursor=42": [.init(body: #"{"items": [], "meta": {"next": ""}}"#)],
        ])
        let workspace = try Workspace()
        let result = try workspace.fetch(
            "User", api.url("/users?per_page=1"), ["--cursor", "meta.next=cursor", "--root", "items", "--report", "json"])
        #expect(result.stdout == FetchFixtures.report(records: 2, requests: 3, inserted: 2), "\(result)")
    }

    @Test func pageNumbersCountFromOneUntilAPageWithoutRecords() throws {
        let api = try TestAPIServer([
            "/users?page=1": [.init(body: FetchFixtures.users(1...2))],
            "/users?page=2": [.init(body: FetchFixtures.users(3...3))],
            "/users?page=3": [.init(body: "[]")],
        ])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users?page=7"), ["--page", "page", "--report", "json"])
        #expect(result.stdout == FetchFixtures.report(records: 3, requests: 3, inserted: 3), "\(result)")
    }

    @Test func maxPagesStopsBeforeTheNextPage() throws {
        let api = try TestAPIServer(FetchFixtures.twoPages)
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"), ["--max-pages", "1", "--report", "json"])
        #expect(result.stdout == FetchFixtures.report(records: 2, requests: 1, inserted: 2))
        #expect(try api.targets() == ["/users"])
    }

    @Test func headersTakeTheirValuesFromTheEnvironment() throws {
        let api = try TestAPIServer(["/users": [.init(body: "[]")]])
        let workspace = try Workspace()
        let result = try workspace.fetch(
            "User", api.url("/users"), ["--header", "Authorization: Bearer $API_TOKEN", "--header", "X-Team: ${TEAM}-1 costs $5"],
            env: ["API_TOKEN": "s3cret", "TEAM": "core"])
        #expect(result.exitCode == 0)
        let headers = try #require(try api.requests().first).headers
        #expect(headers["authorization"] == "Bearer s3cret")
        #expect(headers["x-team"] == "core-1 costs $5")
        #expect(headers["accept"] == "application/json")
    }

    @Test func incrementalSyncSendsTheLargestStoredValueOfTheAttribute() throws {
        let page = #"[{"id": 1, "login": "a", "created_at": "2024-03-01T10:00:00Z"}, {"id": 2, "login": "b", "created_at": "2024-03-02T08:30:00.5+02:00"}]"#
        let api = try TestAPIServer([
            "/users": [.init(body: page)],
            "/users?since=2024-03-02T06%3A30%3A00.5Z": [.init(body: "[]")],
        ])
        let workspace = try Workspace()
        let options = ["--since", "createdAt=since", "--report", "json"]
        #expect(try workspace.fetch("User", api.url("/users"), options).stdout == FetchFixtures.report(records: 2, requests: 1, inserted: 2))
        // Nothing changed: the next fetch sends the same value again.
        for _ in 0..<2 {
            #expect(try workspace.fetch("User", api.url("/users"), options).stdout == FetchFixtures.report(records: 0, requests: 1))
        }
        #expect(try api.targets() == ["/users", "/users?since=2024-03-02T06%3A30%3A00.5Z", "/users?since=2024-03-02T06%3A30%3A00.5Z"])
    }

    @Test func anIncrementalSyncDeletesWhatItsTombstonesName() throws {
        let mapping = """
            entities:
              Item:
                primaryKey: id
                deleteWhen: { key: deleted, equals: true }
                attributes: { id: int, name: string, updatedAt: { key: updated_at, type: date } }
            """
        let api = try TestAPIServer([
            "/items": [.init(body: #"[{"id": 1, "name": "a", "updated_at": "2024-05-01T00:00:00Z"}, {"id": 2, "name": "b", "updated_at": "2024-05-02T00:00:00Z"}]"#)],
            "/items?since=2024-05-02T00%3A00%3A00Z": [.init(body: #"[{"id": 1, "deleted": true, "updated_at": "2024-05-03T00:00:00Z"}]"#)],
        ])
        let workspace = try Workspace(mappings: ["items.yml": mapping])
        #expect(try workspace.fetch("Item", api.url("/items"), ["--since", "updatedAt=since"]).exitCode == 0)
        let result = try workspace.fetch("Item", api.url("/items"), ["--since", "updatedAt=since", "--report", "json", "--explain"])
        #expect(result.stdout == #"{"entity":"Item","records":1,"skipped":0,"dryRun":false,"requests":1,"notModified":0,"#
            + #""changes":{"Item":{"inserted":0,"updated":0,"unchanged":0,"deleted":1}},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"#
            + #""staleRecords":{},"errors":[],"deletions":[{"entity":"Item","key":1,"reason":"tombstone"}]}"# + "\n", "\(result)")
        #expect(try workspace.run(["query", "Item", "--fields", "id", "--format", "jsonl"]).stdout == #"{"id":2}"# + "\n")
    }

    @Test func incrementalSyncSendsANumberAsItsDigits() throws {
        let api = try TestAPIServer([
            "/users?per_page=2": [.init(body: #"[{"id": 7, "login": "a", "score": 12.0}, {"id": 3, "login": "b", "score": 9.5}]"#)],
            "/users?per_page=2&after=12": [.init(body: "[]")],
        ])
        let workspace = try Workspace()
        #expect(try workspace.fetch("User", api.url("/users?per_page=2"), ["--since", "score=after"]).exitCode == 0)
        #expect(try workspace.fetch("User", api.url("/users?per_page=2"), ["--since", "score=after"]).exitCode == 0)
        #expect(try api.targets() == ["/users?per_page=2", "/users?per_page=2&after=12"])
    }

    @Test func everyImportOptionAppliesToTheFetchedPages() throws {
        let api = try TestAPIServer([
            "/feed": [.init(body: "{\"id\": 1, \"login\": \"a\"}\n\n{\"id\": \"x\"}\n{\"id\": 2, \"login\": \"b\"}\n")],
        ])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/feed"), ["--format", "jsonl", "--on-error", "skip", "--dry-run", "--report", "json"])
        let error = #"{"file":"\#(api.url("/feed"))","record":1,"line":3,"path":"$.id","message":"expected int, found string \"x\""}"#
        #expect(result.stdout == #"{"entity":"User","records":3,"skipped":1,"dryRun":true,"requests":1,"notModified":0,"#
            + #""changes":{"User":{"inserted":2,"updated":0,"unchanged":0,"deleted":0}},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"#
            + #""errors":[\#(error)]}"# + "\n")
        #expect(try workspace.users() == "")
    }

    @Test func noCleanupAndMaxDepthApplyToTheFetchedPages() throws {
        let api = try TestAPIServer([
            "/repos": [.init(body: #"[{"id": 5, "name": "x", "tags": ["swift"]}]"#), .init(body: #"[{"id": 5, "name": "x", "tags": []}]"#)],
            "/deep": [.init(body: #"[{"id": 1, "meta": {"a": {"b": [1]}}}]"#)],
        ])
        let workspace = try Workspace()
        #expect(try workspace.fetch("Repo", api.url("/repos")).exitCode == 0)
        #expect(try workspace.fetch("Repo", api.url("/repos"), ["--no-cleanup"]).exitCode == 0)
        #expect(try workspace.run(["query", "Tag", "--format", "jsonl"]).stdout == #"{"name":"swift"}"# + "\n")
        let deep = try workspace.fetch("User", api.url("/deep"), ["--max-depth", "3"])
        #expect(deep.exitCode == 1)
        #expect(deep.stderr.hasPrefix("error: \(api.url("/deep")): HTTP status 200, but the body is not JSON: "), "\(deep)")
    }

    @Test func aDryRunKeepsNeitherRecordsNorWhatTheNextFetchWouldAskWith() throws {
        let api = try TestAPIServer(FetchFixtures.twoPages)
        let workspace = try Workspace()
        try workspace.importing("[]", as: "User")
        let before = try TestStore.state(workspace.store)
        #expect(try workspace.fetch("User", api.url("/users"), ["--dry-run"]).exitCode == 0)
        #expect(try TestStore.state(workspace.store) == before)
        #expect(try workspace.fetch("User", api.url("/users")).exitCode == 0)
        #expect(try api.requests().map { $0.headers["if-none-match"] } == [nil, nil, nil, nil])
    }

    @Test func theProgressBarCountsPagesAndRecordsOnATerminal() throws {
        let api = try TestAPIServer(FetchFixtures.twoPages)
        let workspace = try Workspace()
        // A pseudo-terminal for all three streams, as an interactive shell has.
        let script = "import pty, sys; pty.spawn(sys.argv[1:])"
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, try CLI.binary().path, "fetch", "User", api.url("/users")],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"], stdin: nil, in: workspace.directory.url,
            timeout: 60)
        #expect(result.stdout.contains("2 pages, "), "\(result)")
        #expect(result.stdout.contains("3 records"), "\(result)")
        #expect(result.stdout.contains("User: 3 records read, 0 skipped"), "\(result)")
    }
}
