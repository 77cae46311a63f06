import Foundation
import Testing

/// Real API shapes end to end (`Fixtures/APIs`, see its PROVENANCE.md): GitHub issues with
/// users, bots and organizations, labels, milestones and pull requests; a JSON:API compound
/// document; a mixed feed. Each is mapped with the keys for real APIs, imported, queried,
/// exported and imported again unchanged.
@Suite struct RecordedAPITests {
    /// The corpus folder in the test bundle.
    static let corpus: URL = {
        guard let resources = Bundle.module.resourceURL else { fatalError("the test bundle has no resources") }
        return resources.appendingPathComponent("Fixtures/APIs")
    }()

    /// A workspace holding `api`'s mappings and payloads.
    private func workspace(_ api: String) throws -> Workspace {
        let folder = Self.corpus.appendingPathComponent(api)
        let mappings = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Mappings").path)
        let workspace = try Workspace(mappings: Dictionary(uniqueKeysWithValues: try mappings.map { name in
            (name, try String(contentsOf: folder.appendingPathComponent("Mappings/\(name)"), encoding: .utf8))
        }))
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
            try workspace.write(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8), to: name)
        }
        return workspace
    }

    private func succeeds(_ workspace: Workspace, _ args: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let result = try workspace.run(args)
        #expect(result.exitCode == 0, "\(args): \(result)", sourceLocation: sourceLocation)
        return result.stdout
    }

    /// Exports `entity`, imports the export again and expects every row unchanged.
    private func roundTrips(_ workspace: Workspace, _ entity: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        try workspace.write(try succeeds(workspace, ["export", entity, "--depth", "2"]), to: "export.json")
        let again = try succeeds(workspace, ["import", entity, "export.json", "--report", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(again.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        let counts = try #require(report["changes"] as? [String: [String: Int]], sourceLocation: sourceLocation)
        #expect(counts[entity]?["unchanged"] ?? 0 > 0, "\(again)", sourceLocation: sourceLocation)
        for (name, count) in counts {
            #expect(count["inserted"] == 0 && count["updated"] == 0 && count["deleted"] == 0, "\(name): \(count)", sourceLocation: sourceLocation)
        }
    }

    @Test func gitHubIssuesWithUsersBotsOrganizationsAndPullRequests() throws {
        let workspace = try workspace("github")
        _ = try succeeds(workspace, ["import", "Repo", "repos.json"])
        let issues = try succeeds(workspace, ["import", "Issue", "issues.json", "--report", "json"])
        #expect(issues.contains(#""Bot":{"inserted":1"#) && issues.contains(#""skippedLinks":{},"staleRecords":{}"#), "\(issues)")
        _ = try succeeds(workspace, ["import", "Commit", "commits.json"])
        #expect(try succeeds(workspace, ["query", "Issue", "--fields", "number,user,repository,isPullRequest,body,closedAt", "--order", "number"]) == """
            [
            {"number":2,"user":{"entity":"Org","key":90117},"repository":7042388,"isPullRequest":false,"body":null,"closedAt":null},
            {"number":88,"user":{"entity":"User","key":301944},"repository":7042001,"isPullRequest":false,"body":"Setting `timeout: 2s` still waits 10 seconds before a probe fails.","closedAt":null},
            {"number":91,"user":{"entity":"Bot","key":49699333},"repository":7042001,"isPullRequest":true,"body":null,"closedAt":"2024-04-16T09:29:58Z"}
            ]

            """)
        #expect(try succeeds(workspace, ["query", "Issue", "--where", "user.entity = 'Bot' AND isPullRequest = true", "--fields", "number"]) == "[\n{\"number\":91}\n]\n")
        #expect(try succeeds(workspace, ["query", "Issue", "--where", "repository.fullName = 'harbor-labs/lighthouse' AND labels.name = 'bug'", "--fields", "number"]) == "[\n{\"number\":88}\n]\n")
        #expect(try succeeds(workspace, ["query", "Milestone", "--fields", "state,creator"]) == "[\n{\"state\":1,\"creator\":{\"entity\":\"Org\",\"key\":90117}}\n]\n")
        // Parents are stubs until their commits arrive; the one there keeps its own message.
        let stats = try succeeds(workspace, ["stats", "--format", "json"])
        #expect(stats.contains(#""stubs":{"User":0,"Org":0,"Bot":0,"Repo":0,"Label":0,"Milestone":0,"Issue":0,"Commit":2}"#), "\(stats)")
        #expect(try succeeds(workspace, ["query", "User", "--fields", "login,avatarUrl,siteAdmin", "--order", "login"]).contains(#"{"login":"jon-okafor","avatarUrl":null,"siteAdmin":true}"#))
        for entity in ["Repo", "Issue", "Commit"] { try roundTrips(workspace, entity) }
    }

    @Test func aJSONAPIDocumentWithIncludedResources() throws {
        let workspace = try workspace("jsonapi")
        let report = try succeeds(workspace, ["import", "ArticleDocument", "articles.json", "--report", "json"])
        #expect(report.contains(#""entity":"ArticleDocument","records":6"#) && report.contains(#""stubs":{}"#), "\(report)")
        #expect(try succeeds(workspace, ["query", "Article"]) == """
            [
            {"id":"1","title":"Caching API pages without tears","published":"2024-03-18T08:30:00Z","author":"42","comments":["501","502"]},
            {"id":"2","title":"Pagination, three ways","published":null,"author":"7","comments":[]}
            ]

            """)
        #expect(try succeeds(workspace, ["query", "Comment", "--where", "author.twitter = 'ivarga'", "--fields", "body"]) == "[\n{\"body\":\"What about Last-Modified?\"}\n]\n")
        for entity in ["Article", "Comment", "Person"] { try roundTrips(workspace, entity) }
        // The same document again changes nothing.
        let again = try succeeds(workspace, ["import", "ArticleDocument", "articles.json"])
        #expect(again.contains("Article: 0 inserted, 0 updated, 2 unchanged, 0 deleted"), "\(again)")
    }

    @Test func aMixedFeedImportedThroughItsUnion() throws {
        let workspace = try workspace("feed")
        let report = try succeeds(workspace, ["import", "FeedItem", "timeline.json"])
        #expect(report.contains("FeedItem: 4 records read, 0 skipped"), "\(report)")
        #expect(report.contains("Post: 2 inserted") && report.contains("Comment: 1 inserted") && report.contains("Follow: 1 inserted"), "\(report)")
        #expect(try succeeds(workspace, ["query", "Follow"]) == """
            [
            {"id":9003,"createdAt":"2024-06-01T10:00:00Z","actor":{"entity":"Service","key":3},"followed":{"entity":"Person","key":11}}
            ]

            """)
        #expect(try succeeds(workspace, ["query", "Post", "--where", "actor.handle = 'tomas'", "--fields", "id,tags"]) == "[\n{\"id\":9004,\"tags\":[]}\n]\n")
        for entity in ["Post", "Comment", "Follow"] { try roundTrips(workspace, entity) }
        let pruned = try succeeds(workspace, ["import", "FeedItem", "timeline.json", "--prune"])
        #expect(pruned.contains("Post: 0 inserted, 0 updated, 2 unchanged, 0 deleted"), "\(pruned)")
    }
}
