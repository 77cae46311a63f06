extension Mapper {
    /// A query over the records of the entity named `entity`, read as JSON-shaped objects
    /// (SPEC 4.2, as `jsonimport query` prints them); every ``Query`` modifier and run applies.
    ///
    /// ```swift
    /// let users = try mapper.query("User").where("score > 50").order(by: "login", descending: true).limit(10).all()
    /// let some = try mapper.query("Reaction").keys(text: ["101,13"]).records(fields: ["emoji"], includingMeta: true)
    /// ```
    ///
    /// - Parameter entity: the entity's name in the mappings; an unknown one is reported when the
    ///   query runs, as a ``QueryError``.
    /// - Returns: a query that reads every record until narrowed.
    public func query(_ entity: String) -> Query<RecordObject> {
        Query(mapper: self, entity: entity)
    }

    /// Row counts per entity, stubs per entity and links per forward relationship (SPEC 4.1
    /// `stats`).
    public func statistics() throws -> StoreStatistics {
        try store.withReader { store in
            // One read transaction: every count comes from the same committed state.
            try store.transaction(.read) { try store.statistics() }
        }
    }
}
