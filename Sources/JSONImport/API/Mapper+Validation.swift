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
    /// importing thread, and should not write through the mapper.
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
            store.hooks.validators[plan.index] = validator
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
    public func setValidator<T>(for type: T.Type, _ validator: (@Sendable (RecordFields) throws -> Void)?) throws {
        try setValidator(for: entityName(of: type), validator)
    }
}

/// A validator's reason to reject a record.
///
/// ```swift
/// throw ValidationError("stars must be even")
/// ```
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the record was rejected; it becomes the record error's message.
    public let message: String

    /// A rejection with `message`.
    ///
    /// - Parameter message: why the record is rejected.
    public init(_ message: String) { self.message = message }

    /// The message, as the record error shows it.
    public var description: String { message }
}

extension RecordFields {
    /// The converted value of attribute `name` as a Swift value, by the same rules as reading
    /// records (`Date` for dates, `Decimal`, `UUID`, `URL`, arrays for `[T]`; a `json`
    /// attribute as its JSON text).
    ///
    /// ```swift
    /// let stars = try record.value("stars", as: Int.self) ?? 0
    /// ```
    ///
    /// - Parameters:
    ///   - name: an attribute name.
    ///   - type: the Swift type to decode.
    /// - Returns: the value, or `nil` when the record has no value for it (key missing or null).
    /// - Throws: `DecodingError` when the value does not decode as `V`.
    public func value<V: Decodable>(_ name: String, as type: V.Type = V.self) throws -> V? {
        guard let stored = self[name], stored != .null else { return nil }
        return try StoredValueDecoder(value: stored, type: nil, codingPath: [IndexKey(name)]).decode(type)
    }
}
