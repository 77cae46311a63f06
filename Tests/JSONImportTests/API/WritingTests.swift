import Foundation
import Testing
@testable import JSONImport

@Suite struct WritingTests {
    @Test func saveInsertsThenMergesByPrimaryKey() throws {
        let mapper = try makeMapper()
        let first = try mapper.save(APIUser(id: 7, login: "gus", name: "Gus"))
        #expect(first.counts(for: "User").list == [1, 0, 0, 0])
        var gus = try #require(try mapper.find(APIUser.self, id: 7))
        gus.name = "Gustav"
        let second = try mapper.save(gus)
        #expect(second.counts(for: "User").list == [0, 1, 0, 0])
        #expect(try mapper.find(APIUser.self, id: 7)?.name == "Gustav")
    }

    @Test func savingAValueReadBackChangesNothing() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let users = try mapper.all(APIUser.self)
        let report = try mapper.saveAll(users)
        #expect(report.changes.allSatisfy { $0.counts.inserted == 0 && $0.counts.updated == 0 && $0.counts.deleted == 0 })
        #expect(report.counts(for: "User").unchanged == 2)
        #expect(report.counts(for: "Repo").unchanged == 2)
        #expect(try mapper.all(APIUser.self) == users)
    }

    @Test func nilClearsAndUnlinksWhileUndeclaredPropertiesKeepTheirValues() throws {
        struct Slim: Codable, ImportableEntity {
            static let entityName = "User"
            var id: Int
            var name: String?
            var address: APIAddress?
        }
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let report = try mapper.save(Slim(id: 1, name: nil, address: nil))
        #expect(report.orphansRemoved.map(\.entity) == ["Address"])
        let ana = try #require(try mapper.find(APIUser.self, id: 1))
        #expect(ana.name == nil)
        #expect(ana.address == nil)
        #expect(ana.login == "ana")
        #expect(ana.repos.count == 2)
    }

    @Test func relationshipsSaveAsNestedValuesOrAsKeys() throws {
        let mapper = try makeMapper()
        let user = APIUser(
            id: 1, login: "ana", address: APIAddress(street: "Main", city: "Oslo"),
            repos: [APIRepo(id: 10, name: "kit", stars: 3, tags: ["Swift"])], followers: [2])
        let report = try mapper.save(user)
        #expect(report.counts(for: "User").inserted == 2)
        #expect(report.stubs.map(\.entity) == ["User", "Tag"])
        let stored = try #require(try mapper.find(APIUser.self, id: 1))
        #expect(stored.address?.city == "Oslo")
        #expect(stored.repos.map(\.tags) == [["swift"]])
        #expect(stored.followers == [2])
    }

    @Test func relationshipsWriteKeysOrObjectsAsTheirByRuleAsks() throws {
        let yaml = """
            entities:
              Team:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  members: { to: Member, kind: many, by: id }
                  lead: { to: Member, kind: one, by: object }
              Member:
                primaryKey: id
                attributes: { id: int, name: string }
            """
        struct Member: Codable, ImportableEntity {
            var id: Int
            var name: String?
        }
        struct Team: Codable, ImportableEntity {
            var id: Int
            var members: [Member]
            var lead: Int?
        }
        let mapper = try makeMapper(yaml)
        let report = try mapper.save(Team(id: 1, members: [Member(id: 2, name: "ignored")], lead: 3))
        #expect(report.stubs.map { "\($0.entity) \($0.count)" } == ["Member 1"])
        #expect(report.counts(for: "Member").inserted == 2)
        let team = try #require(try mapper.find(Team.self, id: 1))
        #expect(team.members.map(\.id) == [2])
        #expect(team.members[0].name == nil)
        #expect(team.lead == 3)
        #expect(try mapper.find(Member.self, id: 3) != nil)
        #expect(try mapper.find(Member.self, id: 2) == nil)
    }

    @Test func datesAreWrittenInTheirAttributeFormat() throws {
        let mapper = try makeMapper(catalogYAML)
        let sku = UUID()
        try mapper.save(DecodingTests.Product(
            sku: sku, price: Decimal(string: "12.5"), homepage: URL(string: "https://x.io"),
            released: Date(timeIntervalSince1970: 1_600_000_000), sizes: [1], launches: [Date(timeIntervalSince1970: 0)],
            specs: .init(weight: 2, since: Date(timeIntervalSince1970: 86_400)), bundle: [1, 2], related: []))
        let rows = try mapper.storedRows("Product", "sku", "price", "released", "launches", "specs")
        #expect(rows == [[
            .text(sku.uuidString.lowercased()), .text("12.5"), .real(1_600_000_000), .text("[0]"),
            .text(#"{"weight":2.0,"since":"1970-01-02T00:00:00Z"}"#),
        ]])
        #expect(try mapper.find(DecodingTests.Product.self, id: sku)?.bundle == [1, 2])
    }

    @Test func anInvalidValueIsARecordErrorWithItsPath() throws {
        let mapper = try makeMapper()
        #expect {
            try mapper.save(APIUser(id: 1, repos: [APIRepo(id: 5, name: "x", stars: -1)]))
        } throws: { error in
            guard let error = error as? ImportError, let issue = error.report.errors.first else { return false }
            return error.code == .invalidRecord && issue.file == "<User value>" && issue.path == "$[0].repos[0].stars"
                && issue.message == "value -1 is below the minimum 0"
        }
        #expect(try mapper.count(APIUser.self) == 0)
    }

    @Test func findOrCreateCreatesOnceAndFindsAfterwards() throws {
        let mapper = try makeMapper()
        let made = try mapper.findOrCreate(APIUser.self, id: 8) { APIUser(id: 8, login: "hal") }
        #expect(made.login == "hal")
        let found = try mapper.findOrCreate(APIUser.self, id: 8) { () -> APIUser in
            Issue.record("create must not run when the record exists")
            return APIUser(id: 8)
        }
        #expect(found.login == "hal")
        #expect(throws: QueryError("findOrCreate(User, id: 9): the value created has another key")) {
            try mapper.findOrCreate(APIUser.self, id: 9) { APIUser(id: 10) }
        }
        #expect(try mapper.count(APIUser.self) == 1)
    }

    @Test func findOrInitializeDoesNotSave() throws {
        let mapper = try makeMapper()
        let fresh = try mapper.findOrInitialize(APIUser.self, id: 3) { APIUser(id: 3, login: "new") }
        #expect(fresh.login == "new")
        #expect(try mapper.count(APIUser.self) == 0)
    }

    @Test func writeKeepsEverythingOrNothing() throws {
        struct Stop: Error {}
        let mapper = try makeMapper()
        #expect(throws: Stop.self) {
            try mapper.write {
                try mapper.save(APIUser(id: 1, login: "a"))
                try mapper.save(APIUser(id: 2, login: "b"))
                #expect(try mapper.count(APIUser.self) == 2)
                throw Stop()
            }
        }
        #expect(try mapper.count(APIUser.self) == 0)
        try mapper.write {
            try mapper.save(APIUser(id: 1, login: "a"))
            #expect(throws: ImportError.self) { try mapper.save(APIRepo(id: 5, name: "x", stars: -1)) }
            try mapper.save(APIUser(id: 2, login: "b"))
        }
        #expect(try mapper.all(APIUser.self).map(\.id) == [1, 2])
        #expect(try mapper.count(APIRepo.self) == 0)
    }

    @Test func aDryRunInsideWriteUndoesOnlyItself() throws {
        let mapper = try makeMapper()
        try mapper.write {
            try mapper.save(APIUser(id: 1, login: "a"))
            let report = try mapper.save(APIUser(id: 2, login: "b"), options: .init(dryRun: true))
            #expect(report.counts(for: "User").inserted == 1)
        }
        #expect(try mapper.all(APIUser.self).map(\.id) == [1])
    }
}
