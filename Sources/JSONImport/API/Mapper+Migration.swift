extension Mapper {
    /// Brings an existing store in line with the mappings (SPEC 4.1 `migrate`, 5).
    ///
    /// Safe changes (new entities, attributes, relationships, indexes) are applied; changes
    /// that would lose data are applied only with `allowDataLoss`. The store must exist. An
    /// attribute that changes type keeps the values an import would convert to the new type
    /// (`"12"` to `12`) and the others become `null`; a key or `required` attribute holding a
    /// value that does not convert, or keys that become one, fail with a ``StoreError`` of code
    /// `constraint` and nothing applied.
    ///
    /// ```swift
    /// let plan = try Mapper.migrate(store: "cache.sqlite", to: spec)
    /// if plan.losesData { print(plan.changes) }  // nothing was applied
    /// ```
    /// - Returns: every change between the store and the mappings; when ``MigrationPlan/losesData``
    ///   and not `allowDataLoss`, none of them was applied.
    /// - Throws: ``StoreError`` when the store cannot be opened, is not a store, or is of a newer
    ///   format than this build's.
    public static func migrate(
        store path: String, to spec: MappingSpec, allowDataLoss: Bool = false, busyTimeout: Double = 30
    ) throws -> MigrationPlan {
        let engine = try Store.connect(Store.Location(path: path, create: false), busyTimeout: busyTimeout)
        return try Store.migrate(engine, to: spec, allowDataLoss: allowDataLoss)
    }
}
