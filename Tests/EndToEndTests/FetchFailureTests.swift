import Foundation
import TestAPIServer
import Testing

/// How `jsonimport fetch` fails: retries with backoff and `Retry-After`, then an error naming
/// the URL and the status, exit 1, and the store exactly as it was.
@Suite struct FetchFailureTests {
    typealias Response = TestAPIServer.Response

    /// A workspace whose store already holds user 9, and what the store holds.
    private func populated() throws -> (Workspace, Data?) {
        let workspace = try Workspace()
        try workspace.importing(FetchFixtures.users([9]), as: "User")
        return (workspace, try TestStore.state(workspace.store))
    }

    private func error(_ url: String, _ message: String) -> String {
        #"{"file":"\#(url)","record":null,"path":"$","message":"\#(message)"}"#
    }

    @Test func serverErrorsAreRetriedWithDoublingDelaysThenNameTheURLAndStatus() throws {
        let api = try TestAPIServer(["/users": [.init(status: 500)]])
        let (workspace, before) = try populated()
        let result = try workspace.fetch("User", api.url("/users"), ["--retries", "2", "--retry-delay", "0.2", "--report", "json"])
        #expect(result == CLIResult(
            exitCode: 1, stdout: FetchFixtures.failure(requests: 3, error: error(api.url("/users"), "HTTP status 500 (3 attempts)")),
            stderr: "error: \(api.url("/users")): HTTP status 500 (3 attempts)\n"))
        let times = try api.requests().map(\.time)
        #expect(times.count == 3)
        #expect(times[1] - times[0] >= 0.2 && times[2] - times[1] >= 0.4, "\(times)")
        #expect(try TestStore.state(workspace.store) == before)
    }

    @Test func a429IsRetriedAfterTheWaitItsRetryAfterAsksFor() throws {
        let api = try TestAPIServer(["/users": [.init(status: 429, headers: ["Retry-After": "1"]), .init(body: FetchFixtures.users(1...1))]])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"), ["--retry-delay", "0", "--report", "json"])
        #expect(result.stdout == FetchFixtures.report(records: 1, requests: 2, inserted: 1))
        let times = try api.requests().map(\.time)
        #expect(times.count == 2 && times[1] - times[0] >= 1, "\(times)")
    }

    @Test func aRetryAfterLongerThanAFetchWaitsEndsItAtOnce() throws {
        let api = try TestAPIServer(["/users": [.init(status: 503, headers: ["Retry-After": "3600"])]])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"))
        #expect(result == CLIResult(
            exitCode: 1, stdout: "",
            stderr: "error: \(api.url("/users")): HTTP status 503 asking to retry after 3600 s, longer than a fetch waits (300 s)\n"))
    }

    @Test func aStatusThatIsNotWorthRetryingFailsAtOnce() throws {
        let api = try TestAPIServer(FetchFixtures.twoPages.merging(["/users?page=2": [.init(status: 404)]]) { $1 })
        let (workspace, before) = try populated()
        let result = try workspace.fetch("User", api.url("/users"), ["--report", "json"])
        let page = api.url("/users?page=2")
        #expect(result == CLIResult(
            exitCode: 1, stdout: FetchFixtures.failure(records: 2, requests: 2, error: error(page, "HTTP status 404")),
            stderr: "error: \(page): HTTP status 404\n"))
        #expect(try api.targets() == ["/users", "/users?page=2"])
        #expect(try TestStore.state(workspace.store) == before)
    }

    @Test func aTimeoutIsRetriedThenFails() throws {
        let api = try TestAPIServer(["/users": [.init(body: "[]", delay: 3)]])
        let (workspace, before) = try populated()
        let result = try workspace.fetch("User", api.url("/users"), ["--timeout", "0.5", "--retries", "1", "--retry-delay", "0"])
        #expect(result == CLIResult(
            exitCode: 1, stdout: "", stderr: "error: \(api.url("/users")): no complete response within 0.5 s (2 attempts)\n"))
        #expect(try TestStore.state(workspace.store) == before)
    }

    @Test func aCutConnectionIsRetried() throws {
        let body = FetchFixtures.users(1...2)
        let api = try TestAPIServer(["/users": [.init(body: body, truncate: 10), .init(body: body)]])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"), ["--retry-delay", "0", "--report", "json"])
        #expect(result.stdout == FetchFixtures.report(records: 2, requests: 2, inserted: 2))
    }

    @Test func aConnectionCutPastTheRetriesFails() throws {
        let body = FetchFixtures.users(1...2)
        let api = try TestAPIServer(["/users": [.init(body: body, truncate: 10)]])
        let (workspace, before) = try populated()
        let result = try workspace.fetch("User", api.url("/users"), ["--retries", "0"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.hasPrefix("error: \(api.url("/users")): the connection was cut before the response was complete"), "\(result)")
        #expect(try TestStore.state(workspace.store) == before)
    }

    @Test func aBodyThatIsNotJSONNamesTheURLAndStatus() throws {
        let api = try TestAPIServer(FetchFixtures.twoPages.merging(["/users?page=2": [.init(body: "<html>busy</html>")]]) { $1 })
        let (workspace, before) = try populated()
        let result = try workspace.fetch("User", api.url("/users"), ["--report", "json"])
        let page = api.url("/users?page=2")
        let issue = #"{"file":"\#(page)","record":null,"offset":0,"line":1,"column":1,"path":"$","message":"invalid JSON: unexpected character or missing ',' ':' ']' or '}'"}"#
        #expect(result == CLIResult(
            exitCode: 1, stdout: FetchFixtures.failure(records: 2, requests: 2, error: issue),
            stderr: "error: \(page): HTTP status 200, but the body is not JSON: line 1, column 1 (byte 0): unexpected character or missing ',' ':' ']' or '}'\n"))
        #expect(try TestStore.state(workspace.store) == before)
    }

    @Test func aTruncatedJSONBodyFailsAndKeepsNothing() throws {
        let api = try TestAPIServer(["/users": [.init(body: #"[{"id": 1, "login": "a"}, {"id": 2, "lo"#)]])
        let (workspace, before) = try populated()
        let result = try workspace.fetch("User", api.url("/users"))
        #expect(result.exitCode == 1)
        #expect(result.stderr.hasPrefix("error: \(api.url("/users")): HTTP status 200, but the body is not JSON: line 1, column "), "\(result)")
        #expect(try TestStore.state(workspace.store) == before)
    }

    @Test func aRecordErrorOnALaterPageNamesItsURLAndPath() throws {
        let api = try TestAPIServer(FetchFixtures.twoPages.merging(["/users?page=2": [.init(body: #"[{"id": 3, "score": "high"}]"#)]]) { $1 })
        let (workspace, before) = try populated()
        let result = try workspace.fetch("User", api.url("/users"))
        #expect(result == CLIResult(
            exitCode: 1, stdout: "", stderr: "error: \(api.url("/users?page=2")): record 0 at $[0].score: expected double, found string \"high\"\n"))
        #expect(try TestStore.state(workspace.store) == before)
    }

    @Test func aFailedFetchKeepsNothingOfWhatTheNextFetchAsksWith() throws {
        let api = try TestAPIServer([
            "/users": [
                .init(body: FetchFixtures.users(1...2), headers: FetchFixtures.next("/users?page=2"), etag: "\"p1\""),
                .init(body: FetchFixtures.users(1...2), headers: FetchFixtures.next("/users?page=2"), etag: "\"p1-new\""),
            ],
            "/users?page=2": [.init(body: FetchFixtures.users(3...3)), .init(status: 502), .init(body: FetchFixtures.users(3...3))],
        ])
        let workspace = try Workspace()
        #expect(try workspace.fetch("User", api.url("/users")).exitCode == 0)
        let before = try TestStore.state(workspace.store)
        #expect(try workspace.fetch("User", api.url("/users"), ["--retries", "0"]).exitCode == 1)
        #expect(try TestStore.state(workspace.store) == before)
        #expect(try workspace.fetch("User", api.url("/users")).exitCode == 0)
        #expect(try api.requests().map { $0.headers["if-none-match"] } == [nil, nil, "\"p1\"", nil, "\"p1\"", nil])
    }

    @Test func aResponseLargerThanTheLimitFails() throws {
        let api = try TestAPIServer(["/users": [.init(body: FetchFixtures.users(1...20))]])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"), ["--max-payload-size", "100"])
        #expect(result == CLIResult(exitCode: 1, stdout: "", stderr: "error: \(api.url("/users")): the response is larger than the limit of 100 bytes\n"))
    }

    @Test func pagesThatLinkBackToAnEarlierPageFail() throws {
        let api = try TestAPIServer([
            "/users": [.init(body: FetchFixtures.users(1...1), headers: FetchFixtures.next("/users?page=2"))],
            "/users?page=2": [.init(body: FetchFixtures.users(2...2), headers: FetchFixtures.next("/users"))],
        ])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"))
        #expect(result == CLIResult(
            exitCode: 1, stdout: "",
            stderr: "error: \(api.url("/users?page=2")): the next page, \(api.url("/users")), was fetched already: the pages link back\n"))
    }

    @Test func aNextLinkThatIsNotAStringFails() throws {
        let api = try TestAPIServer(["/users": [.init(body: #"{"data": [], "next": {"href": "/x"}}"#)]])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"), ["--next", "next", "--root", "data"])
        #expect(result == CLIResult(
            exitCode: 1, stdout: "", stderr: "error: \(api.url("/users")): the next-page link at 'next' is not a string: found object\n"))
    }

    @Test func a304ForAPageTheStoreHoldsNoCopyOfFails() throws {
        let api = try TestAPIServer(["/users": [.init(status: 304)]])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"))
        #expect(result == CLIResult(
            exitCode: 1, stdout: "", stderr: "error: \(api.url("/users")): HTTP status 304 for a page this store holds no copy of\n"))
    }

    @Test func expandedHeaderValuesAppearNowhere() throws {
        let api = try TestAPIServer(["/users": [.init(status: 401, body: "Bearer s3cret is not valid")]])
        let workspace = try Workspace()
        let result = try workspace.fetch(
            "User", api.url("/users"), ["--header", "Authorization: Bearer $API_TOKEN", "--report", "json"], env: ["API_TOKEN": "s3cret"])
        #expect(result.exitCode == 1)
        #expect(!result.stdout.contains("s3cret") && !result.stderr.contains("s3cret"), "\(result)")
        #expect(try api.requests().first?.headers["authorization"] == "Bearer s3cret")
    }

    @Test(arguments: [
        (["--header", "Authorization: Bearer $API_TOKEN"], "environment variable 'API_TOKEN' in header 'Authorization' is not set"),
        (["--header", "X-Key: ${KEY"], "header 'X-Key': '${' must be followed by a variable name and '}'"),
        (["--header", "X-Key: $LINES"], "the value of header 'X-Key' holds a control character once its variables are expanded"),
        (["--header", "no colon"], "invalid header 'no colon': expected 'Name: value'"),
        (["--next", "links.next", "--page", "page"], "--next and --page both choose how pages are followed: give one of them"),
        (["--cursor", "meta.next"], "invalid value 'meta.next' for option '--cursor': expected KEYPATH=PARAM (meta.next_cursor=cursor)"),
        (["--since", "updatedAt=since"], "unknown attribute 'updatedAt' of User for since (did you mean 'createdAt'?)"),
        (["--since", "isAdmin=since"], "since needs an attribute of type int, double, decimal, date or string; User.isAdmin is bool"),
        (["--max-pages", "0"], "invalid value '0' for option '--max-pages': expected an integer of at least 1"),
        (["--timeout", "0"], "invalid value '0' for option '--timeout': expected a number of seconds above 0"),
        (["--format", "jsonl", "--root", "data"], "--root does not apply to JSON Lines payloads"),
        (["--format", "jsonl", "--next", "next"], "invalid fetch options: a next link or cursor is not read from JSON Lines pages"),
    ])
    func optionsThatCannotWorkAreUsageErrorsAndSendNothing(_ options: [String], _ message: String) throws {
        let api = try TestAPIServer(["/users": [.init(body: "[]")]])
        let workspace = try Workspace()
        let result = try workspace.fetch("User", api.url("/users"), options, env: ["LINES": "a\nb"])
        #expect(result == CLIResult(exitCode: 2, stdout: "", stderr: "error: \(message)\nSee 'jsonimport fetch --help'.\n"))
        #expect(try api.targets() == [])
    }

    @Test func aURLThatIsNotHTTPIsAUsageError() throws {
        let workspace = try Workspace()
        let result = try workspace.fetch("User", "file:///etc/passwd")
        #expect(result == CLIResult(
            exitCode: 2, stdout: "", stderr: "error: invalid URL 'file:///etc/passwd': expected an http:// or https:// URL\nSee 'jsonimport fetch --help'.\n"))
    }
}
