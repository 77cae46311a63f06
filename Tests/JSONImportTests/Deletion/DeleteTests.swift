import Foundation
import Testing
@testable import JSONImport

@Suite struct DeleteTests {
    /// User 1 owns repos 5 (tags swift, c) and 6 (tag swift) and has an address; user 2 has
    /// user 1 among its followers and owns repo 7 (tag swift).
    private func githubMapper() throws -> Mapper {
        let mapper = try makeMapper()
        try mapper.importJSON(#"""
            [{"id": 1, "address": {"street": "A", "city": "Oslo"},
              "repos": [{"id": 5, "name": "x", "tags": [{"name": "swift"}, {"name": "c"}]},
                        {"id": 6, "name": "y", "tags": [{"name": "swift"}]}]},
             {"id": 2, "follower_ids": [1], "repos": [{"id": 7, "name": "z", "tags": [{"name": "swift"}]}]}]
            """#, as: "User")
        return mapper
    }

    @Test func cascadeDeletesTargetsAcrossForeignKeysAndCountsNeighbours() throws {
        let mapper = try githubMapper()
        let report = try mapper.delete("User", ids: ["1"])
        #expect(report.entity == "User")
        #expect(report.counts(for: "User").list == [0, 1, 0, 1])  // user 2's followers lost user 1
        #expect(report.counts(for: "Address").list == [0, 0, 0, 1])
        #expect(report.counts(for: "Repo").list == [0, 0, 0, 2])
        #expect(report.counts(for: "Tag").list == [0, 0, 0, 1])
        #expect(try mapper.texts("Repo", "id") == ["7"])
        #expect(try mapper.storedLinks("User.followers").count == 0)
    }

    @Test func cascadeThroughManyToManyRemovesOnlyLinksAndKeepsSharedTargets() throws {
        let mapper = try githubMapper()
        try mapper.delete("User", ids: ["1"])
        // swift is still linked from repo 7; c lost its last link and is a Tag orphan.
        #expect(try mapper.texts("Tag", "name", orderedBy: "name") == ["swift"])
        #expect(try mapper.storedLinks("Repo.tags") == [[.integer(7), .integer(1)]])
    }

    @Test func sharedTargetsOfANonOrphansEntityStay() throws {
        let mapper = try makeMapper(githubYAML.replacingOccurrences(of: "cleanup: orphans", with: "cleanup: none"))
        try mapper.importJSON(#"{"id": 1, "repos": [{"id": 5, "name": "x", "tags": [{"name": "c"}]}]}"#, as: "User")
        let report = try mapper.delete("User", ids: ["1"])
        #expect(report.counts(for: "Tag").list == [0, 0, 0, 0])
        #expect(try mapper.texts("Tag", "name") == ["c"])
    }

    @Test func noCascadeDeletesOnlyTheNamedRowsAndDropsTheirLinks() throws {
        let mapper = try githubMapper()
        let report = try mapper.delete("User", ids: ["1"], options: .init(cascade: false, cleanup: false))
        #expect(report.counts(for: "User").list == [0, 1, 0, 1])
        #expect(report.counts(for: "Repo").list == [0, 2, 0, 0])  // Repo.owner reads the link
        #expect(try mapper.storedRows("Repo", "id", "owner", orderedBy: "id")
            == [[.integer(5), .null], [.integer(6), .null], [.integer(7), .integer(2)]])
        #expect(try mapper.rowCount("Address") == 1)
    }

    @Test func denyRefusesTheWholeDeleteAndChangesNothing() throws {
        let yaml = githubYAML.replacingOccurrences(
            of: "repos:     { to: Repo, kind: many, onDelete: cascade }",
            with: "repos:     { to: Repo, kind: many, onDelete: deny }")
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 1, "repos": [{"id": 5, "name": "x"}, {"id": 6, "name": "y"}]}, {"id": 3}]"#, as: "User")
        let before = try mapper.statistics()
        #expect {
            try mapper.delete("User", ids: ["3", "1"])
        } throws: { error in
            (error as? DeleteError)?.description == "cannot delete User 1: Repo.owner links 2 rows (onDelete: deny on User.repos)"
        }
        #expect(try mapper.statistics() == before)
        // Once the repos are gone, nothing refuses.
        try mapper.delete("Repo", where: "owner = 1")
        #expect(try mapper.delete("User", ids: ["1", "3"]).counts(for: "User").deleted == 2)
    }

    @Test func denyDoesNotBlockOnRowsTheSameDeleteRemoves() throws {
        let mapper = try makeMapper("""
            entities:
              Org:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  people: { to: Person, kind: many, onDelete: cascade }
                  desks:  { to: Desk, kind: many, onDelete: cascade }
              Person:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  desk: { to: Desk, kind: one, onDelete: deny }
              Desk:
                primaryKey: id
                attributes: { id: int }
            """)
        try mapper.importJSON(#"{"id": 1, "desks": [{"id": 9}], "people": [{"id": 2, "desk": 9}]}"#, as: "Org")
        #expect(throws: DeleteError.self) { try mapper.delete("Person", ids: ["2"]) }
        let report = try mapper.delete("Org", ids: ["1"])
        #expect(report.counts(for: "Person").deleted == 1)
        #expect(report.counts(for: "Desk").deleted == 1)
    }

    @Test func backSideCascadeDeletesTheForwardSidesRowAndCyclesEnd() throws {
        let mapper = try makeMapper("""
            entities:
              User:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  repos: { to: Repo, kind: many, onDelete: cascade }
                  friends: { to: User, kind: many, by: id, onDelete: cascade }
              Repo:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  owner: { to: User, kind: one, inverse: repos, onDelete: cascade }
            """)
        try mapper.importJSON(
            #"[{"id": 1, "friends": [2], "repos": [{"id": 5}]}, {"id": 2, "friends": [3]}, {"id": 3, "friends": [1]}, {"id": 4, "repos": [{"id": 6}]}]"#,
            as: "User")
        let report = try mapper.delete("Repo", ids: ["5"], options: .init(explain: true))
        #expect(report.deletions?.map { "\($0.entity) \($0.key[0]) \($0.reason)" }
            == ["User 1 cascade", "User 2 cascade", "User 3 cascade", "Repo 5 delete"])
        #expect(try mapper.texts("User", "id") == ["4"])
    }

    @Test func deleteByFilterAndUnknownNamesAreQueryErrors() throws {
        let mapper = try githubMapper()
        let report = try mapper.delete("Repo", where: "tags.name = 'c' OR name = 'z'")
        #expect(report.counts(for: "Repo").list == [0, 0, 0, 2])
        #expect(report.counts(for: "User").list == [0, 2, 0, 0])
        #expect(report.counts(for: "Tag").list == [0, 0, 0, 1])
        #expect(throws: QueryError(.invalidFilter, "invalid filter: Repo has no field 'stras' (did you mean 'stars'?)")) {
            try mapper.delete("Repo", where: "stras > 1")
        }
        #expect(throws: QueryError.self) { try mapper.delete("Rpo", ids: ["1"]) }
        #expect(throws: QueryError.self) { try mapper.delete("Repo", ids: ["x"]) }
        #expect(throws: QueryError.self) { try mapper.delete("Repo") }
    }

    @Test func deletingNothingChangesNothing() throws {
        let mapper = try githubMapper()
        let report = try mapper.delete("User", ids: ["99"])
        #expect(report.changes.isEmpty)
        #expect(report.json() == #"{"entity":"User","records":0,"skipped":0,"dryRun":false,"changes":{},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[]}"#)
    }

    @Test func neighboursWhoseLinksChangeGetANewUpdatedAt() throws {
        let mapper = try githubMapper()
        try mapper.rewriteTimestamp("_updated_at", of: "User", .set(0))
        try mapper.delete("Repo", ids: ["7"])
        #expect(try mapper.storedRows("User", "id", "_updated_at", orderedBy: "id").map { [$0[0], .integer(($0[1].number ?? 0) > 0 ? 1 : 0)] }
            == [[.integer(1), .integer(0)], [.integer(2), .integer(1)]])
    }

    @Test func deleteReportJSONMatchesTheSpec() throws {
        let mapper = try githubMapper()
        let report = try mapper.delete("User", ids: ["1"], options: .init(explain: true))
        #expect(report.json(explain: true) == #"""
            {"entity":"User","records":0,"skipped":0,"dryRun":false,"changes":{"User":{"inserted":0,"updated":1,"unchanged":0,"deleted":1},"Address":{"inserted":0,"updated":0,"unchanged":0,"deleted":1},"Repo":{"inserted":0,"updated":0,"unchanged":0,"deleted":2},"Tag":{"inserted":0,"updated":0,"unchanged":0,"deleted":1}},"orphansRemoved":{"Tag":1},"stubs":{},"skippedLinks":{},"staleRecords":{},"errors":[],"deletions":[{"entity":"User","key":1,"reason":"delete"},{"entity":"Address","key":null,"reason":"cascade"},{"entity":"Repo","key":5,"reason":"cascade"},{"entity":"Repo","key":6,"reason":"cascade"},{"entity":"Tag","key":"c","reason":"orphan"}]}
            """#)
        #expect(report.text == """
            delete User: 5 rows deleted
              User: 0 inserted, 1 updated, 0 unchanged, 1 deleted
              Address: 0 inserted, 0 updated, 0 unchanged, 1 deleted
              Repo: 0 inserted, 0 updated, 0 unchanged, 2 deleted
              Tag: 0 inserted, 0 updated, 0 unchanged, 1 deleted
              orphans removed: Tag 1
              deleted User 1: delete
              deleted Address (owned): cascade
              deleted Repo 5: cascade
              deleted Repo 6: cascade
              deleted Tag "c": orphan
            """)
    }

    @Test func compositeKeysAppearAsArrays() throws {
        let mapper = try makeMapper("""
            entities:
              Seat:
                primaryKey: [row, number]
                attributes: { row: string, number: int }
            """)
        try mapper.importJSON(#"[{"row": "A", "number": 1}, {"row": "A", "number": 2}]"#, as: "Seat")
        let report = try mapper.delete("Seat", ids: ["A,2"], options: .init(explain: true))
        #expect(report.json(explain: true).hasSuffix(#""deletions":[{"entity":"Seat","key":["A",2],"reason":"delete"}]}"#))
    }
}
