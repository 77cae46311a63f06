import Foundation
import Testing
@testable import JSONImport

/// Queries, exports and deletions far larger or deeper than usual run, or throw a
/// ``QueryError`` naming the limit; never a ``StoreError`` from SQLite's own limits.
@Suite struct QueryLimitTests {
    let mapper: Mapper

    /// Users 1 (ana) and 2 (bo) follow each other; ana owns repo 10.
    init() throws {
        mapper = try makeMapper()
        try mapper.importJSON(
            #"[{"id": 1, "login": "ana", "follower_ids": [2], "repos": [{"id": 10, "name": "kit"}]},"#
                + #" {"id": 2, "login": "bo", "follower_ids": [1]}]"#, as: "User")
    }

    /// The message of the `QueryError` that `body` throws, or `nil`.
    private func queryError(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as QueryError {
            return error.message
        } catch {
            return "not a QueryError: \(error)"
        }
    }

    private static func path(_ relationship: String, times count: Int, then rest: String) -> String {
        Array(repeating: relationship, count: count).joined(separator: ".") + "." + rest
    }

    @Test(arguments: [5_000, 100_000])
    func anyNumberOfKeysIsOneBoundValue(count: Int) throws {
        let ids = Array(1...count)
        #expect(try mapper.find(APIUser.self, ids: ids).map(\.id) == [1, 2])
        #expect(try mapper.query("User").keys(text: ids.map(String.init)).records(fields: ["id"])
            == [RecordObject([("id", .int(1))]), RecordObject([("id", .int(2))])])
        let exported = try mapper.exportData("User", ids: ids.map(String.init), depth: 0, format: .jsonl, fields: .included(["id"]))
        #expect(String(decoding: exported, as: UTF8.self) == "{\"id\":1}\n{\"id\":2}\n")
        let report = try mapper.delete("User", ids: ids.map(String.init))
        #expect(report.counts(for: "User").deleted == 2)
    }

    @Test func compositeKeysAreBoundAsOneValueToo() throws {
        let mapper = try makeMapper("entities:\n  Member:\n    primaryKey: [team, user]\n    attributes:\n      team: string\n      user: int\n")
        try mapper.importJSON(#"[{"team": "a", "user": 1}, {"team": "b", "user": 2}, {"team": "a", "user": 2}]"#, as: "Member")
        let ids = (1...5_000).map { "a,\($0)" } + ["b,2"]
        let found = try mapper.query("Member").keys(text: ids).records()
        #expect(found.map { RecordValue.object($0).jsonText } == [#"{"team":"a","user":1}"#, #"{"team":"a","user":2}"#, #"{"team":"b","user":2}"#])
    }

    @Test func pathsThroughManyRelationshipsRun() throws {
        let users = mapper.query(APIUser.self)
        #expect(try users.where(Self.path("followers", times: 10, then: "login = 'ana'")).all().map(\.id) == [1])
        #expect(try users.where(Self.path("followers", times: 11, then: "login = 'ana'")).all().map(\.id) == [2])
        #expect(try users.where(.field(Self.path("followers", times: 32, then: "login"), .equals, "ana")).count() == 1)
        #expect(try users.where("followers.repos.owner.followers.login = 'bo'").all().map(\.id) == [2])
        #expect(queryError { _ = try users.where(Self.path("followers", times: 33, then: "login = 'ana'")).all() }
            == "invalid filter: a path may follow at most 32 relationships")
        #expect(queryError { _ = try users.where(Self.path("followers", times: 33, then: "repos = 5")).all() }
            == "invalid filter: a path may follow at most 32 relationships")
    }

    @Test func notsFoldAwayInTextAndBuiltFilters() throws {
        let users = mapper.query(APIUser.self)
        #expect(try users.where(String(repeating: "NOT ", count: 23) + "login = 'ana'").all().map(\.id) == [2])
        #expect(try users.where(String(repeating: "NOT ", count: 25_000) + "login = 'ana'").all().map(\.id) == [1])
        var filter = Filter.field("login", .equals, "ana")
        for _ in 0..<23 { filter = !filter }
        #expect(try users.where(filter).all().map(\.id) == [2])
    }

    @Test func nestingUpToTheLimitRunsAndDeeperIsAQueryError() throws {
        let deepest = FilterLimitTests.nested(32, around: Self.path("followers", times: 32, then: "login = 'ana'"))
        let users = mapper.query(APIUser.self)
        #expect(try users.where(deepest).count() == 2)
        #expect(try users.where(deepest).last()?.id == 2)
        var built = Filter.field("id", .equals, 1)
        for level in 0..<33 { built = level % 2 == 0 ? (.field("id", .equals, 2) && built) : (.isNull("login") || built) }
        #expect(queryError { _ = try users.where(built).count() } == "invalid filter: AND, OR and NOT nested more than 32 levels deep")
        #expect(queryError { try mapper.delete("User", where: FilterLimitTests.nested(33)) }
            == "invalid filter: AND, OR and NOT nested more than 32 levels deep")
        #expect(try mapper.count(APIUser.self) == 2)
    }

    @Test func builtFiltersMeetTheConditionAndValueLimits() throws {
        let users = mapper.query(APIUser.self)
        let values = Array(0..<10_001)
        #expect(queryError { _ = try users.where("id", in: values).all() } == "invalid filter: more than 10000 values in one filter")
        #expect(try users.where("id", in: Array(values.dropLast())).count() == 2)
        var many = Filter.field("id", .equals, 0)
        for id in 1...500 { many = many || .field("id", .equals, id) }
        #expect(queryError { _ = try users.where(many).all() } == "invalid filter: more than 500 conditions in one filter")
    }

    @Test func likePatternsUpToSQLitesLimitRun() throws {
        let users = mapper.query(APIUser.self)
        let longest = "an" + String(repeating: "%", count: 49_998)
        #expect(try users.where(.like("login", longest)).all().map(\.id) == [1])
        #expect(queryError { _ = try users.where(.like("login", longest + "%")).all() }
            == "invalid filter: LIKE pattern longer than 50000 bytes (50001 bytes)")
        #expect(queryError { _ = try mapper.exportData("User", where: "login LIKE '\(longest)%'") }
            == "invalid filter: LIKE pattern longer than 50000 bytes (50001 bytes)")
    }

    @Test func orderingByAFieldAgainChangesNothing() throws {
        var query = mapper.query(APIUser.self).order(by: "login", descending: true)
        for _ in 0..<2_000 { query = query.order(by: "login") }
        #expect(try query.all().map(\.id) == [2, 1])
        #expect(try query.last()?.id == 1)
        var objects = mapper.query("User").order(by: "login", descending: true)
        for _ in 0..<2_000 { objects = objects.order(by: "id") }
        #expect(try objects.records(fields: ["id"]).map { $0["id"] } == [RecordValue.int(2), .int(1)])
    }
}
