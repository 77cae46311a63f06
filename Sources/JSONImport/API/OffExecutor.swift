import Foundation
import Synchronization

/// Whether the task that started an operation from async code was cancelled: set by the task's
/// cancellation handler, read by an import between records.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Throws `CancellationError` once the flag is set.
    func check() throws {
        if isCancelled { throw CancellationError() }
    }

    private static let key = "JSONImport.cancellation"

    /// The flag of the async call running on this thread; `nil` for a call made synchronously.
    static var current: CancellationFlag? { Thread.current.threadDictionary[key] as? CancellationFlag }

    /// Runs `body` with this flag as the thread's ``current`` one.
    func whileCurrent<T>(_ body: () throws -> T) rethrows -> T {
        let dictionary = Thread.current.threadDictionary
        let outer = dictionary[Self.key]
        dictionary[Self.key] = self
        defer { dictionary[Self.key] = outer }
        return try body()
    }
}

extension Mapper {
    /// The library's own threads, where async calls run their blocking work: never a thread of
    /// the cooperative pool, which a call holding one for its whole duration would starve.
    private static let workQueue = DispatchQueue(label: "JSONImport.work", qos: .userInitiated, attributes: .concurrent)

    /// Runs the blocking `body` on the library's threads and waits for it without blocking the
    /// caller's executor. Cancelling the calling task sets the call's ``CancellationFlag``: an
    /// import stops at the next record, rolls back and throws `CancellationError`.
    ///
    /// Inside an async write block the work runs on the block's writer thread instead, in its
    /// transaction (see ``WriteSession``).
    func offExecutor<T>(_ body: @escaping @Sendable () throws -> sending T) async throws -> sending T {
        let session = WriteSession.current.flatMap { $0.store === store ? $0 : nil }
        return try await Self.offExecutor(in: session, body)
    }

    /// Runs the blocking `body` in `session`, or on the library's threads when there is none
    /// (work that needs no store, such as inferring a mapping), as the instance method does.
    static func offExecutor<T>(in session: WriteSession? = nil, _ body: @escaping @Sendable () throws -> sending T)
        async throws -> sending T
    {
        try Task.checkCancellation()
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            if let session { return try await session.run { try flag.whileCurrent(body) } }
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                Self.workQueue.async {
                    do {
                        continuation.resume(returning: try flag.whileCurrent(body))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            flag.cancel()
        }
    }
}
