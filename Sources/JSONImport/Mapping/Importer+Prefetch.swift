/// Reading ahead for a batch of root records (a row path that reads in sets, SPEC 6): the
/// primary keys the records and their nested records and references name, per entity.
extension Importer {
    /// Tells the row path a batch of records begins, `records` (root records of `entity`), so it
    /// reads ahead what importing them will read. Values that do not convert are left out:
    /// importing the record reports them.
    func beginBatch(_ records: [JSONValue], _ entity: EntityPlan) throws(StoreError) {
        guard rows.readsAhead else { return }
        var keys = [Set<[StoredValue]>](repeating: [], count: plan.entities.count)
        for record in records {
            // Lookups resume where the last one ended, within one root record.
            memberCursor = JSONValue.MemberCursor()
            gatherKeys(record, entity, tenant: nil, into: &keys)
        }
        memberCursor = JSONValue.MemberCursor()
        try rows.beginBatch(keys.enumerated().compactMap { index, found in found.isEmpty ? nil : (plan.entities[index], Array(found)) })
    }

    /// `tenant`: that of the record `json` is nested in (SPEC 6).
    private func gatherKeys(
        _ json: JSONValue, _ entity: EntityPlan, tenant: StoredValue?, into keys: inout [Set<[StoredValue]>]
    ) {
        guard json.kind == .object else { return }
        var tenant = tenant
        if let slot = entity.tenantSlot,
            let own = keyValues([(entity.attributes[slot], lookup(json, entity.attributes[slot].path))], of: entity, tenant: tenant)
        {
            tenant = own[0]
        }
        if !entity.spec.isOwned,
            let key = keyValues(entity.keySlots.map { (entity.attributes[$0], lookup(json, entity.attributes[$0].path)) }, of: entity, tenant: tenant)
        {
            keys[entity.index].insert(key)
        }
        for relationship in entity.relationships {
            guard case .value(let value) = lookup(json, relationship.path) else { continue }
            let target = plan.entities[relationship.target]
            if relationship.spec.kind == .many {
                guard value.kind == .array else { continue }
                for element in value.elements { gatherTarget(element, target, tenant: tenant, into: &keys) }
            } else {
                gatherTarget(value, target, tenant: tenant, into: &keys)
            }
        }
    }

    /// A relationship's value: a nested record, or a reference by key.
    private func gatherTarget(
        _ json: JSONValue, _ target: EntityPlan, tenant: StoredValue?, into keys: inout [Set<[StoredValue]>]
    ) {
        if json.kind == .object { return gatherKeys(json, target, tenant: tenant, into: &keys) }
        let slots = target.referenceKeySlots
        guard !target.spec.isOwned else { return }
        let parts: [JSONValue]
        if slots.count == 1 {
            parts = [json]
        } else {
            guard json.kind == .array, json.count == slots.count else { return }
            parts = Array(json.elements)
        }
        let given = Dictionary(uniqueKeysWithValues: zip(slots, parts))
        let lookups = target.keySlots.map { slot in (target.attributes[slot], given[slot].map(Lookup.value) ?? .missing) }
        if let key = keyValues(lookups, of: target, tenant: tenant) { keys[target.index].insert(key) }
    }

    /// The converted key values of a row of `entity`, `nil` when one is missing, null or does
    /// not convert; a distributed entity's tenant is `tenant` when the JSON gives none.
    private func keyValues(_ parts: [(AttributePlan, Lookup)], of entity: EntityPlan, tenant: StoredValue?) -> [StoredValue]? {
        var key: [StoredValue] = []
        for (attribute, lookup) in parts {
            if case .value(let json) = lookup, let value = try? convert(json, attribute), !value.isNull {
                key.append(value.stored)
            } else if let tenant, let slot = entity.tenantSlot, attribute === entity.attributes[slot] {
                key.append(tenant)
            } else {
                return nil
            }
        }
        return key
    }
}
