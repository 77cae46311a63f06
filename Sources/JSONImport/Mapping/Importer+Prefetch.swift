/// Reading ahead for a batch of root records (a row path that reads in sets, SPEC 6): the
/// primary keys the records and their nested records name, per entity, and those their
/// references name, per relationship.
extension Importer {
    /// Tells the row path a batch of records begins, `records` (root records of `entity`), so it
    /// reads ahead what importing them will read, and for the batch after it, `upcoming`
    /// (empty when not parsed yet). Values that do not convert are left out: importing the
    /// record reports them.
    func beginBatch(_ records: [JSONValue], upcoming: [JSONValue], _ root: ImportTarget.Root) throws(StoreError) {
        guard rows.readsAhead else { return }
        // The keys of a batch are gathered once: as the upcoming batch, then as this one.
        let known = upcomingKeys.flatMap { $0.first == records.first?.offset && $0.count == records.count ? $0.keys : nil }
        let keys = known ?? batchKeys(records, root)
        upcomingKeys = upcoming.isEmpty ? nil : (upcoming.first?.offset, upcoming.count, batchKeys(upcoming, root))
        try rows.beginBatch(keys, upcoming: upcomingKeys?.keys)
    }

    /// The keys `records` (root records of `root`) and their nested records name.
    private func batchKeys(_ records: [JSONValue], _ root: ImportTarget.Root) -> BatchKeys {
        var keys = KeySets(gathering: plan.entities.map(rows.readsAhead(keysOf:)), capacity: records.count)
        for record in records {
            // Lookups resume where the last one ended, within one root record.
            memberCursor = JSONValue.MemberCursor()
            guard let entity = rootEntity(of: record, root) else { continue }
            gatherKeys(record, entity, tenant: nil, into: &keys)
        }
        memberCursor = JSONValue.MemberCursor()
        batchesGathered += 1
        return BatchKeys(
            number: batchesGathered,
            records: keys.records.enumerated().compactMap { index, found in found.isEmpty ? nil : (plan.entities[index], Array(found)) },
            references: keys.references.map { ($0.relationship, Array($0.keys)) })
    }

    /// The keys a batch names, each once.
    private struct KeySets {
        /// By entity index: whether the row path reads anything for the keys of its rows.
        let gathering: [Bool]
        /// By entity index: keys of records.
        var records: [Set<[StoredValue]>]
        /// Keys of references, per relationship, in the order first met.
        var references: [(relationship: RelationshipPlan, keys: Set<[StoredValue]>)] = []
        /// Where each relationship's references are in `references`.
        var referenceIndex: [ObjectIdentifier: Int] = [:]

        /// `capacity`: keys each set makes room for at once (a batch's records), rather than
        /// growing and hashing its keys again on the way.
        init(gathering: [Bool], capacity: Int) {
            self.gathering = gathering
            records = gathering.map { $0 ? Set(minimumCapacity: capacity) : [] }
        }

        mutating func insert(reference key: [StoredValue], of relationship: RelationshipPlan) {
            let id = ObjectIdentifier(relationship)
            if let index = referenceIndex[id] {
                references[index].keys.insert(key)
            } else {
                referenceIndex[id] = references.count
                references.append((relationship, [key]))
            }
        }
    }

    /// `tenant`: that of the record `json` is nested in (SPEC 6).
    private func gatherKeys(_ json: JSONValue, _ entity: EntityPlan, tenant: StoredValue?, into keys: inout KeySets) {
        guard json.kind == .object else { return }
        var tenant = tenant
        if let slot = entity.tenantSlot,
            let own = keyValues([(entity.attributes[slot], lookup(json, entity.attributes[slot].path))], of: entity, tenant: tenant)
        {
            tenant = own[0]
        }
        if !entity.spec.isOwned, keys.gathering[entity.index],
            let key = keyValues(entity.keySlots.map { (entity.attributes[$0], lookup(json, entity.attributes[$0].path)) }, of: entity, tenant: tenant)
        {
            keys.records[entity.index].insert(key)
        }
        for relationship in entity.relationships {
            guard case .value(let value) = lookup(json, relationship.path) else { continue }
            if relationship.spec.kind == .many {
                guard value.kind == .array else { continue }
                for element in value.elements { gatherTarget(element, relationship, tenant: tenant, into: &keys) }
            } else {
                gatherTarget(value, relationship, tenant: tenant, into: &keys)
            }
        }
    }

    /// A relationship's value: a nested record, or a reference by key.
    private func gatherTarget(_ json: JSONValue, _ relationship: RelationshipPlan, tenant: StoredValue?, into keys: inout KeySets) {
        let target = relationship.targetPlan
        // Objects of a union are read ahead as the entity they route to only.
        guard (try? routesHere(json, relationship)) ?? false else { return }
        if json.kind == .object { return gatherKeys(json, target, tenant: tenant, into: &keys) }
        let slots = target.referenceKeySlots
        guard !target.spec.isOwned, keys.gathering[target.index] else { return }
        let parts: [JSONValue]
        if slots.count == 1 {
            parts = [json]
        } else {
            guard json.kind == .array, json.count == slots.count else { return }
            parts = Array(json.elements)
        }
        // A key has a few parts: found by a scan, without a dictionary per reference.
        let lookups = target.keySlots.map { slot in
            (target.attributes[slot], slots.firstIndex(of: slot).map { Lookup.value(parts[$0]) } ?? .missing)
        }
        if let key = keyValues(lookups, of: target, tenant: tenant) { keys.insert(reference: key, of: relationship) }
    }

    /// The converted key values of a row of `entity`, `nil` when one is missing, null or does
    /// not convert; a distributed entity's tenant is `tenant` when the JSON gives none.
    private func keyValues(_ parts: [(AttributePlan, Lookup)], of entity: EntityPlan, tenant: StoredValue?) -> [StoredValue]? {
        var key: [StoredValue] = []
        key.reserveCapacity(parts.count)
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
