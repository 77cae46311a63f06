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
