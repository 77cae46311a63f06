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
