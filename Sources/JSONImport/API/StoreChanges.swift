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

/// Changes gathered while a transaction is open: the net effect per row, by key, so that
/// several operations in one ``Mapper/write(_:)`` block report each row once.
struct ChangeLog {
    enum Kind { case inserted, updated, deleted }

    private struct EntityLog {
        /// Keys in the order first seen; `kinds` drops a key that ends up unchanged.
        var order: [RecordValue] = []
        var listed: Set<RecordValue> = []
        var kinds: [RecordValue: Kind] = [:]
        /// Rows of owned entities: no key to merge them by.
        var unkeyed: [(Kind, RecordValue)] = []
    }

    private var entities: [Int: EntityLog] = [:]

    /// Adds what a later operation did to `key` of entity `index`.
    mutating func record(_ kind: Kind, entity index: Int, key: RecordValue) {
        var log = entities[index] ?? EntityLog()
        defer { entities[index] = log }
        guard key != .null else {
            log.unkeyed.append((kind, key))
            return
        }
        guard let earlier = log.kinds[key] else {
            if log.listed.insert(key).inserted { log.order.append(key) }
            log.kinds[key] = kind
            return
        }
        switch (earlier, kind) {
        case (.inserted, .deleted): log.kinds[key] = nil
        case (.inserted, _): break
        case (.deleted, .inserted), (.deleted, .updated): log.kinds[key] = .updated
        default: log.kinds[key] = kind
        }
    }

    /// Adds every change of `later`, as if its operation ran after this one.
    mutating func merge(_ later: ChangeLog) {
        for (index, log) in later.entities {
            for key in log.order { if let kind = log.kinds[key] { record(kind, entity: index, key: key) } }
            for (kind, key) in log.unkeyed { record(kind, entity: index, key: key) }
        }
    }

    /// The public form, entities in declaration order.
    func changes(in plan: ImportPlan) -> StoreChanges {
        var result: [StoreChanges.EntityChanges] = []
        for entity in plan.entities {
            guard let log = entities[entity.index] else { continue }
            var changes = StoreChanges.EntityChanges(entity: entity.spec.name)
            let keyed = log.order.compactMap { key in log.kinds[key].map { ($0, key) } }
            for (kind, key) in keyed + log.unkeyed {
                switch kind {
                case .inserted: changes.inserted.append(key)
                case .updated: changes.updated.append(key)
                case .deleted: changes.deleted.append(key)
                }
            }
            if !changes.isEmpty { result.append(changes) }
        }
        return StoreChanges(entities: result)
    }
}

extension Store {
    /// What an operation did, by key, when observers want to know (else `nil`): the tracker's
    /// inserted and updated rows, read while they still exist, and the deleted rows' keys.
    func changeLog(_ tracker: RowTracker, deletions: [Deletion]) throws -> ChangeLog? {
        guard hooks.collectsChanges else { return nil }
        var log = ChangeLog()
        for entity in plan.entities {
            var inserted = Set<Int64>()
            var changed: [Int64] = []
            for (row, status) in tracker.statuses(of: entity.index) where status != .unchanged {
                changed.append(row)
                if status == .inserted { inserted.insert(row) }
            }
            for (row, key) in try keys(of: entity, rows: changed) {
                log.record(inserted.contains(row) ? .inserted : .updated, entity: entity.index, key: key)
            }
        }
        for deletion in deletions {
            guard let entity = plan.entity(named: deletion.entity) else { continue }
            log.record(.deleted, entity: entity.index, key: Self.keyValue(deletion.key, of: entity.spec))
        }
        return log
    }

    /// The keys of `rows`, in row order.
    func keys(of entity: EntityPlan, rows: [Int64]) throws -> [(Int64, RecordValue)] {
        guard !rows.isEmpty else { return [] }
        let keys = entity.spec.keyAttributes
        let columns = ([entity.rowID] + keys.map { quote($0.name) }).joined(separator: ", ")
        var result: [(Int64, RecordValue)] = []
        let chunkSize = 50_000
        for start in stride(from: 0, to: rows.count, by: chunkSize) {
            let ids = rows[start..<min(start + chunkSize, rows.count)].map(String.init).joined(separator: ",")
            let found = try connection.rows(
                "SELECT \(columns) FROM \(entity.table) WHERE \(entity.rowID) IN (SELECT value FROM json_each(?))",
                [.text("[\(ids)]")])
            for values in found {
                guard case .integer(let row) = values[0] else { continue }
                result.append((row, Self.keyValue(Array(values.dropFirst()), of: entity.spec)))
            }
        }
        return result.sorted { $0.0 < $1.0 }
    }

    /// A primary key in its JSON form: the value, an array for a composite key, `.null` for
    /// an owned row.
    static func keyValue(_ values: [StoredValue], of entity: EntitySpec) -> RecordValue {
        let keys = entity.keyAttributes
        guard !keys.isEmpty, keys.count == values.count else { return .null }
        let converted = zip(values, keys).map { RecordReader.jsonValue($0, of: $1) }
        return converted.count == 1 ? converted[0] : .array(converted)
    }
}
