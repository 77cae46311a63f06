import Dispatch
import Foundation
import Synchronization
import Testing
@testable import JSONImport

@Suite struct ConcurrencyTests {
    /// Runs `work(0..<count)` on as many threads of their own at once, waits for all of them,
    /// and returns every error thrown.
    func concurrently(_ count: Int, _ work: @escaping @Sendable (Int) throws -> Void) -> [String] {
        let errors = Mutex<[String]>([])
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    try work(index)
                } catch {
                    errors.withLock { $0.append("\(index): \(error)") }
                }
            }.start()
        }
        group.wait()
        return errors.withLock { $0 }
    }

    @Test func readersRunWhileOneThreadWritesAndSeeOnlyCommittedStates() throws {
        try withTemporaryStore { path in
            let mapper = try makeFileMapper(path)
            let writes = 40
            let errors = concurrently(5) { thread in
                if thread == 0 {
                    for id in 1...writes {
                        // Each user arrives with its repo in one transaction: readers never see one without the other.
                        try mapper.save(APIUser(id: id, login: "u\(id)", repos: [APIRepo(id: 1000 + id, name: "r\(id)")]))
                    }
                    return
                }
                var last = 0
                while last < writes {
                    let users = try mapper.all(APIUser.self)
                    let repos = users.flatMap(\.repos)
                    if users.count < last || repos.count != users.count {
                        throw QueryError("reader saw \(users.count) users and \(repos.count) repos after \(last)")
                    }
                    last = users.count
                }
            }
            #expect(errors.isEmpty)
            #expect(try mapper.count(APIUser.self) == writes)
        }
    }

    @Test func aReaderDoesNotWaitForAnOpenWriteBlock() throws {
        try withTemporaryStore { path in
            let mapper = try makeFileMapper(path)
            let inBlock = DispatchSemaphore(value: 0)
            let readerDone = DispatchSemaphore(value: 0)
            let seenInside = Mutex<Int?>(nil)
            let errors = concurrently(2) { thread in
                if thread == 0 {
                    try mapper.write {
                        try mapper.save(APIUser(id: 1, login: "a"))
                        seenInside.withLock { $0 = (try? mapper.count(APIUser.self)) ?? -1 }
                        inBlock.signal()
                        readerDone.wait()
                    }
                } else {
                    inBlock.wait()
                    defer { readerDone.signal() }
                    let count = try mapper.count(APIUser.self)
                    if count != 0 { throw QueryError("reader saw uncommitted work: \(count)") }
                }
            }
            #expect(errors.isEmpty)
            #expect(seenInside.withLock { $0 } == 1)
            #expect(try mapper.count(APIUser.self) == 1)
        }
    }

    @Test func twoMappersOnOneFileTakeTurnsWriting() throws {
        try withTemporaryStore { path in
            let mappers = [try makeFileMapper(path), try makeFileMapper(path)]
            let errors = concurrently(4) { thread in
                let mapper = mappers[thread % 2]
                for i in 0..<25 {
                    try mapper.write {
                        let id = thread * 100 + i
                        try mapper.save(APIUser(id: id, login: "u\(id)"))
                        _ = try mapper.count(APIUser.self)
                    }
                }
            }
            #expect(errors.isEmpty)
            #expect(try mappers[0].count(APIUser.self) == 100)
            #expect(try mappers[1].count(APIUser.self) == 100)
        }
    }

    @Test func anInMemoryStoreSerializesReadersAndWriters() throws {
        let mapper = try makeMapper()
        let errors = concurrently(4) { thread in
            for i in 0..<20 {
                if thread == 0 {
                    try mapper.save(APIUser(id: i, login: "u\(i)"))
                } else {
                    _ = try mapper.query(APIUser.self).where("login LIKE 'u%'").all()
                }
            }
        }
        #expect(errors.isEmpty)
        #expect(try mapper.count(APIUser.self) == 20)
    }

    @Test func observersHearEveryTransactionOnceInCommitOrder() throws {
        try withTemporaryStore { path in
            let mapper = try makeFileMapper(path)
            let recorder = ChangeRecorder()
            mapper.observeChanges(recorder.record)
            let errors = concurrently(4) { thread in
                for i in 0..<10 { try mapper.save(APIUser(id: thread * 10 + i, login: "u")) }
            }
            #expect(errors.isEmpty)
            let inserted = recorder.all.flatMap { $0["User"]?.inserted ?? [] }
            #expect(inserted.count == 40)
            #expect(Set(inserted).count == 40)
        }
    }
}
