/// Change observation (SPEC 3): callbacks after each committed transaction.
extension Mapper {
    /// Calls `callback` after every committed transaction that changed rows, with the primary
    /// keys inserted, updated and deleted per entity.
    ///
    /// Every write is observed: imports, saves, deletions, clean-up, eviction, and a
    /// ``write(_:)`` block as one transaction. A transaction that is rolled back (an error, a
    /// dry run) delivers nothing. Deliveries happen after the commit, outside the store's lock,
    /// one at a time and in commit order, on a thread that committed; the callback may read
    /// and write through the mapper. Observing costs one key lookup per changed row while
    /// there are observers.
    ///
    /// ```swift
    /// let observation = mapper.observeChanges { changes in
    ///     if let users = changes["User"] { print("users inserted:", users.inserted) }
    /// }
    /// try mapper.map(User.self, json)   // prints: users inserted: [1, 2]
    /// observation.cancel()
    /// ```
    ///
    /// - Parameter callback: receives the changes of one transaction.
    /// - Returns: the observation, to cancel it; it lasts until cancelled even if not kept.
    @discardableResult
    public func observeChanges(_ callback: @escaping @Sendable (StoreChanges) -> Void) -> ChangeObservation {
        observe(ObserverRegistry.Observer(entities: nil, callback: callback))
    }

    /// Calls `callback` after every committed transaction that changed rows of `entities`,
    /// with the changes of those entities only; see ``observeChanges(_:)``.
    ///
    /// ```swift
    /// try mapper.observeChanges(to: ["Repo", "Tag"]) { changes in print(changes.entities.map(\.entity)) }
    /// ```
    ///
    /// - Parameters:
    ///   - entities: the entities to watch.
    ///   - callback: receives their changes.
    /// - Returns: the observation, to cancel it.
    /// - Throws: ``QueryError`` for an unknown entity.
    @discardableResult
    public func observeChanges(
        to entities: [String], _ callback: @escaping @Sendable (StoreChanges) -> Void
    ) throws -> ChangeObservation {
        let names = spec.entities.map(\.name)
        for name in entities where spec.entity(named: name) == nil {
            throw QueryError(.unknownEntity, "unknown entity '\(name)'\(Suggestion.hint(for: name, among: names))")
        }
        return observe(ObserverRegistry.Observer(entities: Set(entities), callback: callback))
    }

    /// Calls `callback` after every committed transaction that changed rows of `type`'s
    /// entity; see ``observeChanges(_:)``.
    ///
    /// ```swift
    /// try mapper.observeChanges(to: User.self) { changes in print(changes["User"]!.updated) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: a Swift type stored as an entity.
    ///   - callback: receives that entity's changes.
    /// - Returns: the observation, to cancel it.
    /// - Throws: ``QueryError`` for an unknown entity.
    @discardableResult
    public func observeChanges<T>(
        to type: T.Type, _ callback: @escaping @Sendable (StoreChanges) -> Void
    ) throws -> ChangeObservation {
        try observeChanges(to: [entityName(of: type)], callback)
    }

    private func observe(_ observer: ObserverRegistry.Observer) -> ChangeObservation {
        let registry = store.observers
        return ChangeObservation(registry: registry, id: registry.add(observer))
    }
}
