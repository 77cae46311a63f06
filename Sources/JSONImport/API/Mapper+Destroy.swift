import Foundation

/// Deleting records named by Swift values, keys or queries (SPEC 2.5, 3), through the deletion
/// engine of ``Mapper/delete(_:ids:where:options:)``.
extension Mapper {
    /// Deletes the record with primary key `id`, applying its relationships' `onDelete` rules,
    /// then runs the clean-up pass; all in one transaction.
    ///
    /// `cascade` rules delete linked rows too, `nullify` drops the links, `deny` refuses the
    /// whole deletion while links exist. With `options.cascade` off only the record itself is
    /// deleted (its links dropped; `deny` still refuses). A key without a record deletes nothing.
    ///
    /// ```swift
    /// let report = try mapper.destroy(User.self, id: 1)
    /// print(report.counts(for: "Repo").deleted)                            // cascaded
    /// try mapper.destroy(User.self, id: 2, options: .init(cascade: false))  // repos stay
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type whose entity to delete from.
    ///   - id: the key: a single value, or an array of values in key order.
    ///   - options: cascade, clean-up, explain.
    /// - Returns: what was deleted (`deleted` counts, cascades and clean-up included).
    /// - Throws: ``QueryError`` for an unknown entity or a key that does not convert;
    ///   ``DeleteError`` when `deny` refuses (nothing is deleted); ``StoreError`` for store
    ///   failures.
    @discardableResult
    public func destroy<T>(_ type: T.Type, id: some Encodable, options: DeleteOptions = .default) throws -> ImportReport {
        let name = entityName(of: type)
        return try store.withLock { store in
            let entity = try store.entityPlan(name)
            let key = try store.storedKey(of: entity, from: PropertyEncoder.encode(id))
            return try destroy(Query<Never>(mapper: self, entity: name).includingStubs(), ids: [key], in: store, options: options)
        }
    }

    /// Deletes the record that `value` is (by its primary key); see ``destroy(_:id:options:)-(_,Encodable,_)``.
    ///
    /// ```swift
    /// let repo = try mapper.find(Repo.self, id: 1296269)!
    /// try mapper.destroy(repo)
    /// ```
    ///
    /// - Parameters:
    ///   - value: a value of a type stored as an entity with a primary key.
    ///   - options: cascade, clean-up, explain.
    /// - Returns: what was deleted.
    /// - Throws: ``QueryError`` when the value has no valid key, and as ``destroy(_:id:options:)-(_,Encodable,_)``.
    @discardableResult
    public func destroy<T: Encodable>(_ value: T, options: DeleteOptions = .default) throws -> ImportReport {
        let name = entityName(of: T.self)
        return try store.withLock { store in
            let entity = try store.entityPlan(name)
            guard let key = store.storedKey(of: entity, in: try PropertyEncoder.encode(value)) else {
                throw QueryError(.invalidKey, "a \(name) value needs a valid primary key (\(entity.spec.primaryKey.joined(separator: ", "))) to be destroyed")
            }
            return try destroy(Query<Never>(mapper: self, entity: name).includingStubs(), ids: [key], in: store, options: options)
        }
    }

    /// Deletes every record of `type`'s entity, stubs included; see ``destroy(_:id:options:)-(_,Encodable,_)``.
    ///
    /// ```swift
    /// try mapper.destroyAll(Tag.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type whose entity to empty.
    ///   - options: cascade, clean-up, explain.
    /// - Returns: what was deleted.
    /// - Throws: as ``destroy(_:id:options:)-(_,Encodable,_)``.
    @discardableResult
    public func destroyAll<T>(_ type: T.Type, options: DeleteOptions = .default) throws -> ImportReport {
        try Query<Never>(mapper: self, entity: entityName(of: type)).includingStubs().destroyAll(options: options)
    }

    /// Deletes the rows `query` selects (narrowed to `ids` when given), in one transaction.
    func destroy<R>(_ query: Query<R>, ids: [[StoredValue]]? = nil, in store: Store, options: DeleteOptions) throws -> ImportReport {
        let (entity, compiled, keys) = try query.compiledQuery(in: store, ids: ids)
        // Rows named by key are in the tenants their keys name (SPEC 6).
        let tenants = entity.spec.tenantAttribute.flatMap { entity.spec.primaryKey.firstIndex(of: $0) }.flatMap { i in
            keys.map { Set($0.map { $0[i] }) }
        }
        return try DeleteRun(store: store, now: Date().timeIntervalSince1970, explain: options.explain)
            .delete(entity, compiled, tenants: tenants, options: options)
    }
}

extension Query {
    /// Deletes every record the query selects (within its limit and offset), with the rules of
    /// ``Mapper/destroy(_:id:options:)-(_,Encodable,_)``, in one transaction.
    ///
    /// ```swift
    /// try mapper.query(Repo.self).where("stars < 10 AND owner.login = 'octocat'").destroyAll()
    /// ```
    ///
    /// The rows are marked with the query's own `SELECT`, then deleted set-based.
    ///
    /// - Parameter options: cascade, clean-up, explain.
    /// - Returns: what was deleted.
    /// - Throws: ``QueryError`` for an unknown entity or name, a malformed filter or a value
    ///   that does not convert; ``DeleteError`` when `deny` refuses; ``StoreError`` for store
    ///   failures.
    @discardableResult
    public func destroyAll(options: DeleteOptions = .default) throws -> ImportReport {
        try mapper.store.withLock { store in try mapper.destroy(self, in: store, options: options) }
    }
}
