/// A registered change observer: it lasts while this object does, as `AnyCancellable` does.
/// ``cancel()`` stops it earlier; releasing the last reference stops it too, so an observer
/// cannot outlive whatever holds its token.
///
/// ```swift
/// final class Screen {
///     var observation: ChangeObservation?
///     func start(_ mapper: Mapper) throws {
///         observation = try mapper.observeChanges(to: ["User"]) { print($0) }
///     }
/// }
/// ```
public final class ChangeObservation: Sendable {
    private let registry: ObserverRegistry
    private let id: Int

    init(registry: ObserverRegistry, id: Int) {
        self.registry = registry
        self.id = id
    }

    deinit { cancel() }

    /// Stops delivering changes to this observer. Safe to call more than once, from any thread.
    ///
    /// A delivery already under way on another thread may still reach the callback.
    public func cancel() { registry.remove(id) }
}
