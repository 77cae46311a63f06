/// Change observation (SPEC 3): callbacks after each committed transaction.
extension Mapper {
    /// Calls `callback` after every committed transaction that changed rows, with the primary
    /// keys inserted, updated and deleted per entity.
    ///
    /// Every write is observed: imports, saves, deletions, clean-up, eviction, and a
    /// ``write(_:)-5hg6g`` block as one transaction. A transaction that is rolled back (an error, a
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
    /// observation.cancel()              // or let it go
    /// ```
    ///
    /// - Parameter callback: receives the changes of one transaction.
    /// - Returns: the observation: it lasts until cancelled or released.
    public func observeChanges(_ callback: @escaping @Sendable (StoreChanges) -> Void) -> ChangeObservation {
        observe(ObserverRegistry.Observer(entities: nil, callback: callback))
    }

    /// Calls `callback` after every committed transaction that changed rows of `entities`,
    /// with the changes of those entities only; see ``observeChanges(_:)``.
    ///
    /// ```swift
    /// let observation = try mapper.observeChanges(to: ["Repo", "Tag"]) { changes in print(changes.entities.map(\.entity)) }
    /// ```
    ///
    /// - Parameters:
    ///   - entities: the entities to watch.
    ///   - callback: receives their changes.
    /// - Returns: the observation: it lasts until cancelled or released.
    /// - Throws: ``QueryError`` for an unknown entity.
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
    /// let observation = try mapper.observeChanges(to: User.self) { changes in print(changes["User"]!.updated) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: a Swift type stored as an entity.
    ///   - callback: receives that entity's changes.
    /// - Returns: the observation: it lasts until cancelled or released.
    /// - Throws: ``QueryError`` for an unknown entity.
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

/// Observation as sequences (SPEC 3): a query's values as they change, and committed changes.
extension Mapper {
    /// How often an observation checks whether another mapper or process committed to the
    /// store file.
    static let externalCommitPollInterval: Duration = .milliseconds(100)

    /// The values `query` selects now, then its values again after every commit that can change
    /// them, for as long as the loop runs.
    ///
    /// ```swift
    /// for try await users in mapper.observe(mapper.query(User.self).where("score > 50")) {
    ///     table.show(users)
    /// }
    /// ```
    ///
    /// - A commit can change the values when it changes rows of the query's entity or of an
    ///   entity its relationships reach (a user's repos, their tags). This mapper's commits are
    ///   seen at once; commits by other mappers or processes to the same store file are noticed
    ///   within about 100 ms (SQLite tells that the file changed, not which rows, so such a
    ///   commit yields the values again even when it touched other entities).
    /// - Bursts coalesce: values read after a commit cover every commit made meanwhile, and a
    ///   consumer slower than the commits gets the newest values, not a backlog.
    /// - Ending the loop, or cancelling its task, ends the observation. A query that fails
    ///   (an unknown field, a store error) ends the sequence with its error.
    ///
    /// - Parameter query: what to watch.
    /// - Returns: the query's values, first as they are now.
    public func observe<T: Decodable & Sendable>(_ query: Query<T>) -> AsyncThrowingStream<[T], any Error> {
        let watched = spec.entitiesReached(from: query.entity)
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let (commits, commit) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let observation = observe(ObserverRegistry.Observer(entities: watched) { _ in commit.yield() })
            let watcher = Task { [store] in
                guard store.isReachableElsewhere else { return }
                var version = store.externalCommitVersion()
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.externalCommitPollInterval)
                    guard let now = store.externalCommitVersion() else { continue }
                    if version != nil && now != version { commit.yield() }
                    version = now
                }
            }
            let reader = Task {
                do {
                    continuation.yield(try await query.all())
                    for await _ in commits {
                        continuation.yield(try await query.all())
                    }
                } catch is CancellationError {
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in
                observation.cancel()
                watcher.cancel()
                reader.cancel()
                commit.finish()
            }
        }
    }

    /// The changes of every commit that changes rows of `type`'s entity, from this mapper,
    /// with their primary keys; see ``observeChanges(_:)`` for what is observed.
    ///
    /// ```swift
    /// for await changes in try mapper.changes(to: User.self) {
    ///     print("updated:", changes["User"]?.updated ?? [])
    /// }
    /// ```
    ///
    /// Ending the loop, or cancelling its task, ends it. Commits by other mappers or processes
    /// are not included: SQLite does not tell which rows they changed (``observe(_:)`` notices
    /// them).
    ///
    /// - Throws: ``QueryError`` for a type that is no entity.
    public func changes<T>(to type: T.Type) throws -> AsyncStream<StoreChanges> {
        let name = entityName(of: type)
        let names = spec.entities.map(\.name)
        guard spec.entity(named: name) != nil else {
            throw QueryError(.unknownEntity, "unknown entity '\(name)'\(Suggestion.hint(for: name, among: names))")
        }
        return AsyncStream { continuation in
            let observation = observe(ObserverRegistry.Observer(entities: [name]) { continuation.yield($0) })
            continuation.onTermination = { _ in observation.cancel() }
        }
    }
}

extension MappingSpec {
    /// `entity` and every entity its relationships reach, directly or through others.
    func entitiesReached(from entity: String) -> Set<String> {
        var reached: Set<String> = [entity]
        var next = [entity]
        while let name = next.popLast() {
            for relationship in self.entity(named: name)?.relationships ?? [] where reached.insert(relationship.target).inserted {
                next.append(relationship.target)
            }
        }
        return reached
    }
}
