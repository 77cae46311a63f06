import Foundation
import Testing
@testable import JSONImport

/// The async forms: same results as the synchronous calls, cancellation that rolls an import
/// back, and progress as a sequence.
@Suite struct AsyncTests {
    @Test func asyncCallsGiveWhatTheSynchronousOnesGive() async throws {
        let mapper = try makeMapper()
        let users = try await mapper.map(APIUser.self, twoUsersJSON)
        #expect(users.map(\.id) == [1, 2])
        #expect(try await mapper.find(APIUser.self, id: 1) == users[0])
        #expect(try await mapper.find(APIUser.self, ids: [2, 1]) == [users[1], users[0]])
        // A closure that is not async calls the synchronous forms.
        let synchronousAll = { try mapper.all(APIUser.self) }
        #expect(try await mapper.all(APIUser.self) == (try synchronousAll()))
        #expect(try await mapper.count(APIUser.self) == 2)
        #expect(try await mapper.query(APIUser.self).where("login = 'ana'").all().map(\.id) == [1])
        let synchronousNames = { try mapper.query(APIRepo.self).pluck("name", as: String.self) }
        #expect(try await mapper.query(APIRepo.self).pluck("name", as: String.self) == (try synchronousNames()))

        try await mapper.save(APIUser(id: 5, login: "eve"))
        #expect(try await mapper.find(APIUser.self, id: 5)?.login == "eve")
        try await mapper.destroy(APIUser.self, id: 5)
        #expect(try await mapper.find(APIUser.self, id: 5) == nil)
        let export = try await mapper.exportData(ExportRequest(entity: "User", ids: ["1"], depth: 0))
        #expect(String(decoding: export, as: UTF8.self).contains("ana"))
    }

    /// Cancelling the task of an import stops it at the next record: nothing of it is kept.
    @Test func cancellingAnImportRollsItBack() async throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1, "login": "ana"}]"#, as: "User")
        let gate = Gate()
        try mapper.setValidator(for: "User") { _ in gate.arriveAndWait() }
        let payload = Data("[\((10...40).map { #"{"id": \#($0), "login": "u\#($0)"}"# }.joined(separator: ","))]".utf8)
        let task = Task { try await mapper.importData(payload, as: "User") }
        gate.waitForArrival()
        task.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { try await task.value }
        try mapper.setValidator(for: "User", nil)
        #expect(try await mapper.query(APIUser.self).pluck("login", as: String.self) == ["ana"])
    }

    @Test func aTaskCancelledBeforeTheCallStartsNothing() async throws {
        let mapper = try makeMapper()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await mapper.map(APIUser.self, twoUsersJSON)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await mapper.count(APIUser.self) == 0)
    }

    @Test func importingReportsProgressThenTheReport() async throws {
        let mapper = try makeMapper()
        var progress: [ImportProgress] = []
        var report: ImportReport?
        for try await event in mapper.importing([.data(Data(twoUsersJSON.utf8), name: "users.json")], as: "User") {
            switch event {
            case .progress(let update): progress.append(update)
            case .finished(let finished): report = finished
            }
        }
        #expect(progress.last?.isFinished == true)
        #expect(progress.last?.records == 2)
        #expect(report?.records == 2)
        #expect(try await mapper.count(APIUser.self) == 2)
    }

    @Test func importingThrowsWhatTheImportThrows() async throws {
        let mapper = try makeMapper()
        await #expect(throws: ImportError.self) {
            for try await _ in mapper.importing([.data(Data("[{".utf8), name: "broken.json")], as: "User") {}
        }
        #expect(try await mapper.count(APIUser.self) == 0)
    }
}

/// Async write blocks: one transaction across awaits.
@Suite struct AsyncWriteTests {
    @Test func aBlockCommitsEverythingItDidAcrossAwaits() async throws {
        let mapper = try makeMapper()
        let seen = try await mapper.write {
            try await mapper.save(APIUser(id: 1, login: "ana"))
            try await Task.sleep(for: .milliseconds(5))
            try await mapper.save(APIUser(id: 2, login: "bo"))
            // Inside the block, reads see the block's own work.
            return try await mapper.count(APIUser.self)
        }
        #expect(seen == 2)
        #expect(try await mapper.query(APIUser.self).order(by: "id").pluck("login", as: String.self) == ["ana", "bo"])
    }

    @Test func aBlockThatThrowsKeepsNothing() async throws {
        struct Stop: Error {}
        let mapper = try makeMapper()
        try await mapper.save(APIUser(id: 1, login: "ana"))
        await #expect(throws: Stop.self) {
            try await mapper.write {
                try await mapper.save(APIUser(id: 2, login: "bo"))
                try await mapper.destroy(APIUser.self, id: 1)
                throw Stop()
            }
        }
        #expect(try await mapper.query(APIUser.self).pluck("login", as: String.self) == ["ana"])
    }

    @Test func othersSeeTheBlockOnlyOnceItCommits() async throws {
        try await withTemporaryStoreAsync { path in
            let mapper = try makeFileMapper(path)
            try await mapper.write {
                try await mapper.save(APIUser(id: 1, login: "ana"))
                // A task outside the block reads the last committed state.
                let outside = try await Task.detached { try await mapper.count(APIUser.self) }.value
                #expect(outside == 0)
                // A synchronous call inside the block joins it.
                let inside = { try mapper.count(APIUser.self) }
                #expect(try inside() == 1)
            }
            #expect(try await mapper.count(APIUser.self) == 1)
        }
    }
}

/// Lets a test hold the importing thread at a validator until it has done something.
private final class Gate: Sendable {
    private let state = PthreadMutex((arrived: false, open: false))

    /// Called on the importing thread: notes the arrival, then waits until the gate opens.
    func arriveAndWait() {
        state.withLock { $0.arrived = true }
        wait { $0.open }
    }

    func waitForArrival() { wait { $0.arrived } }

    func open() { state.withLock { $0.open = true } }

    private func wait(until condition: @escaping ((arrived: Bool, open: Bool)) -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !state.withLock({ condition($0) }) && Date() < deadline { usleep(1000) }
    }
}
