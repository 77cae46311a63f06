/// Validation hooks (SPEC 3): a closure per entity that can reject a record before it is
/// stored.
extension Mapper {
    /// Sets the validator of `entity`, run for every record of it that an import (or a save)
    /// is about to store, after its values are converted, transformed and checked against the
    /// mapping, before anything of it is written.
    ///
    /// A validator rejects the record by throwing; the record error reads
    /// `rejected by validation: ` followed by the error's description, and follows the error
    /// policy like any other: under `abort` the whole import is rolled back, under `skip` the
    /// root record holding it is left out and listed in the report. Nested records are
    /// validated too, each by its own entity's validator.
    ///
    /// The closure sees only the record's attributes (``RecordFields``): the values the payload
    /// holds, not what is already stored. It runs inside the import's transaction, on the
    /// importing thread: it may read through the mapper (and sees the import's work so far),
    /// but a write through it throws ``StoreError`` `writeDuringImport`.
    ///
    /// ```swift
    /// try mapper.setValidator(for: "User") { record in
    ///     if try record.value("login", as: String.self) == "root" {
    ///         throw ValidationError("the login 'root' is reserved")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - entity: the entity whose records to check.
    ///   - validator: the check, or `nil` to remove it.
    /// - Throws: ``QueryError`` for an unknown entity.
    public func setValidator(for entity: String, _ validator: (@Sendable (RecordFields) throws -> Void)?) throws {
        try store.withLock { store in
            let plan = try store.entityPlan(entity)
            self.store.validators[plan.index] = validator
        }
    }

    /// Sets the validator of `type`'s entity; see ``setValidator(for:_:)`` (by entity name).
    ///
    /// ```swift
    /// try mapper.setValidator(for: Repo.self) { record in
    ///     guard try record.value("name", as: String.self)?.isEmpty != true else { throw ValidationError("empty name") }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: a Swift type stored as an entity.
    ///   - validator: the check, or `nil` to remove it.
    /// - Throws: ``QueryError`` for an unknown entity.
    @_disfavoredOverload
    public func setValidator<T>(for type: T.Type, _ validator: (@Sendable (RecordFields) throws -> Void)?) throws {
        try setValidator(for: entityName(of: type), validator)
    }

    /// Sets the validator of `type`'s entity, handed each record decoded as a `T`; see
    /// ``setValidator(for:_:)`` (by entity name) for when it runs and what a rejection does.
    ///
    /// The record decodes from its converted attribute values, by the rules of stored rows. Its
    /// links are not written yet when the validator runs: relationship properties decode as
    /// `nil` (optional) or `[]` (arrays), so the type's other relationship properties must be
    /// one of the two. A record that does not decode as `T` is rejected with the decoding
    /// error.
    ///
    /// ```swift
    /// try mapper.setValidator(for: Album.self) { album in
    ///     guard album.title?.isEmpty == false else { throw ValidationError("an album needs a title") }
    /// }
    /// ```
    ///
    /// The mapper keeps the closure: a closure that uses the mapper should capture it weakly
    /// (`[weak mapper]`), or the mapper and its closure keep each other alive.
    ///
    /// - Parameters:
    ///   - type: a Swift type stored as an entity.
    ///   - validator: the check, or `nil` to remove it.
    /// - Throws: ``QueryError`` for an unknown entity.
    public func setValidator<T: Decodable & SendableMetatype>(for type: T.Type, _ validator: (@Sendable (T) throws -> Void)?) throws {
        try setValidator(for: entityName(of: type), validator.map { check in
            { @Sendable fields in try check(T(from: FieldsDecoder(fields: fields))) }
        })
    }
}
