import Foundation

/// Gathering the primary keys a batch of root records names, nested records included, and
/// those their references name (see ``Importer/beginBatch(_:upcoming:_:)``). It reads the
/// records and the plan only, neither of which changes during an import, never the importer's
/// state, so the keys of the upcoming batch are gathered on a thread of their own while the
/// importer reads ahead for the current one (see ``KeyGatheringJob``).
struct KeyGathering {
    let plan: ImportPlan
    /// By entity index: whether the row path reads anything for the keys of its rows (never
    /// for owned rows, which have none of their own).
    let gathering: [Bool]
    /// Per entity (by index) and per relationship of references: how many keys the last batch
    /// gathered, the room the sets of this one make at once.
    let last: (records: [Int], references: [ObjectIdentifier: Int])
    /// Where the last member lookup ended, within one root record.
    private var cursor = JSONValue.MemberCursor()

    init(plan: ImportPlan, gathering: [Bool], last: (records: [Int], references: [ObjectIdentifier: Int])) {
        self.plan = plan
        self.gathering = gathering
        self.last = last
    }

    /// Whether any entity's keys are gathered: into tables that were empty (a fresh import
    /// past its first batches), none are.
    var gathersAny: Bool { gathering.contains(true) }

    /// The keys `records` (root records of `root`) and their nested records name, as the
    /// batch numbered `number`; and how many each set holds, for the next batch.
    mutating func keys(
        of records: [JSONValue], _ root: ImportTarget.Root, number: Int
    ) -> (keys: BatchKeys, counts: (records: [Int], references: [ObjectIdentifier: Int])) {
        var keys = KeySets(plan: plan, gathering: gathering, records: records.count, last: last)
        for record in gathersAny ? records : [] {
            // Lookups resume where the last one ended, within one root record.
            cursor = JSONValue.MemberCursor()
            guard let entity = rootEntity(of: record, root) else { continue }
            gatherKeys(record, entity, tenant: nil, into: &keys)
        }
        let counts = (
            keys.records.indices.map { keys.records[$0].count + keys.recordIDs[$0].count },
            Dictionary(uniqueKeysWithValues: keys.references.map { (ObjectIdentifier($0.relationship), $0.keys.count + $0.ids.count) }))
        let batch = BatchKeys(
            number: number,
            records: plan.entities.compactMap { entity in
                let list = KeySets.list(keys.records[entity.index], keys.recordIDs[entity.index], of: entity)
                return list.count == 0 ? nil : (entity, list)
            },
            references: keys.references.map { ($0.relationship, KeySets.list($0.keys, $0.ids, of: $0.relationship.targetPlan)) })
        return (batch, counts)
    }

    /// The keys a batch names, each once: row ids apart (see ``KeyList``).
    private struct KeySets {
        let gathering: [Bool]
        /// By entity index: keys of records.
        var records: [Set<[StoredValue]>]
        /// By entity index: keys of records that are row ids.
        var recordIDs: [RowIDSet]
        /// Keys of references, per relationship, in the order first met.
        var references: [(relationship: RelationshipPlan, keys: Set<[StoredValue]>, ids: RowIDSet)] = []
        /// Where each relationship's references are in `references`.
        var referenceIndex: [ObjectIdentifier: Int] = [:]

        /// Per relationship: the references the last batch gathered, the room its set makes.
        private let referenceCapacities: [ObjectIdentifier: Int]

        /// Each set makes room at once for as many keys as the last batch gathered (an
        /// entity's, at least one per record of the batch, `records`), rather than growing and
        /// hashing its keys again on the way.
        init(plan: ImportPlan, gathering: [Bool], records count: Int, last: (records: [Int], references: [ObjectIdentifier: Int])) {
            self.gathering = gathering
            referenceCapacities = last.references
            let room = gathering.indices.map { gathering[$0] ? max(count, last.records.isEmpty ? 0 : last.records[$0]) : 0 }
            records = plan.entities.map { $0.keysAreRowIDs ? [] : Set(minimumCapacity: room[$0.index]) }
            recordIDs = plan.entities.map { $0.keysAreRowIDs ? RowIDSet(minimumCapacity: room[$0.index]) : [] }
        }

        /// Inserts `key`, a key of a row of `relationship`'s target, or its row id `id` (see
        /// ``KeyList``).
        mutating func insert(reference key: [StoredValue]?, id: Int64?, of relationship: RelationshipPlan) {
            let identifier = ObjectIdentifier(relationship)
            let index = referenceIndex[identifier] ?? {
                referenceIndex[identifier] = references.count
                let room = referenceCapacities[identifier] ?? 0
                let byID = relationship.targetPlan.keysAreRowIDs
                references.append((relationship, Set(minimumCapacity: byID ? 0 : room), RowIDSet(minimumCapacity: byID ? room : 0)))
                return references.count - 1
            }()
            if let key { references[index].keys.insert(key) }
            if let id { references[index].ids.insert(id) }
        }

        /// The keys of `entity` gathered, as the row path takes them.
        static func list(_ keys: Set<[StoredValue]>, _ ids: RowIDSet, of entity: EntityPlan) -> KeyList {
            entity.keysAreRowIDs ? .ids(Array(ids)) : .keys(Array(keys))
        }
    }

    /// The entity of a root record; `nil` when it routes nowhere (importing it reports why).
    private mutating func rootEntity(of json: JSONValue, _ root: ImportTarget.Root) -> EntityPlan? {
        if let entity = root.entity { return entity }
        return (try? root.union!.route(json, cursor: &cursor).get()).map { plan.entities[$0] }
    }

    /// `tenant`: that of the record `json` is nested in (SPEC 6).
    private mutating func gatherKeys(_ json: JSONValue, _ entity: EntityPlan, tenant: StoredValue?, into keys: inout KeySets) {
        guard json.kind == .object else { return }
        var tenant = tenant
        if let slot = entity.tenantSlot, let own = keyValues([slot], of: entity, tenant: tenant, in: json) {
            tenant = own[0]
        }
        if keys.gathering[entity.index] {
            if entity.keysAreRowIDs {
                if case .value(let value) = json.lookup(entity.attributes[entity.keySlots[0]].path, cursor: &cursor),
                    let id = Self.rowID(value, of: entity)
                {
                    keys.recordIDs[entity.index].insert(id)
                }
            } else if let key = keyValues(entity.keySlots, of: entity, tenant: tenant, in: json) {
                keys.records[entity.index].insert(key)
            }
        }
        for relationship in entity.relationships {
            guard case .value(let value) = json.lookup(relationship.path, cursor: &cursor) else { continue }
            if relationship.spec.kind == .many {
                guard value.kind == .array else { continue }
                for element in value.elements { gatherTarget(element, relationship, tenant: tenant, into: &keys) }
            } else {
                gatherTarget(value, relationship, tenant: tenant, into: &keys)
            }
        }
    }

    /// A relationship's value: a nested record, or a reference by key.
    private mutating func gatherTarget(_ json: JSONValue, _ relationship: RelationshipPlan, tenant: StoredValue?, into keys: inout KeySets) {
        let target = relationship.targetPlan
        // Objects of a union are read ahead as the entity they route to only.
        if let union = relationship.union, (try? union.route(json, cursor: &cursor).get()) != relationship.target { return }
        if json.kind == .object { return gatherKeys(json, target, tenant: tenant, into: &keys) }
        let slots = target.referenceKeySlots
        guard keys.gathering[target.index] else { return }
        if target.keysAreRowIDs {
            if slots == target.keySlots, let id = Self.rowID(json, of: target) { keys.insert(reference: nil, id: id, of: relationship) }
            return
        }
        let key: [StoredValue]?
        if slots.count == 1 {
            key = Self.keyValues(target.keySlots, of: target, tenant: tenant) { $0 == slots[0] ? .value(json) : .missing }
        } else {
            guard json.kind == .array, json.count == slots.count else { return }
            let parts = Array(json.elements)
            // A key has a few parts: found by a scan, without a dictionary per reference.
            key = Self.keyValues(target.keySlots, of: target, tenant: tenant) { slot in
                slots.firstIndex(of: slot).map { Importer.Lookup.value(parts[$0]) } ?? .missing
            }
        }
        if let key { keys.insert(reference: key, id: nil, of: relationship) }
    }

    /// The row id `json` gives as the key of a row of `entity` (see ``KeyList``); `nil` when it
    /// does not convert (importing the record reports it).
    private static func rowID(_ json: JSONValue, of entity: EntityPlan) -> Int64? {
        guard case .success(.integer(let id)) = entity.attributes[entity.keySlots[0]].converting(json) else { return nil }
        return id
    }

    /// The values of the attributes `slots` of the record `json` of `entity` (see
    /// ``keyValues(_:of:tenant:_:)``).
    private mutating func keyValues(_ slots: [Int], of entity: EntityPlan, tenant: StoredValue?, in json: JSONValue) -> [StoredValue]? {
        var cursor = self.cursor
        defer { self.cursor = cursor }
        return Self.keyValues(slots, of: entity, tenant: tenant) { json.lookup(entity.attributes[$0].path, cursor: &cursor) }
    }

    /// The converted values of the attributes `slots` of a row of `entity`, each found by
    /// `lookup`; `nil` when one is missing, null or does not convert (importing the record
    /// reports it). A distributed entity's tenant is `tenant` when the JSON gives none.
    private static func keyValues(
        _ slots: [Int], of entity: EntityPlan, tenant: StoredValue?, _ lookup: (Int) -> Importer.Lookup
    ) -> [StoredValue]? {
        var key: [StoredValue] = []
        key.reserveCapacity(slots.count)
        for slot in slots {
            if case .value(let json) = lookup(slot), case .success(let value) = entity.attributes[slot].converting(json), !value.isNull {
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

/// The keys of a batch gathered on a thread of its own (see ``KeyGathering``), while the
/// importer reads ahead for the batch before it.
///
/// `@unchecked Sendable`: the semaphore `done` orders it all. The worker reads the records and
/// the plan only: the importer waits for it before ``Importer/beginBatch(_:upcoming:_:)``
/// returns, while the parser keeps the nodes of both batches unchanged, and nothing changes the
/// plan during an import. It writes `result` before it signals `done`; the importer reads
/// `result` only after waiting on it.
final class KeyGatheringJob: @unchecked Sendable {
    private var gathering: KeyGathering
    private let records: [JSONValue]
    private let root: ImportTarget.Root
    private let number: Int
    private let done = DispatchSemaphore(value: 0)
    private var result: (keys: BatchKeys, counts: (records: [Int], references: [ObjectIdentifier: Int]))?
    private var isWaited = false

    init(_ gathering: KeyGathering, records: [JSONValue], _ root: ImportTarget.Root, number: Int) {
        self.gathering = gathering
        self.records = records
        self.root = root
        self.number = number
    }

    func start() {
        Thread { [self] in
            result = gathering.keys(of: records, root, number: number)
            done.signal()
        }.start()
    }

    /// Waits for the worker (once; later calls return at once) and returns what it gathered.
    func wait() -> (keys: BatchKeys, counts: (records: [Int], references: [ObjectIdentifier: Int])) {
        if !isWaited {
            done.wait()
            isWaited = true
        }
        return result!
    }
}
