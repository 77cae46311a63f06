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
struct RecordExporter {
    let reader: RecordReader
    var plan: ImportPlan { reader.plan }

    /// The record of `row` of `entity`, nesting forward relationships `depth` levels down.
    ///
    /// - Parameter fields: the properties to write (the root record's field selection).
    func record(_ entity: EntityPlan, row: Int64, depth: Int, fields: FieldSelection = .all) throws -> RecordObject {
        let stored = try reader.storedRow(entity, row: row)
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
        for relationship in entity.relationships where fields.includes(relationship.spec.name) {
            guard let value = try links(relationship, of: entity, row: row, depth: depth) else { continue }
            object.insert(value, at: relationship.spec.key.segments)
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
        let rows = try reader.linkedRows(relationship, of: entity, row: row)
        let nests = spec.isForward && spec.by != .id && (depth > 0 || target.spec.isOwned)
        var values: [RecordValue] = []
        for linked in rows {
            if nests {
                let stored = try reader.storedRow(target, row: linked)
                if stored.isStub {
                    values.append(key(of: target, stored, by: spec.by))
                } else {
                    values.append(.object(try record(target, stored, row: linked, depth: max(depth - 1, 0), fields: .all)))
                }
            } else if target.keyIsRowID && spec.by != .object {
                values.append(.int(linked))
            } else {
                values.append(key(of: target, try reader.storedRow(target, row: linked), by: spec.by))
            }
        }
        if spec.kind == .one { return values.first ?? .null }
        return .array(values)
    }

    /// How a reference to a keyed row is written: the bare key value (an array of values for a
    /// composite key), or for `by: object` an object holding only the key attributes.
    private func key(of target: EntityPlan, _ stored: RecordReader.StoredRow, by: RelationshipSpec.Reference) -> RecordValue {
        let keys = target.keySlots.map { (target.spec.attributes[$0], stored.values[$0]) }
        if by == .object {
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
