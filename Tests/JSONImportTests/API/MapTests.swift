import Foundation
import Testing
@testable import JSONImport

@Suite struct MapTests {
    @Test func mapReturnsRootRecordsInPayloadOrderWithNestedValues() throws {
        let mapper = try makeMapper()
        let users = try mapper.map(APIUser.self, twoUsersJSON)
        #expect(users.map(\.id) == [1, 2])
        let ana = users[0]
        #expect(ana.login == "ana")
        #expect(ana.email == "a@x.io")
        #expect(ana.createdAt == Date(timeIntervalSince1970: 1_704_164_645))
        #expect(ana.topics == ["swift", "sql"])
        #expect(ana.meta == APIUser.Meta(plan: "pro", seats: 3))
        #expect(ana.address == APIAddress(street: "Main St", city: "Oslo"))
        #expect(ana.repos.map(\.name) == ["kit", "db"])
        #expect(ana.repos[0].tags == ["swift", "cli"])
        #expect(ana.repos[0].owner == 1)
        #expect(ana.followers == [2, 99])
        #expect(users[1].address == nil)
        #expect(users[1].repos.isEmpty)
    }

    @Test func mapShowsTheMergedStoredStateNotOnlyThePayload() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let users = try mapper.map(APIUser.self, #"{"id": 1, "name": "Ana B"}"#)
        #expect(users.count == 1)
        #expect(users[0].name == "Ana B")
        #expect(users[0].login == "ana")
        #expect(users[0].repos.count == 2)
    }

    @Test func mapAcceptsDictionariesAndArraysOfThem() throws {
        let mapper = try makeMapper()
        let one = try mapper.map(APIUser.self, ["id": 5, "login": "eve", "site_admin": true] as [String: Any])
        #expect(one.map(\.isAdmin) == [true])
        let many = try mapper.map(APIUser.self, [["id": 6, "login": "f"], ["id": 7, "login": "g"]] as [[String: Any]])
        #expect(many.map(\.login) == ["f", "g"])
    }

    @Test func mapRepeatsARecordThatAppearsTwiceAndLeavesOutSkippedOnes() throws {
        let mapper = try makeMapper()
        let payload = #"[{"id": 1, "login": "a"}, {"id": 2, "repos": [{"id": 5, "stars": -1, "name": "x"}]}, {"id": 1, "name": "A"}]"#
        let users = try mapper.map(APIUser.self, payload, options: .init(onError: .skip))
        #expect(users.map(\.id) == [1, 1])
        #expect(users.map(\.name) == ["A", "A"])
    }

    @Test func mapDryRunShowsTheResultAndKeepsNothing() throws {
        let mapper = try makeMapper()
        let users = try mapper.map(APIUser.self, twoUsersJSON, options: .init(dryRun: true))
        #expect(users.map(\.id) == [1, 2])
        #expect(try mapper.count(APIUser.self) == 0)
    }

    @Test func mapOfATypeWithoutAnEntityIsAQueryError() throws {
        struct Stranger: Codable { var id: Int }
        let mapper = try makeMapper()
        #expect(throws: QueryError.self) { try mapper.map(Stranger.self, #"{"id": 1}"#) }
    }
}
