import Foundation
import Testing
@testable import JSONImport

@Suite struct DestroyTests {
    let mapper: Mapper

    init() throws {
        mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
    }

    @Test func destroyCascadesAndCleansUp() throws {
        let report = try mapper.destroy(APIUser.self, id: 1)
        #expect(report.counts(for: "User").deleted == 1)
        #expect(report.counts(for: "Repo").deleted == 2)
        #expect(report.counts(for: "Address").deleted == 1)
        #expect(report.orphansRemoved.map(\.entity) == ["Tag"])
        #expect(try mapper.all(APIUser.self).map(\.id) == [2])
        #expect(try mapper.count(APIRepo.self) == 0)
    }

    @Test func destroyWithoutCascadeDeletesOnlyTheRecord() throws {
        try mapper.destroy(APIUser.self, id: 1, options: .init(cascade: false))
        #expect(try mapper.query(APIRepo.self).pluck("owner", as: Int?.self) == [nil, nil])
    }

    @Test func destroyTakesAValueAndIgnoresAMissingKey() throws {
        let repo = try #require(try mapper.find(APIRepo.self, id: 11))
        #expect(try mapper.destroy(repo).counts(for: "Repo").deleted == 1)
        #expect(try mapper.destroy(APIRepo.self, id: 4242).changes.isEmpty)
        #expect(try mapper.all(APIRepo.self).map(\.id) == [10])
    }

    @Test func destroyAllEmptiesTheEntityStubsIncluded() throws {
        let report = try mapper.destroyAll(APIUser.self)
        #expect(report.counts(for: "User").deleted == 3)
        #expect(try mapper.query(APIUser.self).includingStubs().count() == 0)
    }

    @Test func aQueryDestroysWhatItSelects() throws {
        try mapper.query(APIRepo.self).where("tags.name", .equals, "cli").destroyAll()
        #expect(try mapper.all(APIRepo.self).map(\.id) == [11])
        #expect(try mapper.find(APIUser.self, id: 1)?.repos.map(\.id) == [11])
    }

    @Test func denyRefusesAndKeepsEverything() throws {
        struct Team: Codable { var id: Int; var members: [Int] }
        let mapper = try makeMapper(teamsDenyingDeletionYAML)
        try mapper.save(Team(id: 1, members: [7]))
        #expect(throws: DeleteError.self) { try mapper.destroy(Team.self, id: 1) }
        #expect(try mapper.find(Team.self, id: 1)?.members == [7])
    }

    @Test func destroyJoinsAWriteBlockAndIsObserved() throws {
        struct Stop: Error {}
        let recorder = ChangeRecorder()
        let observation = mapper.observeChanges(recorder.record)
        defer { observation.cancel() }
        #expect(throws: Stop.self) {
            try mapper.write {
                try mapper.destroy(APIUser.self, id: 2)
                #expect(try mapper.find(APIUser.self, id: 2) == nil)
                throw Stop()
            }
        }
        #expect(try mapper.find(APIUser.self, id: 2) != nil)
        #expect(recorder.all.isEmpty)
        try mapper.destroy(APIRepo.self, id: 10)
        let changes = try #require(recorder.all.last)
        #expect(changes["Repo"]?.deleted == [.int(10)])
        #expect(changes["User"]?.updated == [.int(1)])
        #expect(changes["Tag"]?.deleted == [.string("cli")])
    }
}
