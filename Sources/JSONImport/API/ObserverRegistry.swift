import Synchronization

/// The change observers registered on one mapper.
final class ObserverRegistry: Sendable {
    private let observers = Mutex<[Int: Observer]>([:])
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

/// A registered change observer; ``cancel()`` stops its deliveries.
///
/// The observation lasts until it is cancelled, whether or not this object is kept, so that
/// `mapper.observeChanges { … }` works without storing the result.
///
/// ```swift
/// let observation = mapper.observeChanges(to: ["User"]) { print($0) }
/// // …
/// observation.cancel()
/// ```
public final class ChangeObservation: Sendable {
    private let registry: ObserverRegistry
    private let id: Int

    init(registry: ObserverRegistry, id: Int) {
        self.registry = registry
        self.id = id
    }

    /// Stops delivering changes to this observer. Safe to call more than once, from any thread.
    ///
    /// A delivery already under way on another thread may still reach the callback.
    public func cancel() { registry.remove(id) }
}
