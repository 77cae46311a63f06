import Synchronization

/// The change observers registered on one mapper.
final class ObserverRegistry: Sendable {
    private let observers = PthreadMutex<[Int: Observer]>([:])
    private let nextID = Atomic<Int>(1)

    /// One registered callback, with the entities it watches (`nil`: all).
    struct Observer: Sendable {
        let entities: Set<String>?
        let callback: @Sendable (StoreChanges) -> Void

        func deliver(_ changes: StoreChanges) {
            let relevant = entities.map(changes.restricted(to:)) ?? changes
            if !relevant.isEmpty { callback(relevant) }
        }
    }

    var isEmpty: Bool { observers.withLock { $0.isEmpty } }

    func add(_ observer: Observer) -> Int {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        observers.withLock { $0[id] = observer }
        return id
    }

    func remove(_ id: Int) {
        _ = observers.withLock { $0.removeValue(forKey: id) }
    }

    /// The observers now, in registration order.
    func snapshot() -> [Observer] {
        observers.withLock { all in all.keys.sorted().compactMap { all[$0] } }
    }
}
