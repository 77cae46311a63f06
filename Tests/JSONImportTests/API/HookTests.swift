import Foundation
import Synchronization
import Testing
@testable import JSONImport

@Suite struct ValidationTests {
    func mapperRejectingRoot() throws -> Mapper {
        let mapper = try makeMapper()
        try mapper.setValidator(for: "User") { record in
            if try record.value("login", as: String.self) == "root" { throw ValidationError("the login 'root' is reserved") }
        }
        return mapper
    }

    @Test func rejectionUnderAbortRollsBackTheImport() throws {
        let mapper = try mapperRejectingRoot()
        #expect {
            try mapper.importJSON(#"[{"id": 1, "login": "ana"}, {"id": 2, "login": "root"}]"#, as: "User")
        } throws: { error in
            guard let error = error as? ImportError, let issue = error.report.errors.first else { return false }
            return error.code == .invalidRecord && issue.record == 1 && issue.path == "$[1]"
                && issue.message == "rejected by validation: the login 'root' is reserved"
        }
        #expect(try mapper.count(APIUser.self) == 0)
    }

    @Test func rejectionUnderSkipLeavesOutTheRootRecord() throws {
        let mapper = try mapperRejectingRoot()
        let payload = #"[{"id": 1, "login": "ana"}, {"id": 2, "repos": [{"id": 5, "name": "x"}], "follower_ids": [{"id": 3, "login": "root"}]}]"#
        let report = try mapper.importJSON(payload, as: "User", options: .init(onError: .skip))
        #expect(report.skipped == 1)
        #expect(report.errors.map(\.path) == ["$[1].follower_ids[0]"])
        #expect(try mapper.all(APIUser.self).map(\.id) == [1])
        #expect(try mapper.count(APIRepo.self) == 0)
    }

    @Test func validatorsMayReadThroughTheMapperButNotWrite() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1}"#, as: "User")
        let counted = Mutex<[Int]>([])
        try mapper.setValidator(for: "User") { record in
            let count = try mapper.count(APIUser.self)
            counted.withLock { $0.append(count) }
            if try record.value("id", as: Int.self) == 3 { try mapper.destroy(APIUser.self, id: 1) }
        }
        try mapper.importJSON(#"[{"id": 2, "follower_ids": [1]}]"#, as: "User")
        #expect(counted.withLock { $0 } == [1])
        #expect {
            try mapper.importJSON(#"[{"id": 3}, {"id": 4, "follower_ids": [1]}]"#, as: "User")
        } throws: { error in
            guard let error = error as? ImportError, let issue = error.report.errors.first else { return false }
            return issue.record == 0 && issue.message.hasPrefix("rejected by validation: cannot write through the mapper while an import is running")
        }
        try mapper.setValidator(for: "User", nil)
        #expect(try mapper.all(APIUser.self).map(\.id) == [1, 2])
        #expect(try mapper.storedLinks("User.followers") == [[.integer(2), .integer(1)]])
        try mapper.destroy(APIUser.self, id: 1)
        #expect(try mapper.all(APIUser.self).map(\.id) == [2])
    }

    @Test func validatorsSeeConvertedValuesAndApplyToSaves() throws {
        let mapper = try makeMapper()
        let seen = Mutex<[String]>([])
        try mapper.setValidator(for: APIRepo.self) { record in
            let stars = try record.value("stars", as: Int.self)
            seen.withLock { $0.append("\(record.entity) \(String(describing: stars)) \(record.contains("language"))") }
            if (stars ?? 0) > 1000 { throw ValidationError("too many stars") }
        }
        try mapper.importJSON(#"{"id": 1, "repos": [{"id": 5, "name": "x", "stars": "12"}]}"#, as: "User")
        #expect(throws: ImportError.self) { try mapper.save(APIRepo(id: 6, name: "y", stars: 5000)) }
        try mapper.setValidator(for: APIRepo.self, nil)
        try mapper.save(APIRepo(id: 6, name: "y", stars: 5000))
        #expect(seen.withLock { $0 } == ["Repo Optional(12) false", "Repo Optional(5000) true"])
        #expect(throws: QueryError(.unknownEntity, "unknown entity 'Rep' (did you mean 'Repo'?)")) { try mapper.setValidator(for: "Rep", nil) }
    }
}

@Suite struct ObservationTests {
    @Test func observersReceiveKeysPerEntityAfterCommit() throws {
        let mapper = try makeMapper()
        let all = ChangeRecorder()
        let users = ChangeRecorder()
        let observations = [mapper.observeChanges(all.record), try mapper.observeChanges(to: APIUser.self, users.record)]
        defer { observations.forEach { $0.cancel() } }
        try mapper.importJSON(twoUsersJSON, as: "User")
        let changes = try #require(all.all.first)
        #expect(changes["User"] == .init(entity: "User", inserted: [.int(1), .int(2), .int(99)]))
        #expect(changes["Repo"]?.inserted == [.int(10), .int(11)])
        #expect(changes["Tag"]?.inserted == [.string("swift"), .string("cli")])
        #expect(changes["Address"]?.inserted == [.null])
        #expect(users.all.map { $0.entities.map(\.entity) } == [["User"]])

        try mapper.importJSON(#"{"id": 1, "repos": [{"id": 10, "name": "kit", "tags": [{"name": "swift"}]}]}"#, as: "User")
        let second = try #require(all.all.last)
        #expect(second["User"] == .init(entity: "User", updated: [.int(1)]))
        #expect(second["Repo"] == .init(entity: "Repo", updated: [.int(10), .int(11)]))
        #expect(second["Tag"] == .init(entity: "Tag", deleted: [.string("cli")]))
        #expect(all.all.count == 2)
    }

    @Test func nothingIsDeliveredForARollbackOrADryRun() throws {
        struct Stop: Error {}
        let mapper = try makeMapper()
        let recorder = ChangeRecorder()
        let observation = mapper.observeChanges(recorder.record)
        defer { observation.cancel() }
        #expect(throws: ImportError.self) { try mapper.importJSON(#"[{"id": 1}, {"id": "x"}]"#, as: "User") }
        try mapper.importJSON(#"{"id": 1}"#, as: "User", options: .init(dryRun: true))
        #expect(throws: Stop.self) {
            try mapper.write {
                try mapper.save(APIUser(id: 1, login: "a"))
                throw Stop()
            }
        }
        try mapper.importJSON(#"{"id": 1}"#, as: "User")
        try mapper.importJSON(#"{"id": 1}"#, as: "User")
        #expect(recorder.all == [StoreChanges(entities: [.init(entity: "User", inserted: [.int(1)])])])
    }

    @Test func aWriteBlockIsDeliveredOnceWithTheNetChanges() throws {
        let mapper = try makeMapper()
        let recorder = ChangeRecorder()
        let observation = mapper.observeChanges(recorder.record)
        defer { observation.cancel() }
        try mapper.write {
            try mapper.save(APIUser(id: 1, login: "a"))
            try mapper.save(APIUser(id: 1, login: "b"))
            try mapper.save(APIUser(id: 2, login: "c"))
            #expect(recorder.all.isEmpty)
        }
        #expect(recorder.all == [StoreChanges(entities: [.init(entity: "User", inserted: [.int(1), .int(2)])])])
    }

    @Test func aNestedBlockThatIsUndoneLeavesNoChangesBehind() throws {
        struct Stop: Error {}
        let mapper = try makeMapper()
        let recorder = ChangeRecorder()
        let observation = mapper.observeChanges(recorder.record)
        defer { observation.cancel() }
        try mapper.write {
            try mapper.save(APIUser(id: 1, login: "a"))
            #expect(throws: Stop.self) {
                try mapper.write {
                    try mapper.save(APIUser(id: 2, login: "b"))
                    throw Stop()
                }
            }
        }
        #expect(try mapper.all(APIUser.self).map(\.id) == [1])
        #expect(recorder.all == [StoreChanges(entities: [.init(entity: "User", inserted: [.int(1)])])])
    }

    @Test func cancelledObserversHearNothingMore() throws {
        let mapper = try makeMapper()
        let recorder = ChangeRecorder()
        let observation = mapper.observeChanges(recorder.record)
        try mapper.save(APIUser(id: 1, login: "a"))
        observation.cancel()
        try mapper.save(APIUser(id: 2, login: "b"))
        #expect(recorder.all.count == 1)
    }

    @Test func observersMayWriteThroughTheMapper() throws {
        let mapper = try makeMapper()
        let recorder = ChangeRecorder()
        let observations = [
            try mapper.observeChanges(to: ["Repo"]) { _ in _ = try? mapper.save(APIUser(id: 50, login: "audit")) },
            try mapper.observeChanges(to: ["User"], recorder.record),
        ]
        defer { observations.forEach { $0.cancel() } }
        try mapper.save(APIRepo(id: 5, name: "x"))
        #expect(recorder.all.map { $0["User"]?.inserted } == [[.int(50)]])
    }
}
