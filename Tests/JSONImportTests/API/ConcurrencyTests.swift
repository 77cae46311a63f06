import Dispatch
import Foundation
import Synchronization
import Testing
@testable import JSONImport

@Suite struct ConcurrencyTests {
    /// Runs `work(0..<count)` on as many threads of their own at once, waits for all of them,
    /// and returns every error thrown.
    func concurrently(_ count: Int, _ work: @escaping @Sendable (Int) throws -> Void) -> [String] {
        let errors = PthreadMutex<[String]>([])
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

    /// Importers, readers and an observer use one mapper at once. Every import is one batch of
    /// users, each with two repos, in one transaction: a read may only ever see whole batches.
    /// Over a file, reads use connections of their own; in memory, they take turns with writes.
    @Test(arguments: ["file", "memory"])
    func contendedImportsReadsAndObserversThroughOneMapperSeeOnlyWholeBatches(store: String) throws {
        try withTemporaryStore { path in
            let mapper = try store == "file" ? makeFileMapper(path) : makeMapper()
            let importers = 3, batches = 6, batchSize = 3, readers = 3
            let total = importers * batches * batchSize
            let finishedImporters = Atomic<Int>(0)
            let heard = ChangeRecorder()
            let observerErrors = PthreadMutex<[String]>([])
            let observation = mapper.observeChanges { changes in
                heard.record(changes)
                // Deliveries come in commit order, after the commit: a read sees at least this much.
                let delivered = heard.all.reduce(0) { $0 + ($1["User"]?.inserted.count ?? 0) }
                let seen = Result { try mapper.count(APIUser.self) }
                if case .success(let count) = seen, count >= delivered { return }
                observerErrors.withLock { $0.append("observer heard of \(delivered) users, then read \(seen)") }
            }
            defer { observation.cancel() }
            let errors = concurrently(importers + readers) { thread in
                if thread < importers {
                    defer { finishedImporters.add(1, ordering: .releasing) }
                    for batch in 0..<batches {
                        let payload = Data(Self.batchJSON(number: thread * batches + batch, size: batchSize).utf8)
                        if batch.isMultiple(of: 2) {
                            _ = try mapper.importData(payload, as: "User")
                        } else {
                            // Inside a write block, reads see the block's own work, still whole batches.
                            try mapper.write {
                                _ = try mapper.importData(payload, as: "User")
                                try Self.expectWholeBatches(mapper.all(APIUser.self), size: batchSize)
                            }
                        }
                    }
                    return
                }
                var last = 0
                var isFinal = false
                while !isFinal {
                    isFinal = finishedImporters.load(ordering: .acquiring) == importers
                    let users = try mapper.all(APIUser.self)
                    try Self.expectWholeBatches(users, size: batchSize)
                    if users.count < last { throw QueryError("reader saw \(users.count) users after \(last)") }
                    last = users.count
                }
                if last != total { throw QueryError("reader's last read saw \(last) users, not \(total)") }
            }
            #expect(errors.isEmpty)
            #expect(observerErrors.withLock { $0 }.isEmpty)
            let users = try mapper.all(APIUser.self)
            let expectedIDs = (0..<importers * batches).flatMap { batch in (0..<batchSize).map { batch * 100 + $0 } }
            #expect(users.map(\.id).sorted() == expectedIDs)
            #expect(users.allSatisfy { $0.repos.map(\.id).sorted() == [$0.id * 10 + 1, $0.id * 10 + 2] })
            #expect(try mapper.count(APIRepo.self) == 2 * total)
            let deliveries = heard.all.compactMap { $0["User"]?.inserted }
            #expect(deliveries.count == importers * batches)
            #expect(deliveries.allSatisfy { $0.count == batchSize })
            #expect(Set(deliveries.flatMap { $0 }) == Set(expectedIDs.map { RecordValue.int(Int64($0)) }))
        }
    }

    /// Batch `number`: users `number * 100 + 0..<size`, user `id` with repos `id * 10 + 1` and `+ 2`.
    static func batchJSON(number: Int, size: Int) -> String {
        let users = (0..<size).map { index in
            let id = number * 100 + index
            return #"{"id": \#(id), "login": "u\#(id)", "repos": [{"id": \#(id * 10 + 1), "name": "a"}, {"id": \#(id * 10 + 2), "name": "b"}]}"#
        }
        return "[" + users.joined(separator: ", ") + "]"
    }

    /// Throws unless `users` are whole batches of `size` users, each user with both its repos.
    static func expectWholeBatches(_ users: [APIUser], size: Int) throws {
        for (batch, members) in Dictionary(grouping: users, by: { $0.id / 100 }) where members.count != size {
            throw QueryError("read saw \(members.count) of the \(size) users of batch \(batch)")
        }
        for user in users where user.repos.count != 2 {
            throw QueryError("read saw user \(user.id) with \(user.repos.count) of its 2 repos")
        }
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
            let seenInside = PthreadMutex<Int?>(nil)
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
            let observation = mapper.observeChanges(recorder.record)
            defer { observation.cancel() }
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
