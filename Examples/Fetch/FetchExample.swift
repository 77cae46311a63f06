// Syncs the users of a paged HTTP API into a store, from an async context: the first sync
// fetches every page, the next one sends conditional requests and gets 304 Not Modified.
//
//   python3 Scripts/example-api.py &        (Examples/github/users.json on 127.0.0.1:8080, 2 a page)
//   swift run JSONImportFetchExample [URL]  (from the repository root; URL defaults to that API)
//
// The store is a fresh file in a temporary directory, removed at the end.

import Foundation
import JSONImport

/// The part of a user this example reads back (Mappings/github.yml maps much more).
struct User: Codable {
    var id: Int
    var login: String
    var name: String?
    var followers: [Int]
}

@main
struct FetchExample {
    static func main() async throws {
        let url = URL(string: CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080/users")!
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jsonimport-fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let mapper = try Mapper(
            mappings: root.appendingPathComponent("Mappings").path,
            store: .file(directory.appendingPathComponent("cache.sqlite").path))

        // Sync mode: users the API no longer returns are deleted. A token in the environment,
        // if there is one, is sent with every request and shown nowhere.
        var options = FetchOptions(retries: 2)
        options.importOptions.prune = true
        if ProcessInfo.processInfo.environment["API_TOKEN"] != nil {
            options.headers = [try HTTPHeader(expanding: "Authorization: Bearer $API_TOKEN")]
        }

        print("== First sync of \(url.absoluteString)")
        let users = try await mapper.fetch(User.self, from: url, options: options)
        for user in users {
            print("   \(user.login) (\(user.name ?? "no name")), followers \(user.followers)")
        }

        print("== Second sync: the pages have not changed")
        for try await event in mapper.fetching(from: url, as: "User", options: options) {
            switch event {
            case .progress(let progress):
                print("   \(progress.payloads) pages, \(progress.records) records so far")
            case .finished(let report):
                let counts = report.counts(for: "User")
                print("   \(report.requests ?? 0) requests, \(report.notModified ?? 0) not modified; users unchanged: \(counts.unchanged)")
            }
        }
    }
}
