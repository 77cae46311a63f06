/// Records read a page at a time: for a page of rows, one statement reads their attributes, one
/// per relationship their links, and one per target entity the keys (or nested owned records)
/// those links point at, instead of a few statements per row.
extension RecordReader {
    /// Rows `rows` of `entity` as records, in order: attributes, then relationships (the
    /// target's key, or its nested record for an owned target), then bookkeeping with `meta`. A
    /// row that does not exist gives an empty record.
    func records(_ entity: EntityPlan, rows: [Int64], fields: [String]? = nil, meta: Bool = false) throws -> [RecordObject] {
        var result: [RecordObject] = []
        result.reserveCapacity(rows.count)
        for page in Store.pages(of: rows) { result += try pageOfRecords(entity, rows: page, fields: fields, meta: meta) }
        return result
    }

    private func pageOfRecords(_ entity: EntityPlan, rows: [Int64], fields: [String]?, meta: Bool) throws -> [RecordObject] {
        let spec = entity.spec
        var stored: [Int64: (attributes: RecordObject, meta: [(String, RecordValue)])] = [:]
        for (row, values) in try store.engine.attributeRows(entity, rows: rows, meta: meta) {
            var all = RecordObject()
            for (i, attribute) in spec.attributes.enumerated() { all[attribute.name] = Self.jsonValue(values[i], of: attribute) }
            stored[row] = (all, meta ? Self.metaValues(values[spec.attributes.count...]) : [])
        }
        // A relationship to a union reads each concrete entity's links: one of them holds the
        // link of a `one`, and a `many` lists them entity after entity.
        var relationships: [(name: String, kind: RelationshipSpec.Kind, values: [[Int64: RecordValue]])] = []
        for relationship in entity.relationships where fields?.contains(relationship.spec.name) ?? true {
            let values = try linkValues(relationship, of: entity, rows: Array(stored.keys))
            if relationship.union != nil, relationships.last?.name == relationship.spec.name {
                relationships[relationships.count - 1].values.append(values)
            } else {
                relationships.append((relationship.spec.name, relationship.spec.kind, [values]))
            }
        }
        return rows.map { row in
            guard let (attributes, metaValues) = stored[row] else { return RecordObject() }
            var all = attributes
            for (name, kind, values) in relationships {
                if values.count == 1 {
                    all[name] = values[0][row]
                } else if kind == .one {
                    all[name] = values.lazy.compactMap { $0[row] }.first { $0 != .null } ?? .null
                } else {
                    all[name] = .array(values.flatMap { $0[row].flatMap { if case .array(let items) = $0 { items } else { nil } } ?? [] })
                }
            }
            var result = RecordObject()
            for name in fields ?? all.keys { result[name] = all[name] }
            for (name, value) in metaValues { result[name] = value }
            return result
        }
    }

    /// `_createdAt`, `_updatedAt`, `_seenAt` (ISO 8601 or null) and `_stub`, from the stored
    /// `_created_at`, `_updated_at`, `_seen_at` and `_stub`.
    private static func metaValues(_ stored: ArraySlice<StoredValue>) -> [(String, RecordValue)] {
        var values: [(String, RecordValue)] = []
        for (name, value) in zip(["_createdAt", "_updatedAt", "_seenAt"], stored) {
            if case .real(let seconds) = value {
                values.append((name, .string(DateCoding.format(seconds, format: .iso8601))))
            } else {
                values.append((name, .null))
            }
        }
        values.append(("_stub", .bool(stored.last?.integer.map { $0 != 0 } ?? false)))
        return values
    }

    /// Each row's value of `relationship`: the target's key (or nested owned record), or an
    /// array of them.
    private func linkValues(_ relationship: RelationshipPlan, of entity: EntityPlan, rows: [Int64]) throws -> [Int64: RecordValue] {
        var linked: [Int64: [Int64]] = [:]
        for page in Store.pages(of: rows) { linked.merge(try store.linkedRows(relationship, of: entity, rows: page)) { $1 } }
        let target = plan.entities[relationship.target]
        var references = try self.references(target, rows: Array(Set(linked.values.joined())))
        if relationship.union != nil {
            // Which entity of the union a link is: `{"entity": "User", "key": 5}`.
            references = references.mapValues { .object(RecordObject([("entity", .string(target.spec.name)), ("key", $0)])) }
        }
        var result: [Int64: RecordValue] = [:]
        for row in rows {
            let values = (linked[row] ?? []).map { references[$0] ?? .null }
            result[row] = relationship.spec.kind == .one ? values.first ?? .null : .array(values)
        }
        return result
    }

    /// How each of `rows` of `target` appears when linked to: its primary key (an array for a
    /// composite key), or, for an owned row, the nested record of its attributes.
    private func references(_ target: EntityPlan, rows: [Int64]) throws -> [Int64: RecordValue] {
        guard !rows.isEmpty else { return [:] }
        if target.spec.isOwned {
            let nested = try records(target, rows: rows, fields: target.spec.attributes.map(\.name))
            return Dictionary(uniqueKeysWithValues: zip(rows, nested.map(RecordValue.object)))
        }
        if target.keyIsRowID { return Dictionary(uniqueKeysWithValues: rows.map { ($0, RecordValue.int($0)) }) }
        return Dictionary(try store.keys(of: target, rows: rows)) { first, _ in first }
    }
}
