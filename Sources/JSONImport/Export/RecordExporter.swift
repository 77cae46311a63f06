/// Builds one stored row back into the record an API would send for it (SPEC 4.4).
///
/// Attributes are written at their JSON key paths (`contact.email` becomes
/// `{"contact": {"email": …}}`), in their JSON form (``ExportValue``); attributes declared
/// `export: false` are left out. Relationships, at their own key paths:
///
/// - a forward relationship is nested as the target's record while `depth` is above zero
///   (the nested record gets `depth - 1`), and written as keys below it;
/// - `by: id` relationships, back sides and links to stubs are always keys: bare key values
///   (an array for a composite key), or objects holding only the key attributes for `by: object`;
/// - owned targets are always nested (a back side to an owned entity is left out: such rows
///   have no key to write);
/// - `one` gives the value or `null`, `many` an array in link order.
///
/// Rows are read a page at a time: ``prefetch(_:rows:depth:fields:)`` reads what a page of root
/// records will need, level by level — the rows of an entity in one statement, the links of a
/// relationship in another — and the records are then built from what it read.
struct RecordExporter {
    let reader: RecordReader
    var plan: ImportPlan { reader.plan }
    private let cache = PageCache()

    /// What a page's prefetch read, by entity and relationship.
    private final class PageCache {
        var rows: [Int: [Int64: RecordReader.StoredRow]] = [:]
        var links: [ObjectIdentifier: [Int64: [Int64]]] = [:]
    }

    init(reader: RecordReader) { self.reader = reader }

    /// Reads, a statement per entity and relationship, what the records of `rows` will need,
    /// forgetting what the previous page read.
    func prefetch(_ entity: EntityPlan, rows: [Int64], depth: Int, fields: FieldSelection) throws {
        cache.rows = [:]
        cache.links = [:]
        try load(entity, rows: rows, depth: depth, fields: fields, level: 0)
    }

    private func load(_ entity: EntityPlan, rows: [Int64], depth: Int, fields: FieldSelection, level: Int) throws {
        let missing = rows.filter { cache.rows[entity.index]?[$0] == nil }
        guard !missing.isEmpty, level < Self.deepestPrefetch else { return }
        cache.rows[entity.index, default: [:]].merge(try reader.storedRows(entity, rows: missing)) { $1 }
        for relationship in entity.relationships where fields.includes(relationship.spec.name) {
            let target = plan.entities[relationship.target]
            let spec = relationship.spec
            if target.spec.isOwned && !spec.isForward { continue }
            var linked = try reader.store.linkedRows(relationship, of: entity, rows: missing)
            for row in missing where linked[row] == nil { linked[row] = [] }
            cache.links[ObjectIdentifier(relationship), default: [:]].merge(linked) { $1 }
            let targets = Array(Set(linked.values.joined()))
            if spec.isForward && !spec.by.isReference && (depth > 0 || target.spec.isOwned) {
                try load(target, rows: targets, depth: max(depth - 1, 0), fields: .all, level: level + 1)
            } else if !(target.keyIsRowID && !relationship.writesKeyObjects) || relationship.targetKeySlot != nil {
                let unread = targets.filter { cache.rows[target.index]?[$0] == nil }
                cache.rows[target.index, default: [:]].merge(try reader.storedRows(target, rows: unread)) { $1 }
            }
        }
    }

    /// Levels of nesting read ahead; deeper ones are read row by row.
    private static let deepestPrefetch = 16

    private func storedRow(_ entity: EntityPlan, row: Int64) throws -> RecordReader.StoredRow {
        if let known = cache.rows[entity.index]?[row] { return known }
        return try reader.storedRow(entity, row: row)
    }

    private func linkedRows(_ relationship: RelationshipPlan, of entity: EntityPlan, row: Int64) throws -> [Int64] {
        if let known = cache.links[ObjectIdentifier(relationship)]?[row] { return known }
        return try reader.store.linkedRows(relationship, of: entity, rows: [row])[row] ?? []
    }

    /// The record of `row` of `entity`, nesting forward relationships `depth` levels down.
    ///
    /// - Parameter fields: the properties to write (the root record's field selection).
    func record(_ entity: EntityPlan, row: Int64, depth: Int, fields: FieldSelection = .all) throws -> RecordObject {
        let stored = try storedRow(entity, row: row)
        return try record(entity, stored, row: row, depth: depth, fields: fields)
    }

    private func record(
        _ entity: EntityPlan, _ stored: RecordReader.StoredRow, row: Int64, depth: Int, fields: FieldSelection
    ) throws -> RecordObject {
        var object = RecordObject()
        for (attribute, value) in zip(entity.spec.attributes, stored.values)
        where attribute.isExported && fields.includes(attribute.name) {
            object.insert(ExportValue.json(value, of: attribute), at: attribute.key.segments)
        }
        let relationships = entity.relationships
        var next = 0
        while next < relationships.count {
            let relationship = relationships[next]
            // A relationship to a union is one per concrete entity: their links make one value.
            var end = next + 1
            if relationship.union != nil {
                while end < relationships.count, relationships[end].spec.name == relationship.spec.name { end += 1 }
            }
            defer { next = end }
            guard fields.includes(relationship.spec.name) else { continue }
            var values: [RecordValue] = []
            var isWritten = false
            for sibling in relationships[next..<end] {
                guard let value = try links(sibling, of: entity, row: row, depth: depth) else { continue }
                isWritten = true
                switch value {
                // A `one` relationship's value is one key, which may be an array (a composite key).
                case .array(let items) where relationship.spec.kind == .many: values += items
                case .null: break
                default: values.append(value)
                }
            }
            guard isWritten else { continue }
            object.insert(relationship.spec.kind == .one ? values.first ?? .null : .array(values), at: relationship.spec.key.segments)
        }
        return object
    }

    // MARK: Relationships

    /// A relationship's value, or `nil` when it is not written at all.
    private func links(_ relationship: RelationshipPlan, of entity: EntityPlan, row: Int64, depth: Int) throws
        -> RecordValue?
    {
        let target = plan.entities[relationship.target]
        let spec = relationship.spec
        if target.spec.isOwned && !spec.isForward { return nil }
        let rows = try linkedRows(relationship, of: entity, row: row)
        let nests = spec.isForward && !spec.by.isReference && (depth > 0 || target.spec.isOwned)
        // A union's objects are told apart by their discriminators: references are objects too.
        let by = relationship.union == nil ? spec.by : .keyObject
        var values: [RecordValue] = []
        for linked in rows {
            if nests {
                let stored = try storedRow(target, row: linked)
                if stored.isStub {
                    values.append(key(of: target, stored, by: by))
                } else {
                    values.append(.object(try record(target, stored, row: linked, depth: max(depth - 1, 0), fields: .all)))
                }
            } else if let slot = relationship.targetKeySlot {
                values.append(key(of: target, try storedRow(target, row: linked), by: by, slots: [slot]))
            } else if target.keyIsRowID && !relationship.writesKeyObjects {
                values.append(.int(linked))
            } else {
                values.append(key(of: target, try storedRow(target, row: linked), by: by))
            }
        }
        if let union = relationship.union {
            let discriminators = union.discriminators(of: target.index)
            values = values.map { value in
                guard case .object(let object) = value else { return value }
                return .object(object.tagged(discriminators))
            }
        }
        if spec.kind == .one { return values.first ?? .null }
        return .array(values)
    }

    /// How a reference to a keyed row is written: the bare key value (an array of values for a
    /// composite key; without the tenant a distributed target takes from the record), or for
    /// `by: object` and `by: keyObject` an object holding only the key attributes.
    /// `slots`: the attribute a `targetKey` reference names instead.
    private func key(
        of target: EntityPlan, _ stored: RecordReader.StoredRow, by: RelationshipSpec.Reference, slots named: [Int]? = nil
    ) -> RecordValue {
        let slots = named ?? (by.writesKeyObjects ? target.keySlots : target.referenceKeySlots)
        let keys = slots.map { (target.spec.attributes[$0], stored.values[$0]) }
        if by.writesKeyObjects {
            var object = RecordObject()
            for (attribute, value) in keys {
                object.insert(ExportValue.json(value, of: attribute), at: attribute.key.segments)
            }
            return .object(object)
        }
        let values = keys.map { ExportValue.json($1, of: $0) }
        return values.count == 1 ? values[0] : .array(values)
    }
}

extension RecordObject {
    /// The object with a union's discriminators (key paths and values) written first, as an
    /// API sends them: `{"type": "User", "id": 5}`.
    func tagged(_ discriminators: [(path: [String], value: String)]) -> RecordObject {
        var tagged = RecordObject()
        for (path, text) in discriminators { tagged.insert(.string(text), at: path) }
        for (key, value) in self where tagged[key] == nil { tagged[key] = value }
        return tagged
    }

    /// Sets `value` at a key path, creating (or extending) the nested objects on the way.
    mutating func insert(_ value: RecordValue, at path: [String]) {
        guard let first = path.first else { return }
        guard path.count > 1 else {
            self[first] = value
            return
        }
        var nested = RecordObject()
        if case .object(let existing)? = self[first] { nested = existing }
        nested.insert(value, at: Array(path.dropFirst()))
        self[first] = .object(nested)
    }
}

extension RelationshipPlan {
    /// References are written as objects holding only the key attributes: by the mapping's
    /// `by`, and always to a union (whose objects carry their discriminators).
    var writesKeyObjects: Bool { union != nil || spec.by.writesKeyObjects }
}

extension RelationshipSpec.Reference {
    /// References are written as objects holding only the key attributes (`{"id": 5}`).
    var writesKeyObjects: Bool { self == .object || self == .keyObject }
}
