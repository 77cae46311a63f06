#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a pthread mutex: `Mutex` from the Synchronization module, in a form
/// ThreadSanitizer can follow.
///
/// On Linux, `Synchronization.Mutex` lets the kernel hand a contended lock to the next thread
/// (`FUTEX_LOCK_PI`, `FUTEX_UNLOCK_PI`). ThreadSanitizer does not see that hand-over, so it
/// reports the accesses such a mutex orders as data races. It does intercept
/// `pthread_mutex_lock` and `pthread_mutex_unlock`, so with this type it checks the guarded
/// state instead of flagging it.
///
/// `@unchecked Sendable`: `value` is read and written only between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` of its own mutex.
final class PthreadMutex<Value: Sendable>: @unchecked Sendable {
    // Unchecked because `value` is mutable: it is only touched while `mutex` is locked.
    // The value lives behind a pointer, not in a stored property: ThreadSanitizer places the
    // access to an empty stored property (`PthreadMutex<Void>`) at the object's address and
    // reports it against the unlocked read of the object's type that finds the property.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = .allocate(capacity: 1)
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with error \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value, holding the lock; the lock is not recursive.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// Runs `body` with the value if the lock is free now; `nil`, without waiting, if not.
    func withLockIfAvailable<R>(_ body: (inout Value) throws -> R) rethrows -> R? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
