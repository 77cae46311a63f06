import Foundation

/// The writer of an async write block (``Mapper/write(_:)-(()async throws->T)``): a thread of
/// its own that holds the store's write lock and transaction for the block's whole duration,
/// and runs, one at a time, every store operation the block makes.
///
/// The block's body is async: it may suspend and resume on any thread. The write lock is a
/// pthread mutex, which only the thread that took it may release, and the store's write scope
/// knows its owner by thread; so the body never touches the store itself. Each operation it
/// makes (an async call, found through ``current``; or a synchronous one, which
/// ``SharedStore/withLock(_:)`` hands over) runs here, on the owning thread, inside the open
/// transaction, and the caller waits for it.
final class WriteSession: Sendable {
    /// The session of the async write block the current task is in, if any.
    @TaskLocal static var current: WriteSession?

    /// The store whose writer the session holds.
    let store: SharedStore
    private let jobs = PthreadMutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    init(store: SharedStore) { self.store = store }

    /// Runs `body` on the session's thread and waits for it without blocking the caller.
    func run<T>(_ body: @escaping @Sendable () throws -> sending T) async throws -> sending T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            enqueue {
                do {
                    continuation.resume(returning: try body())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Runs `body` on the session's thread, blocking the calling thread until it is done: for
    /// a synchronous call made inside the block.
    func runBlocking<T>(_ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let job = BlockingJob(body)
            enqueue { job.run() }
            job.done.wait()
            return try job.result!.get()
        }
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    /// The session thread's work: runs the jobs until `isFinished` says the block is over.
    /// Called on the session thread, inside the write lock and transaction.
    func serve(until isFinished: () -> Bool) {
        while !isFinished() {
            available.wait()
            while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job() }
        }
    }

    /// Wakes ``serve(until:)`` so that it sees the block is over.
    func wake() { available.signal() }
}

extension Mapper {
    /// Runs `body` as one transaction, as ``write(_:)-5hg6g`` does, with a body that can
    /// `await`: every mapper call it makes joins the transaction, which commits when the body
    /// returns and rolls back when it throws.
    ///
    /// ```swift
    /// try await mapper.write {
    ///     let user = try await api.user(7)          // the body may await anything
    ///     try await mapper.save(user)
    ///     try await mapper.destroy(Repo.self, id: 42)
    /// }
    /// ```
    ///
    /// The block holds the store's writer for as long as it runs, awaits included: other
    /// writers (threads, tasks, processes) wait until it ends, while readers elsewhere keep
    /// reading the last committed state. Inside the block, reads see the block's own work. A
    /// private in-memory store has no second connection: reads from outside the block wait
    /// for it to end, so the block must not wait for them.
    /// Cancelling the task makes the block's next import throw `CancellationError`, which
    /// rolls the block back unless the body catches it.
    ///
    /// - Parameter body: the operations.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after rolling back), or ``StoreError`` when the transaction
    ///   cannot begin or commit.
    public func write<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if let session = WriteSession.current, session.store === store { return try await body() }
        let session = WriteSession(store: store)
        let outcome = PthreadMutex<Result<T, any Error>?>(nil)
        let committed = Task.detached { [store] () throws -> Void in
            // The writer's thread: a thread of its own (not one of the cooperative pool, which
            // it holds for the block's whole duration).
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    do {
                        try store.withLock { writer in
                            try writer.write {
                                session.serve { outcome.withLock { $0 != nil } }
                                if case .failure(let error) = outcome.withLock({ $0! }) { throw error }
                            }
                        }
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                thread.start()
            }
        }
        let result = await Result { try await WriteSession.$current.withValue(session) { try await body() } }
        outcome.withLock { $0 = result }
        session.wake()
        try await committed.value
        return try result.get()
    }
}

extension Result where Failure == any Error {
    /// The result of an async throwing `body`.
    init(_ body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

/// A synchronous call handed to a ``WriteSession``: the session thread runs it and lets go of
/// the closure before the caller wakes (the closure must not outlive the call).
///
/// `@unchecked Sendable`: `body` and `result` are set by the session thread while the calling
/// thread waits on `done`, and read by the caller only after it.
private final class BlockingJob<T>: @unchecked Sendable {
    private var body: (() throws -> T)?
    var result: Result<T, any Error>?
    let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping () throws -> T) { self.body = body }

    func run() {
        result = Result { try body!() }
        body = nil
        done.signal()
    }
}
