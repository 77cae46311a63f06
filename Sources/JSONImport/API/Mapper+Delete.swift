import Foundation

/// Deleting rows, the clean-up pass and eviction (SPEC 2.5, 4.1 `delete` and `clean`).
extension Mapper {
    /// Deletes rows of `entity` picked by primary key or filter, applying every relationship's
    /// `onDelete` rule, then runs the clean-up pass; all in one transaction.
    ///
    /// `nullify` drops the deleted rows' links, `cascade` deletes the linked rows too (through
    /// forward and back sides, each by its own rule, recursively), and `deny` refuses the whole
    /// deletion while the row links to rows that would stay. Ids and filter together pick the
    /// rows matching both. Naming rows that do not exist deletes nothing and is no error.
    ///
    /// ```swift
    /// let report = try mapper.delete("User", ids: ["1"], options: .init(explain: true))
    /// print(report.counts(for: "Repo").deleted)   // repos deleted by User.repos' cascade
    /// try mapper.delete("Repo", where: "stars < 5 AND owner.login = 'ana'")
    /// ```
    ///
    /// The rows to delete are marked in temporary tables and deleted set-based:
    /// `DELETE FROM "User" WHERE "id" IN (SELECT id FROM "_delete_0" WHERE round = 0)`.
    ///
    /// - Parameters:
    ///   - entity: the entity to delete from.
    ///   - ids: primary keys in their command-line form (a composite key as its values joined
    ///     by commas, in key order).
    ///   - filter: a filter expression (SPEC 4.3).
    ///   - options: cascade, clean-up, explain.
    /// - Returns: what the deletion did; `entity` is set, `deleted` counts every row removed
    ///   (cascades and clean-up included), neighbours whose links changed count as `updated`.
    /// - Throws: ``QueryError`` for an unknown entity or field, a malformed filter, a key that
    ///   does not convert, or neither ids nor filter given; ``DeleteError`` when `deny` refuses
    ///   (the store is unchanged); ``StoreError`` for store failures.
    /// - Complexity: a few statements per entity and cascade step, whatever the number of rows.
    @discardableResult
    public func delete(
        _ entity: String, ids: [String] = [], where filter: String? = nil, options: DeleteOptions = .default
    ) throws -> ImportReport {
        guard !ids.isEmpty || filter != nil else {
            throw QueryError("name the \(entity) rows to delete by primary key or filter (deleteAll deletes every row)")
        }
        return try delete(entity, ids: ids, filter: filter, options: options)
    }

    /// Deletes every row of `entity`, with the same rules as ``delete(_:ids:where:options:)-1m7pp``.
    ///
    /// ```swift
    /// try mapper.deleteAll("Tag")
    /// ```
    ///
    /// - Throws: ``QueryError`` for an unknown entity, ``DeleteError`` when `deny` refuses,
    ///   ``StoreError`` for store failures.
    public func deleteAll(_ entity: String, options: DeleteOptions = .default) throws -> ImportReport {
        try delete(entity, ids: [], filter: nil, options: options)
    }

    private func delete(_ name: String, ids: [String], filter: String?, options: DeleteOptions) throws -> ImportReport {
        var query = Query<Never>(mapper: self, entity: name).includingStubs()
        if !ids.isEmpty { query = query.keys(text: ids) }
        if let filter { query = query.where(filter) }
        return try store.withLock { store in try destroy(query, in: store, options: options) }
    }

    /// Runs the clean-up pass (SPEC 2.5), after evicting rows not seen for `age` seconds when it
    /// is given.
    ///
    /// Eviction deletes rows whose `seenAt` (the last time an import contained a record for
    /// them) is older than now − `age`, in every entity with timestamps or only in `entities`,
    /// applying their `onDelete` rules (reason `evict`); rows of entities with
    /// `timestamps: false` are never evicted. Then the clean-up pass deletes every row of the
    /// `cleanup: orphans` entities that no root reaches (reason `orphan`).
    ///
    /// ```swift
    /// try mapper.clean()                                           // clean-up pass only
    /// try mapper.clean(olderThan: 30 * 86_400, entities: ["Repo"])  // evict, then clean up
    /// ```
    ///
    /// - Parameters:
    ///   - age: evict rows not seen for this many seconds; `nil` evicts nothing.
    ///   - entities: the entities to evict from; `nil` for every entity with timestamps.
    ///   - explain: list every deleted row and why in the report.
    /// - Returns: what was deleted; `entity` is `nil`.
    /// - Throws: ``QueryError`` for an unknown entity, an entity with `timestamps: false`, a
    ///   negative age, or entities without an age; ``DeleteError`` when `deny` refuses (the
    ///   store is unchanged); ``StoreError`` for store failures.
    @discardableResult
    public func clean(olderThan age: Double? = nil, entities: [String]? = nil, explain: Bool = false) throws -> ImportReport {
        let now = Date().timeIntervalSince1970
        if let age, !(age >= 0) { throw QueryError("the age of rows to evict must be zero or more seconds, got \(age)") }
        if age == nil, entities != nil { throw QueryError("entities to evict from need an age (olderThan)") }
        return try store.withLock { store in
            var evicted = store.plan.entities.filter { $0.spec.hasTimestamps }
            if let entities {
                evicted = try entities.map { name in
                    let entity = try store.entityPlan(name)
                    guard entity.spec.hasTimestamps else {
                        throw QueryError("\(name) has 'timestamps: false': its rows have no seenAt and are never evicted")
                    }
                    return entity
                }
            }
            return try DeleteRun(store: store, now: now, explain: explain)
                // An age past year 0000 evicts what any age would: no date is earlier, and a
                // store's timestamps end there (PostgreSQL's `timestamptz` refuses far earlier).
                .clean(evicting: evicted, seenBefore: age.map { max(now - $0, DateCoding.earliest) })
        }
    }

    /// Evicts the rows of `types`' entities not seen for `age` seconds, then runs the clean-up
    /// pass; see ``clean(olderThan:entities:explain:)-1j2jo``.
    ///
    /// ```swift
    /// try mapper.clean(olderThan: 30 * 86_400, types: [Repo.self, Tag.self])
    /// ```
    @discardableResult
    public func clean(olderThan age: Double, types: [Any.Type], explain: Bool = false) throws -> ImportReport {
        try clean(olderThan: age, entities: types.map { entityName(of: $0) }, explain: explain)
    }
}
