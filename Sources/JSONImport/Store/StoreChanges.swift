/// The rows one committed transaction inserted, updated and deleted, by primary key, per
/// entity: what change observers receive.
///
/// Keys are in their JSON form, as queries show them (SPEC 4.2): a single key as its value
/// (`.int(42)`, `.string("swift")`), a composite key as an array of its values, and `.null`
/// for a row of an owned entity, which has no key. Rows are counted as an import report counts
/// them (SPEC 2.2): a row whose links changed is `updated`, a row unchanged by a record is not
/// listed, and a row that a transaction both created and deleted appears nowhere.
///
/// ```swift
/// let observation = mapper.observeChanges { changes in
///     for entity in changes.entities {
///         print(entity.entity, entity.inserted.count, entity.updated.count, entity.deleted.count)
///     }
/// }
/// ```
public struct StoreChanges: Sendable, Hashable {
    /// Entities with changes, in declaration order.
    public var entities: [EntityChanges]

    /// Creates a change set from per-entity changes.
    ///
    /// - Parameter entities: the changes, one entry per entity.
    public init(entities: [EntityChanges]) { self.entities = entities }

    /// The changes of one entity.
    public struct EntityChanges: Sendable, Hashable {
        /// The entity's name.
        public var entity: String
        /// Keys of the rows inserted (stubs included).
        public var inserted: [RecordValue]
        /// Keys of the rows whose attributes or links changed.
        public var updated: [RecordValue]
        /// Keys of the rows deleted (prune, delete, cascade, eviction and clean-up).
        public var deleted: [RecordValue]

        /// Creates the changes of one entity.
        ///
        /// - Parameters:
        ///   - entity: the entity's name.
        ///   - inserted: keys of the inserted rows.
        ///   - updated: keys of the updated rows.
        ///   - deleted: keys of the deleted rows.
        public init(entity: String, inserted: [RecordValue] = [], updated: [RecordValue] = [], deleted: [RecordValue] = []) {
            self.entity = entity
            self.inserted = inserted
            self.updated = updated
            self.deleted = deleted
        }

        /// `true` when no row changed.
        public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    /// The changes of `entity`, or `nil` when it has none.
    ///
    /// ```swift
    /// if let users = changes["User"] { print(users.inserted) }
    /// ```
    ///
    /// - Parameter entity: an entity name.
    /// - Returns: that entity's changes.
    public subscript(entity: String) -> EntityChanges? {
        entities.first { $0.entity == entity }
    }

    /// `true` when no entity has changes.
    public var isEmpty: Bool { entities.isEmpty }

    /// Only the changes of `names`.
    func restricted(to names: Set<String>) -> StoreChanges {
        StoreChanges(entities: entities.filter { names.contains($0.entity) })
    }
}
