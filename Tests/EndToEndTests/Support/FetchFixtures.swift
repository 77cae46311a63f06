import Foundation
import TestAPIServer

/// Pages and reports for the `fetch` tests, against ``MappingFixtures/valid``.
enum FetchFixtures {
    /// Users `ids` as a JSON array, each with a login `u<id>`.
    static func users(_ ids: some Sequence<Int>) -> String {
        "[" + ids.map { #"{"id": \#($0), "login": "u\#($0)"}"# }.joined(separator: ", ") + "]"
    }

    /// A `Link` header pointing at `target` on the test server as the next page.
    static func next(_ target: String) -> [String: String] { ["Link": "<{base}\(target)>; rel=\"next\""] }

    /// Users 1 to 3 in two pages linked by `Link` headers, each page with an `ETag`.
    static let twoPages: [String: [TestAPIServer.Response]] = [
        "/users": [.init(body: users(1...2), headers: next("/users?page=2"), etag: "\"p1\"")],
        "/users?page=2": [.init(body: users(3...3), etag: "\"p2\"")],
    ]

    /// The JSON report of a fetch that changed only `User` rows.
    static func report(
        records: Int, requests: Int, notModified: Int = 0, inserted: Int = 0, updated: Int = 0, unchanged: Int = 0,
        deleted: Int = 0, dryRun: Bool = false, explain: String? = nil
    ) -> String {
        let counts = #"{"inserted":\#(inserted),"updated":\#(updated),"unchanged":\#(unchanged),"deleted":\#(deleted)}"#
        let changes = inserted + updated + unchanged + deleted == 0 ? "{}" : #"{"User":\#(counts)}"#
        return #"{"entity":"User","records":\#(records),"skipped":0,"dryRun":\#(dryRun),"requests":\#(requests),"#
            + #""notModified":\#(notModified),"changes":\#(changes),"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[]"#
            + (explain.map { #","deletions":[\#($0)]"# } ?? "") + "}\n"
    }

    /// The JSON report of a fetch that failed with `error` (one `errors` element) after reading
    /// `records` records.
    static func failure(records: Int = 0, requests: Int, notModified: Int = 0, error: String) -> String {
        #"{"entity":"User","records":\#(records),"skipped":0,"dryRun":false,"requests":\#(requests),"notModified":\#(notModified),"#
            + #""changes":{},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[\#(error)]}"# + "\n"
    }
}

extension Workspace {
    /// The store `fetch` writes by default.
    var store: String { path("jsonimport.sqlite") }

    /// Runs `jsonimport fetch ENTITY URL OPTIONS...` in the directory.
    func fetch(_ entity: String, _ url: String, _ options: [String] = [], env: [String: String] = [:]) throws -> CLIResult {
        try run(["fetch", entity, url] + options, env: env)
    }

    /// `id,login` of every stored `User`, one JSON object a line.
    func users() throws -> String {
        try run(["query", "User", "--fields", "id,login", "--format", "jsonl"]).stdout
    }
}
