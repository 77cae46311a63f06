import Foundation
import Testing
@testable import JSONImport

@Suite struct PruneTests {
    @Test func pruneWithAnEmptyPayloadDeletesEveryRowOfTheRootEntity() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1, "repos": [{"id": 5, "name": "x", "tags": [{"name": "a"}]}]}, {"id": 2}]"#, as: "User")
        let report = try mapper.importJSON("[]", as: "User", options: .init(prune: true, explain: true))
        #expect(report.counts(for: "User").list == [0, 0, 0, 2])
        #expect(report.counts(for: "Repo").list == [0, 0, 0, 1])
        #expect(report.counts(for: "Tag").list == [0, 0, 0, 1])
        #expect(report.deletions?.map { "\($0.entity) \($0.key.first?.description ?? "null") \($0.reason)" }
            == ["User 1 prune", "User 2 prune", "Repo 5 cascade", "Tag \"a\" orphan"])
        #expect(try mapper.rowCount("User") + mapper.rowCount("Repo") == 0)
    }

    @Test func pruneKeepsRowsTheImportContainedOrCreated() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]"#, as: "User")
        // 2 appears nested, 9 is created as a stub; 3 and 4 are in neither.
        let report = try mapper.importJSON(
            #"[{"id": 1, "follower_ids": [9, {"id": 2}]}]"#,
            as: "User", options: .init(prune: true))
        #expect(try mapper.texts("User", "id", orderedBy: "id") == ["1", "2", "9"])
        #expect(report.counts(for: "User").list == [1, 1, 1, 2])
    }

    @Test func pruneKeepsRowsWhoseKeyIsInASkippedRecord() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1}, {"id": 2}, {"id": 3}]"#, as: "User")
        let report = try mapper.importJSON(
            #"[{"id": 1}, {"id": 2, "repos": [{"id": 5, "stars": -1, "name": "x"}]}]"#,
            as: "User", options: .init(prune: true, onError: .skip))
        #expect(report.skipped == 1)
        #expect(report.counts(for: "User").list == [0, 0, 1, 1])
        #expect(try mapper.texts("User", "id", orderedBy: "id") == ["1", "2"])
    }

    @Test func pruneAppliesDenyAndLeavesTheStoreUnchanged() throws {
        let yaml = githubYAML.replacingOccurrences(
            of: "repos:     { to: Repo, kind: many, onDelete: cascade }",
            with: "repos:     { to: Repo, kind: many, onDelete: deny }")
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 1, "repos": [{"id": 5, "name": "x"}]}, {"id": 2}]"#, as: "User")
        #expect {
            try mapper.importJSON(#"[{"id": 2, "login": "b"}]"#, as: "User", options: .init(prune: true))
        } throws: { error in
            "\(error)" == "cannot prune User 1: Repo.owner links 1 row (onDelete: deny on User.repos)"
        }
        #expect(try mapper.storedRows("User", "id", "login", orderedBy: "id") == [[.integer(1), .null], [.integer(2), .null]])
    }

    @Test func dryRunPrunesNothing() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1}, {"id": 2}]"#, as: "User")
        let report = try mapper.importJSON("[]", as: "User", options: .init(prune: true, dryRun: true))
        #expect(report.counts(for: "User").deleted == 2)
        #expect(try mapper.rowCount("User") == 2)
    }
}

@Suite struct EvictionTests {
    private let yaml = githubYAML + """

          Log:
            primaryKey: id
            timestamps: false
            attributes: { id: int }
        """

    @Test func evictionDeletesRowsNotSeenForTheGivenAge() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 1, "repos": [{"id": 5, "name": "x", "tags": [{"name": "a"}]}, {"id": 6, "name": "y"}]}, {"id": 2}]"#, as: "User")
        try mapper.importJSON(#"[{"id": 1}]"#, as: "Log")
        try mapper.rewriteTimestamp("_seen_at", of: "Repo", id: 5, .movedBack(7200))
        try mapper.rewriteTimestamp("_seen_at", of: "User", id: 2, .movedBack(7200))
        let report = try mapper.clean(olderThan: 3600, explain: true)
        #expect(report.entity == nil)
        #expect(report.json(explain: true) == #"""
            {"entity":null,"records":0,"skipped":0,"dryRun":false,"changes":{"User":{"inserted":0,"updated":1,"unchanged":0,"deleted":1},"Repo":{"inserted":0,"updated":0,"unchanged":0,"deleted":1},"Tag":{"inserted":0,"updated":0,"unchanged":0,"deleted":1}},"orphansRemoved":{"Tag":1},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[],"deletions":[{"entity":"User","key":2,"reason":"evict"},{"entity":"Repo","key":5,"reason":"evict"},{"entity":"Tag","key":"a","reason":"orphan"}]}
            """#)
        #expect(try mapper.rowCount("Log") == 1)
    }

    /// A re-import of every record: the stubs, which no record is for (a follower, a tag named by
    /// its key alone), keep the time they were made and are evicted; every row a record was
    /// seen for is kept.
    @Test func stubsAreEvictedWhileTheRowsSeenAgainAreKept() throws {
        let mapper = try makeMapper(yaml)
        let json = #"[{"id": 1, "follower_ids": [9], "repos": [{"id": 5, "name": "x", "tags": ["a"]}]}, {"id": 2}]"#
        try mapper.importJSON(json, as: "User")
        for entity in ["User", "Repo", "Tag"] { try mapper.rewriteTimestamp("_seen_at", of: entity, .movedBack(7200)) }
        try mapper.importJSON(json, as: "User")
        let report = try mapper.clean(olderThan: 3600)
        #expect(report.counts(for: "User").list == [0, 1, 0, 1])
        #expect(report.counts(for: "Tag").deleted == 1)
        #expect(try mapper.texts("User", "id").sorted() == ["1", "2"])
        #expect(try mapper.texts("Repo", "id") == ["5"])
        #expect(try mapper.rowCount("Tag") == 0)
    }

    @Test func evictionOnlyInTheGivenEntities() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 1, "repos": [{"id": 5, "name": "x"}]}]"#, as: "User")
        try mapper.rewriteTimestamp("_seen_at", of: "User", .set(0))
        try mapper.rewriteTimestamp("_seen_at", of: "Repo", .set(0))
        let report = try mapper.clean(olderThan: 60, entities: ["Repo"])
        #expect(report.counts(for: "Repo").deleted == 1)
        #expect(report.counts(for: "User").list == [0, 1, 0, 0])
        #expect(try mapper.texts("User", "id") == ["1"])
    }

    @Test func entitiesWithoutTimestampsAreNeverEvictedAndCannotBeNamed() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 1}]"#, as: "Log")
        #expect(try mapper.clean(olderThan: 0).changes.isEmpty)
        #expect(throws: QueryError("Log has 'timestamps: false': its rows have no seenAt and are never evicted")) {
            try mapper.clean(olderThan: 60, entities: ["Log"])
        }
        #expect(throws: QueryError.self) { try mapper.clean(olderThan: 60, entities: ["Lgo"]) }
        #expect(throws: QueryError.self) { try mapper.clean(entities: ["User"]) }
    }

    @Test func cleanWithNothingToDoReportsNothing() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "repos": [{"id": 5, "name": "x", "tags": [{"name": "a"}]}]}"#, as: "User")
        #expect(try mapper.clean().json(explain: true) == #"{"entity":null,"records":0,"skipped":0,"dryRun":false,"changes":{},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[],"deletions":[]}"#)
    }
}
