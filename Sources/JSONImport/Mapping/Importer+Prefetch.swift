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
        // Owned rows have no keys of their own to gather.
        let gathering = plan.entities.map { !$0.spec.isOwned && rows.readsAhead(keysOf: $0) }
        var keys = KeySets(gathering: gathering, records: records.count, last: gatheredCounts)
        // Into tables that were empty (a fresh import past its first batches), none are read.
        let gathersAny = gathering.contains(true)
        for record in records where gathersAny {
            // Lookups resume where the last one ended, within one root record.
            memberCursor = JSONValue.MemberCursor()
            guard let entity = rootEntity(of: record, root) else { continue }
            gatherKeys(record, entity, tenant: nil, into: &keys)
        }
        memberCursor = JSONValue.MemberCursor()
        batchesGathered += 1
        gatheredCounts = (
            keys.records.map(\.count),
            Dictionary(uniqueKeysWithValues: keys.references.map { (ObjectIdentifier($0.relationship), $0.keys.count) }))
        return BatchKeys(
            number: batchesGathered,
            records: keys.records.enumerated().compactMap { index, found in found.isEmpty ? nil : (plan.entities[index], Array(found)) },
            references: keys.references.map { ($0.relationship, Array($0.keys)) })
    }

    /// The keys a batch names, each once.
    private struct KeySets {
        /// By entity index: whether the row path reads anything for the keys of its rows (never
        /// for owned rows, which have none of their own).
        let gathering: [Bool]
        /// By entity index: keys of records.
        var records: [Set<[StoredValue]>]
        /// Keys of references, per relationship, in the order first met.
        var references: [(relationship: RelationshipPlan, keys: Set<[StoredValue]>)] = []
        /// Where each relationship's references are in `references`.
        var referenceIndex: [ObjectIdentifier: Int] = [:]

        /// Per relationship: the references the last batch gathered, the room its set makes.
        private let referenceCapacities: [ObjectIdentifier: Int]

        /// Each set makes room at once for as many keys as the last batch gathered (an
        /// entity's, at least one per record of the batch, `records`), rather than growing and
        /// hashing its keys again on the way.
        init(gathering: [Bool], records count: Int, last: (records: [Int], references: [ObjectIdentifier: Int])) {
            self.gathering = gathering
            referenceCapacities = last.references
            records = gathering.indices.map { index in
                gathering[index] ? Set(minimumCapacity: max(count, last.records.isEmpty ? 0 : last.records[index])) : []
            }
        }

        mutating func insert(reference key: [StoredValue], of relationship: RelationshipPlan) {
            let id = ObjectIdentifier(relationship)
            if let index = referenceIndex[id] {
                references[index].keys.insert(key)
            } else {
                referenceIndex[id] = references.count
                var keys = Set<[StoredValue]>(minimumCapacity: referenceCapacities[id] ?? 0)
                keys.insert(key)
                references.append((relationship, keys))
            }
        }
    }

    /// `tenant`: that of the record `json` is nested in (SPEC 6).
    private func gatherKeys(_ json: JSONValue, _ entity: EntityPlan, tenant: StoredValue?, into keys: inout KeySets) {
        guard json.kind == .object else { return }
        var tenant = tenant
        if let slot = entity.tenantSlot,
            let own = keyValues([slot], of: entity, tenant: tenant, { lookup(json, entity.attributes[$0].path) })
        {
            tenant = own[0]
        }
        if keys.gathering[entity.index],
            let key = keyValues(entity.keySlots, of: entity, tenant: tenant, { lookup(json, entity.attributes[$0].path) })
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
        guard keys.gathering[target.index] else { return }
        let key: [StoredValue]?
        if slots.count == 1 {
            key = keyValues(target.keySlots, of: target, tenant: tenant) { $0 == slots[0] ? .value(json) : .missing }
        } else {
            guard json.kind == .array, json.count == slots.count else { return }
            let parts = Array(json.elements)
            // A key has a few parts: found by a scan, without a dictionary per reference.
            key = keyValues(target.keySlots, of: target, tenant: tenant) { slot in
                slots.firstIndex(of: slot).map { Lookup.value(parts[$0]) } ?? .missing
            }
        }
        if let key { keys.insert(reference: key, of: relationship) }
    }

    /// The converted values of the attributes `slots` of a row of `entity`, each found by
    /// `lookup`; `nil` when one is missing, null or does not convert. A distributed entity's
    /// tenant is `tenant` when the JSON gives none.
    private func keyValues(
        _ slots: [Int], of entity: EntityPlan, tenant: StoredValue?, _ lookup: (Int) -> Lookup
    ) -> [StoredValue]? {
        var key: [StoredValue] = []
        key.reserveCapacity(slots.count)
        for slot in slots {
            if case .value(let json) = lookup(slot), let value = try? convert(json, entity.attributes[slot]), !value.isNull {
                key.append(value.stored)
            } else if let tenant, slot == entity.tenantSlot {
                key.append(tenant)
            } else {
                return nil
            }
        }
        return key
    }
}
