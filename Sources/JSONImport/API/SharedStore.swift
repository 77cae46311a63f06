import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store as a ``Mapper`` shares it between threads.
///
/// - Writes go through one writer connection behind a lock. The thread holding the lock may
///   take it again, so the operations inside a ``Mapper/write(_:)`` block (and validators
///   reading through the mapper) join the block's transaction instead of deadlocking.
/// - Reads on other threads use read-only connections of their own, each in a read
///   transaction, so they run while a write is in progress and see the last committed state
///   (SQLite's WAL). A private in-memory store has no second connection: its reads take the
///   writer's lock.
/// - When the outermost hold of the lock ends, the transactions it committed are handed to the
///   observers, outside the lock, in commit order.
/// - The locks are ``PthreadMutex``es rather than `Synchronization.Mutex`, so that
///   ThreadSanitizer sees them (README, Sanitizers).
///
/// `@unchecked Sendable`: the writer store is touched only while its ``PthreadMutex`` is held,
/// the readers only as `idleReaders` hands them out, the deliveries under their own mutex.
final class SharedStore: @unchecked Sendable {
    // Unchecked because `writer` is not Sendable: it is only used by the thread recorded in
    // `owner`, which holds `lock`. A reader `Store` is only used by the thread that took it out
    // of `idleReaders`.
    private let writer: Store
    private let lock = PthreadMutex<Void>(())
    private let owner = Atomic<UInt>(0)
    private let readerPath: String?
    private let busyTimeout: Double
    private let idleReaders = PthreadMutex<[ReaderConnection]>([])
    private let deliveries = PthreadMutex<DeliveryQueue>(DeliveryQueue())
    let observers = ObserverRegistry()
    /// Validation hooks by entity index (see ``Mapper/setValidator(for:_:)``); read and written
    /// only while the write lock is held.
    var validators: [Int: @Sendable (RecordFields) throws -> Void] = [:]

    /// Shares `writer`; `readers` is the file readers open (`nil` for an in-memory store).
    init(_ writer: Store, readers: String?, busyTimeout: Double) {
        self.writer = writer
        self.readerPath = readers
        self.busyTimeout = busyTimeout
        writer.writeState.listens = { [observers] in !observers.isEmpty }
    }

    /// Runs `body` with the writer, holding the write lock (again, if this thread holds it).
    func withLock<R>(_ body: (Store) throws -> R) throws -> R {
        let me = Self.currentThread
        // Only this thread can have stored its own id, so a relaxed load cannot be fooled.
        if owner.load(ordering: .relaxed) == me { return try body(writer) }
        // A synchronous call inside an async write block runs on the block's writer thread.
        if let session = WriteSession.current, session.store === self { return try session.runBlocking { try withLock(body) } }
        var result: Result<R, any Error>?
        lock.withLock { _ in
            owner.store(me, ordering: .relaxed)
            result = Result { try body(writer) }
            owner.store(0, ordering: .relaxed)
            let committed = writer.writeState.committed
            writer.writeState.committed = []
            if !committed.isEmpty { deliveries.withLock { $0.pending += committed } }
        }
        deliverPending()
        return try result!.get()
    }

    /// `false` for a private in-memory store, which no other connection reaches.
    var isReachableElsewhere: Bool { readerPath != nil }

    /// A number that changes when a connection other than this mapper's commits to the store
    /// file (another mapper or process); `nil` when the writer is busy now (then its own work
    /// is under way, and the next call tells), and for an in-memory store, which no one else
    /// reaches.
    func externalCommitVersion() -> Int64? {
        guard isReachableElsewhere else { return nil }
        return lock.withLockIfAvailable { _ in try? writer.externalCommitVersion() } ?? nil
    }

    /// `true` when this thread holds the write lock (inside a write block).
    var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == Self.currentThread }

    /// Runs `body` with a store that shows the last committed state, in one read transaction;
    /// inside a write block it is the writer, so the block sees its own work.
    func withReader<R>(_ body: (Store) throws -> R) throws -> R {
        guard let readerPath, !isHeldByCurrentThread, WriteSession.current?.store !== self else { return try withLock(body) }
        let reader = try idleReaders.withLock { $0.popLast() }
            ?? ReaderConnection(
                try Store(
                    Store.Location(path: readerPath, create: false, readOnly: true), spec: writer.spec,
                    busyTimeout: busyTimeout))
        defer { idleReaders.withLock { $0.append(reader) } }
        return try reader.store.transaction(.read) { try body(reader.store) }
    }

    /// Hands queued changes to the observers. One thread delivers at a time, in commit order; a
    /// thread that finds a delivery running leaves its changes to that thread.
    private func deliverPending() {
        while true {
            let batch: [StoreChanges]? = deliveries.withLock { queue in
                guard !queue.isDelivering, !queue.pending.isEmpty else { return nil }
                queue.isDelivering = true
                defer { queue.pending = [] }
                return queue.pending
            }
            guard let batch else { return }
            let observers = self.observers.snapshot()
            for changes in batch {
                for observer in observers { observer.deliver(changes) }
            }
            deliveries.withLock { $0.isDelivering = false }
        }
    }

    private struct DeliveryQueue {
        var pending: [StoreChanges] = []
        var isDelivering = false
    }

    /// An id of the calling thread, never 0.
    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}

/// A read-only store kept for reuse.
///
/// `@unchecked Sendable`: one thread at a time uses it, as `idleReaders` (a ``PthreadMutex``)
/// hands it out and takes it back; its store is never touched while it sits there.
private final class ReaderConnection: @unchecked Sendable {
    // Unchecked because `Store` is not Sendable: a reader is only used by the one thread that
    // took it out of `SharedStore.idleReaders`, the mutex that hands it out.
    let store: Store

    init(_ store: Store) { self.store = store }
}
