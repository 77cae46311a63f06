import Foundation
import TestAPIServer
import Testing
@testable import JSONImport

/// `mapper.fetch`: the Swift API of fetching from HTTP APIs, against a real server on 127.0.0.1.
@Suite struct FetchTests {
    typealias Response = TestAPIServer.Response

    private static func users(_ ids: some Sequence<Int>) -> String {
        "[" + ids.map { #"{"id": \#($0), "login": "u\#($0)"}"# }.joined(separator: ", ") + "]"
    }

    private static func next(_ target: String) -> [String: String] { ["Link": "<{base}\(target)>; rel=\"next\""] }

    private static let pages: [String: [Response]] = [
        "/users": [.init(body: users([2, 1]), headers: next("/users?page=2"), etag: "\"p1\"")],
        "/users?page=2": [.init(body: users([3]), etag: "\"p2\"")],
    ]

    @Test func fetchReturnsTheRootRecordsOfEveryPageInOrderAlsoWhenNotModified() async throws {
        let api = try TestAPIServer(Self.pages)
        let mapper = try makeMapper()
        let url = try #require(URL(string: api.url("/users")))
        let first = try await mapper.fetch(APIUser.self, from: url)
        #expect(first.map(\.id) == [2, 1, 3])
        #expect(first.map(\.login) == ["u2", "u1", "u3"])
        let again = try await mapper.fetch(APIUser.self, from: url)
        #expect(again.map(\.id) == [2, 1, 3])
        #expect(try api.requests().compactMap { $0.headers["if-none-match"] } == ["\"p1\"", "\"p2\""])
    }

    @Test func theReportCountsRequestsAndNotModifiedResponses() async throws {
        let api = try TestAPIServer(Self.pages)
        let mapper = try makeMapper()
        let url = try #require(URL(string: api.url("/users")))
        let first = try await mapper.fetch(from: url, as: "User")
        #expect((first.records, first.requests, first.notModified) == (3, 2, 0))
        #expect(first.counts(for: "User") == ImportReport.Counts(inserted: 3))
        let second = try await mapper.fetch(from: url, as: "User")
        #expect((second.records, second.requests, second.notModified) == (3, 2, 2))
        #expect(second.counts(for: "User") == ImportReport.Counts(unchanged: 3))
        // Only a fetch reports requests.
        #expect(try mapper.importJSON("[]", as: "User").requests == nil)
    }

    @Test func aDryRunReturnsTheRecordsAndKeepsNothing() throws {
        let api = try TestAPIServer(Self.pages)
        let mapper = try makeMapper()
        let url = try #require(URL(string: api.url("/users")))
        let users = try mapper.fetch(APIUser.self, from: url, options: FetchOptions(importOptions: .init(dryRun: true)))
        #expect(users.map(\.id) == [2, 1, 3])
        #expect(try mapper.count(APIUser.self) == 0)
        // Nor what a conditional request would send.
        _ = try mapper.fetch(from: url, as: "User")
        #expect(try api.requests().allSatisfy { $0.headers["if-none-match"] == nil })
    }

    @Test func aNotModifiedPagePrunesADistributedEntityInTheTenantsItsRecordsName() throws {
        let yaml = """
            entities:
              Member:
                primaryKey: id
                distribution: { key: orgId }
                attributes: { orgId: { type: int, key: org_id }, id: int, login: string }
            """
        let api = try TestAPIServer(["/members": [.init(body: #"[{"org_id": 1, "id": 1, "login": "a"}]"#, etag: "\"m\"")]])
        let mapper = try makeMapper(yaml)
        let url = try #require(URL(string: api.url("/members")))
        try mapper.fetch(from: url, as: "Member")
        try mapper.importJSON(#"[{"org_id": 1, "id": 2, "login": "b"}, {"org_id": 2, "id": 3, "login": "c"}]"#, as: "Member")
        let report = try mapper.fetch(from: url, as: "Member", options: FetchOptions(importOptions: .init(prune: true)))
        #expect((report.notModified, report.counts(for: "Member")) == (1, ImportReport.Counts(unchanged: 1, deleted: 1)))
        #expect(try mapper.texts("Member", "id", orderedBy: "id") == ["1", "3"])
    }

    @Test func aFailedPageThrowsAnHTTPErrorNamingTheURLAndKeepsNothing() throws {
        let api = try TestAPIServer(Self.pages.merging(["/users?page=2": [.init(status: 503)]]) { $1 })
        let mapper = try makeMapper()
        try mapper.importJSON(Self.users([9]), as: "User")
        let url = try #require(URL(string: api.url("/users")))
        let page = api.url("/users?page=2")
        var options = FetchOptions(retries: 1, retryDelay: 0)
        options.importOptions.prune = true
        let error = try #require(throws: ImportError.self) { try mapper.fetch(from: url, as: "User", options: options) }
        #expect(error.code == .http)
        #expect(error.message == "\(page): HTTP status 503 (2 attempts)")
        #expect(error.report.errors == [ImportIssue(file: page, record: nil, path: "$", message: "HTTP status 503 (2 attempts)")])
        #expect((error.report.records, error.report.requests, error.report.notModified) == (2, 3, 0))
        #expect(try mapper.all(APIUser.self).map(\.id) == [9])
    }

    @Test func cancellingTheTaskStopsAFetchWaitingForTheNetworkAndRollsItBack() async throws {
        let api = try TestAPIServer([
            "/users": [.init(body: Self.users([1]), headers: Self.next("/users?page=2"))],
            "/users?page=2": [.init(body: Self.users([2]), delay: 30)],
        ])
        let mapper = try makeMapper()
        let url = try #require(URL(string: api.url("/users")))
        let task = Task { try await mapper.fetch(from: url, as: "User") }
        while try api.targets().count < 2 { try await Task.sleep(for: .milliseconds(20)) }
        let started = Date()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(try await mapper.count(APIUser.self) == 0)
    }

    @Test func progressCountsThePagesRead() throws {
        let api = try TestAPIServer(Self.pages)
        let mapper = try makeMapper()
        let url = try #require(URL(string: api.url("/users")))
        let seen = ProgressLog()
        try mapper.fetch(from: url, as: "User", progress: { seen.append($0) })
        let last = try #require(seen.all.last)
        #expect((last.payloads, last.records, last.isFinished, last.totalBytes) == (2, 3, true, nil))
        #expect(seen.all.filter(\.isFinished).count == 1)
    }

    @Test func fetchingReportsProgressThenTheReportAsASequence() async throws {
        let api = try TestAPIServer(Self.pages)
        let mapper = try makeMapper()
        let url = try #require(URL(string: api.url("/users")))
        var pages: [Int] = []
        var report: ImportReport?
        for try await event in mapper.fetching(from: url, as: "User") {
            switch event {
            case .progress(let progress): pages.append(progress.payloads)
            case .finished(let finished): report = finished
            }
        }
        #expect(pages.last == 2)
        #expect((report?.records, report?.requests) == (3, 2))
    }

    @Test func aSecondPassUnderSkipReadsThePagesAgainWithoutFetchingThem() throws {
        // A unique login still held at the end by a row the fetch did not touch makes the import
        // run again without the record at fault: from the pages it has, not from the server.
        let yaml = githubYAML.replacingOccurrences(of: "login: string", with: "login: { type: string, unique: true }")
        let api = try TestAPIServer([
            "/users": [.init(body: #"[{"id": 1, "login": "taken"}]"#, headers: Self.next("/users?page=2"))],
            "/users?page=2": [.init(body: #"[{"id": 2, "login": "b"}]"#)],
        ])
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 9, "login": "taken"}]"#, as: "User")
        let url = try #require(URL(string: api.url("/users")))
        let report = try mapper.fetch(from: url, as: "User", options: FetchOptions(importOptions: .init(onError: .skip)))
        #expect((report.records, report.skipped, report.requests) == (2, 1, 2))
        #expect(try api.targets() == ["/users", "/users?page=2"])
        #expect(try mapper.all(APIUser.self).map(\.id) == [2, 9])
    }

    @Test func optionsOutOfRangeAreUsageErrors() throws {
        let mapper = try makeMapper()
        let url = try #require(URL(string: "http://127.0.0.1:9/users"))
        let error = try #require(throws: ImportError.self) {
            try mapper.fetch(from: url, as: "User", options: FetchOptions(pagination: .cursor(keyPath: "", parameter: "c"), maxPages: 0, retries: -1))
        }
        #expect(error.code == .usage)
        #expect(error.message == "invalid fetch options: maxPages must be at least 1, got 0; retries must be 0 or more, got -1; the cursor key path is empty")
        let notHTTP = try #require(throws: ImportError.self) { try mapper.fetch(from: URL(fileURLWithPath: "/tmp/x"), as: "User") }
        #expect(notHTTP.message == "'file:///tmp/x' is not an http or https URL")
    }
}

/// Progress reports gathered from the importing thread. `@unchecked Sendable`: `reports` is
/// behind `lock`.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [ImportProgress] = []

    func append(_ progress: ImportProgress) { lock.withLock { reports.append(progress) } }
    var all: [ImportProgress] { lock.withLock { reports } }
}
