import Foundation
import Testing

@testable import JSONImport

/// Tombstones (`deleteWhen`) and version guards (`version`), SPEC 2.2 step 0.
@Suite struct SyncRulesTests {
    static let yaml = """
        entities:
          Issue:
            primaryKey: id
            version: updatedAt
            deleteWhen: [{ key: deleted, equals: true }, { key: meta.state, equals: "gone" }]
            attributes:
              id: int
              title: { type: string, required: true }
              updatedAt: { key: updated_at, type: date }
            relationships:
              comments: { to: Comment, kind: many, onDelete: cascade }
              author: { to: User, kind: one }
          Comment:
            primaryKey: id
            attributes: { id: int, body: string }
          User:
            primaryKey: id
            cleanup: orphans
            attributes: { id: int, login: string }
          Board:
            primaryKey: id
            attributes: { id: int }
            relationships:
              pinned: { to: Issue, kind: one }
        """

    static let issues = """
        [{"id": 1, "title": "a", "updated_at": "2024-01-02T00:00:00Z", "comments": [{"id": 10, "body": "x"}], "author": {"id": 7, "login": "ann"}},
         {"id": 2, "title": "b", "updated_at": "2024-01-02T00:00:00Z"}]
        """

    private func titles(_ mapper: Mapper) throws -> [String] {
        try mapper.query("Issue").records().map { "\($0["id"]!.jsonText) \($0["title"]!.jsonText)" }
    }

    @Test func aTombstoneDeletesItsRowWithTheOnDeleteRules() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        var options = ImportOptions.default
        options.explain = true
        let report = try mapper.importJSON(
            #"[{"id": 1, "deleted": true, "title": null}, {"id": 3, "meta": {"state": "gone"}}, {"id": 2, "deleted": "true", "title": "b2"}]"#,
            as: "Issue", options: options)
        // `equals` compares JSON values: the string "true" is no tombstone.
        #expect(try titles(mapper) == [#"2 "b2""#])
        #expect(report.counts(for: "Issue").deleted == 1 && report.counts(for: "Comment").deleted == 1)
        #expect(report.deletions?.map { "\($0.entity) \($0.reason.rawValue)" } == ["Issue tombstone", "Comment cascade", "User orphan"])
    }

    /// Under `onError: skip`, a record left out takes the tombstones and stale records nested in
    /// it with it; those of the records kept stay.
    @Test func aRecordLeftOutTakesItsTombstonesAndStaleRecordsWithIt() throws {
        let yaml = Self.yaml.replacingOccurrences(
            of: "      pinned: { to: Issue, kind: one }",
            with: "      pinned: { to: Issue, kind: one }\n      watchers: { to: User, kind: many }")
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        let report = try mapper.importJSON(#"""
            [{"id": 1, "pinned": {"id": 1, "deleted": true}, "watchers": [{"login": "no key"}]},
             {"id": 2, "pinned": {"id": 2, "title": "old", "updated_at": "2023-01-01T00:00:00Z"}, "watchers": [{"login": "no key"}]},
             {"id": 3, "pinned": {"id": 2, "title": "old", "updated_at": "2023-01-01T00:00:00Z"}}]
            """#, as: "Board", options: .init(onError: .skip))
        #expect(report.errors.map(\.record) == [0, 1])
        #expect(report.staleRecords.map { "\($0.entity) \($0.count)" } == ["Issue 1"])
        #expect(try titles(mapper) == [#"1 "a""#, #"2 "b""#])
        #expect(report.counts(for: "Issue").deleted == 0)
    }

    /// A root record left out because its discriminator names no entity undoes nothing of the
    /// record before it.
    @Test func aRecordLeftOutForItsDiscriminatorKeepsTheTombstonesBeforeIt() throws {
        let mapper = try makeMapper(Self.yaml + "\n  Item:\n    oneOf: { key: type, map: { issue: Issue } }\n")
        try mapper.importJSON(Self.issues, as: "Issue")
        let report = try mapper.importJSON(#"""
            [{"type": "issue", "id": 2, "title": "old", "updated_at": "2023-01-01T00:00:00Z"}, {"type": "nope"},
             {"type": "issue", "id": 1, "deleted": true}, {"type": "nope"}]
            """#, as: "Item", options: .init(onError: .skip))
        #expect(report.errors.map(\.record) == [1, 3])
        #expect(report.staleRecords.map { "\($0.entity) \($0.count)" } == ["Issue 1"])
        #expect(try titles(mapper) == [#"2 "b""#])
        #expect(report.counts(for: "Issue").deleted == 1)
    }

    @Test func aNestedTombstoneLeavesNoLinkAndALaterRecordWins() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        let report = try mapper.importJSON(
            #"[{"id": 8, "pinned": {"id": 2, "deleted": true}}, {"id": 9, "pinned": {"id": 1, "deleted": true}}, {"id": 10, "pinned": {"id": 1, "title": "back"}}]"#,
            as: "Board")
        #expect(try titles(mapper) == [#"1 "back""#])
        #expect(report.counts(for: "Issue").deleted == 1)
        #expect(try mapper.query("Board").records().map { $0["pinned"] } == [.null, .null, .int(1)])
    }

    @Test func aNestedRecordRepeatedAfterATombstoneWinsOverIt() throws {
        let mapper = try makeMapper("""
            entities:
              Repo:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  tags: { to: Tag, kind: many }
              Tag:
                primaryKey: name
                deleteWhen: { key: deleted, equals: true }
                attributes: { name: string, color: string }
            """)
        // Tag x is written with repo 1, deleted by repo 2's tombstone, and written again, with
        // the same values, by repo 3: the later record wins.
        let payload = #"[{"id": 1, "tags": [{"name": "x", "color": "red"}]}, {"id": 2, "tags": [{"name": "x", "deleted": true}]}, {"id": 3, "tags": [{"name": "x", "color": "red"}]}]"#
        let report = try mapper.importJSON(payload, as: "Repo")
        #expect(try mapper.storedRows("Tag", "name", "color", orderedBy: "name") == [[.text("x"), .text("red")]])
        #expect(try mapper.query("Repo").records().map { $0["tags"] } == [.array([.string("x")]), .array([]), .array([.string("x")])])
        #expect(report.counts(for: "Tag").list == [1, 0, 0, 0])
    }

    @Test func aTombstoneNeedsItsKey() throws {
        let mapper = try makeMapper(Self.yaml)
        do {
            try mapper.importJSON(#"[{"deleted": true}]"#, as: "Issue")
            Issue.record("the import should fail")
        } catch let error as ImportError {
            #expect(error.report.errors.map(\.path) == ["$[0].id"])
            #expect(error.report.errors.map(\.message) == ["missing primary key 'id' (key 'id')"])
        }
    }

    @Test func aStaleRecordChangesNothingAndIsCounted() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        let seen = try mapper.storedRows("Issue", "_seen_at", orderedBy: "id")
        var options = ImportOptions.default
        options.prune = true
        // Issue 1 is older than stored: not validated (no title), nothing nested imported.
        let report = try mapper.importJSON(
            #"[{"id": 1, "title": null, "updated_at": "2024-01-01T00:00:00Z", "comments": [{"id": 11, "body": "y"}]}, {"id": 2, "title": "b2", "updated_at": "2024-01-03T00:00:00Z"}]"#,
            as: "Issue", options: options)
        #expect(report.staleRecords.map { "\($0.entity) \($0.count)" } == ["Issue 1"])
        #expect(report.json().contains(#""staleRecords":{"Issue":1}"#))
        #expect(try titles(mapper) == [#"1 "a""#, #"2 "b2""#])
        #expect(try mapper.rowCount("Comment") == 1)
        // Prune keeps the row the stale record named; its seenAt did not move.
        #expect(try mapper.storedRows("Issue", "_seen_at", orderedBy: "id")[0] == seen[0])
        #expect(report.counts(for: "Issue").list == [0, 1, 0, 0])
    }

    @Test func aStaleNestedRecordGivesItsParentNoLinkInItsColumn() throws {
        let mapper = try makeMapper("""
            entities:
              User:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  repos: { to: Repo, kind: many }
              Repo:
                primaryKey: id
                version: rev
                attributes: { id: int, rev: int, name: string }
                relationships:
                  owner: { to: User, kind: one, inverse: repos }
            """)
        try mapper.importJSON(#"[{"id": 1, "repos": [{"id": 5, "rev": 2, "name": "x"}]}, {"id": 2}]"#, as: "User")
        // Repo 5's record under user 2 is older than the stored row: the repo stays with user 1,
        // untouched, and user 2's repositories stay as they were.
        let report = try mapper.importJSON(#"[{"id": 2, "repos": [{"id": 5, "rev": 1, "name": "old"}]}]"#, as: "User")
        #expect(report.counts(for: "User").list == [0, 0, 1, 0])
        #expect(report.counts(for: "Repo").list == [0, 0, 0, 0])
        #expect(report.staleRecords.map(\.count) == [1])
        #expect(try mapper.storedRows("Repo", "id", "name", "owner") == [[.integer(5), .text("x"), .integer(1)]])
    }

    @Test func aRecordWithoutAVersionOrAnEqualOneIsNeverStale() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        let report = try mapper.importJSON(
            #"[{"id": 1, "title": "no version"}, {"id": 2, "title": "same", "updated_at": "2024-01-02T00:00:00Z"}, {"id": 2, "title": "older", "updated_at": "2023-12-31T00:00:00Z"}]"#,
            as: "Issue")
        // A row written earlier in the same import counts as stored.
        #expect(try titles(mapper) == [#"1 "no version""#, #"2 "same""#])
        #expect(report.staleRecords.map(\.count) == [1])
    }

    @Test func aPruneScopeLimitsThePrune() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        let report = try mapper.importJSON(
            #"[{"id": 3, "title": "c"}]"#, as: "Issue", options: ImportOptions(prune: true, pruneScope: "title = 'b' OR id = 3"))
        #expect(try titles(mapper) == [#"1 "a""#, #"3 "c""#])
        #expect(report.counts(for: "Issue").deleted == 1)
        #expect(throws: ImportError.self) {
            try mapper.importJSON("[]", as: "Issue", options: ImportOptions(pruneScope: "id = 1"))
        }
    }

    @Test func invalidRulesAreReportedWithPositions() {
        let errors = loadErrors("""
            entities:
              A:
                primaryKey: id
                version: name
                deleteWhen: { key: gone }
                attributes: { id: int, name: string }
              B:
                version: nope
                deleteWhen: [{ key: gone, equals: [1] }]
                attributes: { id: int }
              C:
                deleteWhen: { key: gone, equals: true }
                attributes: { id: int }
            """)
        #expect(errors == [
            "m.yml:4:14: error: version attribute 'name' of 'A' is string; a version is an int or a date",
            "m.yml:5:17: error: 'deleteWhen' of 'A' needs 'key' (where the marker is) and 'equals' (its value)",
            "m.yml:8:14: error: version 'nope' names no attribute of 'B'",
            "m.yml:9:5: error: 'deleteWhen' needs a primary key: entity 'B' is owned, a tombstone could not name its row",
            "m.yml:9:39: error: 'equals' takes a JSON value (a string, number, bool or null), found a list",
            "m.yml:12:5: error: 'deleteWhen' needs a primary key: entity 'C' is owned, a tombstone could not name its row",
        ])
    }
}
