/// Reading ahead: what importing a batch of records will read, in a few round trips whatever
/// the number of records.
extension PostgresImportRows {
    /// Reads in one round trip the rows with the keys a batch of records names and those its
    /// references name, then in one round trip per level what the importer reads of the
    /// records' rows: their owned rows, link lists, the rows pointing at them and the rows their
    /// one ↔ one targets are taken from. Of a referenced row, only what linking to it reads
    /// (see ``referenceLoad(_:_:)``), in the first level's round trip. What needs only the
    /// ids of rows whose key is their id comes with the keys (see
    /// ``firstLoads(_:linksVisited:reached:)``); that first round trip may have run before the
    /// batch began (see ``firstReads(of:)``), and then finds what it reads in the cache.
    ///
    /// Rows that point at their parent through a column of their own (a repo's `owner` under
    /// its user's `repos`) come with the first level's reads of the parents: their keys are read
    /// after it, only those the cache still lacks (new rows, or rows that moved between
    /// parents), rather than every row twice.
    func prefetch(_ keys: BatchKeys) throws(StoreError) {
        let (batch, firstRead) = try plan(of: keys)
        let (keyed, referenced, pointing) = (batch.keyed, batch.referenced, batch.pointing)
        var later = batch.byEntity.filter { pointing.contains($0.0.index) }
        // Per entity (by index): the rows whose link columns' relations are read already, and
        // those whose other relations are.
        var visited: [Int: RowIDSet] = [:]
        var linksVisited: [Int: RowIDSet] = [:]
        var reached: [Reach] = []
        // The first round trip ran before the batch began, unless the cache was emptied since.
        if let firstRead, firstRead.generation == cache.generation {
            (linksVisited, reached) = (firstRead.linksVisited, firstRead.reached)
        } else {
            try run(firstLoads(batch, linksVisited: &linksVisited, reached: &reached))
        }
        func found(_ entity: EntityPlan, _ entityKeys: KeyList) -> (EntityPlan, [Int64]) {
            (entity, cache.rows(entity).rows(forKeys: entityKeys))
        }
        var frontier = keyed.filter { !pointing.contains($0.0.index) }.map(found)
        try reach(&reached, into: &frontier)
        var referenceLoads: [Load] = referenced.compactMap { relationship, keys in
            referenceLoad(relationship, cache.rows(relationship.targetPlan).storedRows(forKeys: keys))
        }
        for _ in 0..<Self.prefetchLevels where !frontier.isEmpty || !referenceLoads.isEmpty || !later.isEmpty {
            var loads = referenceLoads
            referenceLoads = []
            for (entity, ids) in frontier {
                let new = Self.firstVisits(of: ids, entity, &visited)
                if !new.isEmpty { loads += columnLoads(entity, new, owned: &reached) }
                let unlinked = Self.firstVisits(of: ids, entity, &linksVisited)
                if !unlinked.isEmpty { loads += linkLoads(entity, unlinked, owned: &reached) }
            }
            try run(loads)
            frontier = []
            try reach(&reached, into: &frontier)
            if !later.isEmpty {
                try run(later.compactMap { entity, entityKeys in keyLoad(cache.rows(entity), keys: entityKeys) })
                frontier += later.map(found).filter { !$0.1.isEmpty }
                later = []
            }
        }
    }

    /// The first round trip of reads for the batch with `keys`, to run before it begins (see
    /// ``beginBatch(_:upcoming:)``): ``prefetch(_:)`` finds their rows in the cache then, and
    /// reads on from there.
    func firstReads(of keys: BatchKeys) throws(StoreError) -> [Load] {
        var linksVisited: [Int: RowIDSet] = [:]
        var reached: [Reach] = []
        let (batch, _) = try plan(of: keys)
        let loads = firstLoads(batch, linksVisited: &linksVisited, reached: &reached)
        upcomingPlan = (keys.number, batch, FirstRead(linksVisited: linksVisited, reached: reached, generation: cache.generation))
        return loads
    }

    /// What a batch's first round trip visited, planned before the batch began: ``prefetch(_:)``
    /// goes on from there rather than going through the batch's keys again, unless the cache
    /// was emptied since (its `generation`).
    struct FirstRead {
        let linksVisited: [Int: RowIDSet]
        let reached: [Reach]
        let generation: Int
    }

    /// The plan of the batch with `keys`, and what its first round trip visited: those made when
    /// it was the upcoming batch, if so.
    private func plan(of keys: BatchKeys) throws(StoreError) -> (BatchPlan, FirstRead?) {
        defer { upcomingPlan = nil }
        if let (number, plan, firstRead) = upcomingPlan, number == keys.number { return (plan, firstRead) }
        let plan = try BatchPlan(self, keys.records, keys.references)
        keysPlanned += plan.byEntity.reduce(0) { $0 + $1.1.count }
        return (plan, nil)
    }

    /// The keys of a batch as the cache holds them, and how they are read.
    struct BatchPlan {
        /// The keys of the records, per entity (owned entities have none).
        let keyed: [(EntityPlan, KeyList)]
        /// The keys of the references, per relationship.
        let referenced: [(RelationshipPlan, KeyList)]
        /// Per entity, the keys of its records and of the references to it, each once.
        let byEntity: [(EntityPlan, KeyList)]
        /// The entities read with their parents (see ``pointingChildren(of:referenced:)``).
        let pointing: Set<Int>

        /// The keys of the records of `entity`, if the batch has any.
        func recordKeys(of entity: EntityPlan) -> KeyList? {
            keyed.first { $0.0.index == entity.index }?.1
        }

        init(_ rows: PostgresImportRows, _ keys: [(EntityPlan, KeyList)], _ references: [(RelationshipPlan, KeyList)]) throws(StoreError) {
            keyed = keys.filter { !$0.0.spec.isOwned }.map { entity, entityKeys in (entity, rows.cacheKeys(entityKeys, entity)) }
            referenced = references.map { relationship, keys in (relationship, rows.cacheKeys(keys, relationship.targetPlan)) }
            var byEntity = keyed
            var position = Dictionary(uniqueKeysWithValues: keyed.enumerated().map { ($1.0.index, $0) })
            for (relationship, keys) in referenced {
                let entity = relationship.targetPlan
                if let i = position[entity.index] {
                    byEntity[i].1 = byEntity[i].1.union(keys)
                } else {
                    position[entity.index] = byEntity.count
                    byEntity.append((entity, keys))
                }
            }
            self.byEntity = byEntity
            for (entity, _) in byEntity { try rows.probeEmptiness(entity) }
            pointing = PostgresImportRows.pointingChildren(
                of: keyed.map(\.0), referenced: Set(referenced.map(\.0.targetPlan.index)))
        }
    }

    /// The reads of a batch's first round trip: the rows with its keys, but those read with
    /// their parents; and, where a key is the row id, which names the row before it is read,
    /// what only needs the id (a key without a row has no links), but for keys known to have
    /// no row on the server.
    private func firstLoads(_ batch: BatchPlan, linksVisited: inout [Int: RowIDSet], reached: inout [Reach]) -> [Load] {
        var loads = batch.byEntity.compactMap { entity, entityKeys -> Load? in
            guard !batch.pointing.contains(entity.index) else { return nil }
            // The owned rows of its records follow their read (see ``Load/followUp``).
            var owners: RowIDSet?
            if !ownedColumns(of: entity).isEmpty, case .ids(let ids)? = batch.recordKeys(of: entity) {
                owners = RowIDSet(ids)
            }
            return keyLoad(cache.rows(entity), keys: keysRead(entity, entityKeys, batch), owners: owners)
        }
        loads += heldRecordsOwnedLoads(batch)
        loads += serverIDsLoads(batch)
        for (entity, entityKeys) in batch.keyed where cache.rows(entity).keyIsRowID {
            let rows = cache.rows(entity)
            let named: [Int64]
            switch entityKeys {
            case .ids(let ids):
                named = ids.filter { !rows.absentIDs.contains($0) && (rows.holds($0) || !namesNoRow([.integer($0)], of: entity)) }
            case .keys(let keys):
                named = keys.compactMap { key -> Int64? in
                    guard case .integer(let id) = key[0], !rows.isAbsent(key) else { return nil }
                    if !rows.holds(id), namesNoRow(key, of: entity) { return nil }
                    return id
                }
            }
            let ids = Self.firstVisits(of: named, entity, &linksVisited)
            if !ids.isEmpty { loads += linkLoads(entity, ids, owned: &reached) }
        }
        return loads
    }

    /// Reads of the owned rows that the batch's records the cache holds point at, and it lacks:
    /// their ids are known before the batch's reads run. The other records' rows are followed
    /// by theirs (see ``idLoad(_:ids:owners:)``).
    private func heldRecordsOwnedLoads(_ batch: BatchPlan) -> [Load] {
        batch.keyed.flatMap { entity, keys -> [Load] in
            guard case .ids(let ids) = keys else { return [] }
            let rows = cache.rows(entity)
            return ownedColumns(of: entity).compactMap { j, target in
                idLoad(cache.rows(target), ids: ids.compactMap { rows.rows.read($0) { $0.columns[j] } ?? nil })
            }
        }
    }

    /// The keys of `entity` whose rows the batch reads, of `keys` (its records' and its
    /// references'): where the server's ids are known (``PostgresRowCache/EntityRows/serverIDs``),
    /// its records' only, a reference needing no more than to know its row is there.
    private func keysRead(_ entity: EntityPlan, _ keys: KeyList, _ batch: BatchPlan) -> KeyList {
        guard cache.rows(entity).serverIDs != nil else { return keys }
        return batch.recordKeys(of: entity) ?? .ids([])
    }

    /// Reads of the id of every row of the entities whose rows references alone make the
    /// read-ahead read one by one: once those reads reach 1,024 rows in the transaction, and
    /// again each time they double, the ids of all the rows are read if the table holds at most
    /// 16 times as many (``serverIDsLoad(_:limit:)``). Reading an id in a scan of the table
    /// costs about a tenth of reading a row through its index; the references after then read
    /// nothing.
    private func serverIDsLoads(_ batch: BatchPlan) -> [Load] {
        var loads: [Load] = []
        for (entity, keys) in batch.byEntity {
            let rows = cache.rows(entity)
            guard rows.keyIsRowID, entity.tenantSlot == nil, rows.serverIDs == nil, case .ids(let ids) = keys else { continue }
            var records = RowIDSet()
            if case .ids(let recordIDs)? = batch.recordKeys(of: entity) { records = RowIDSet(recordIDs) }
            let read = ids.count { !records.contains($0) && !rows.holds($0) && !rows.absentIDs.contains($0) }
            guard read > 0 else { continue }
            var reads = referenceReads[entity.index] ?? (0, 1_024)
            reads.count += read
            if reads.count >= reads.next, reads.next <= Self.serverIDsLimit {
                loads.append(serverIDsLoad(rows, limit: min(16 * reads.count, Self.serverIDsLimit)))
                reads.next = 2 * reads.count
            }
            referenceReads[entity.index] = reads
        }
        return loads
    }

    /// Of `ids` (rows of `entity`), those `visited` lacks, which it then holds.
    private static func firstVisits(of ids: [Int64], _ entity: EntityPlan, _ visited: inout [Int: RowIDSet]) -> [Int64] {
        guard !ids.isEmpty else { return [] }
        // Taken out and put back: one lookup of the entity's set, not one per id.
        var rows = visited.removeValue(forKey: entity.index) ?? RowIDSet(minimumCapacity: ids.count)
        defer { visited[entity.index] = rows }
        return ids.filter { rows.insert($0) }
    }

    /// Of `entities` (a batch's), those whose rows hold a column pointing at a row of another of
    /// them (`otherColumn` from the parent's side), that no reference of the batch names and
    /// that point at no such row themselves: the parents' first-level reads read them (see
    /// ``prefetch(_:)``).
    static func pointingChildren(of entities: [EntityPlan], referenced: Set<Int>) -> Set<Int> {
        func children(of entity: EntityPlan) -> [Int] {
            entity.relationships.compactMap { relationship in
                guard case .otherColumn = relationship.storage, relationship.targetPlan.index != entity.index else { return nil }
                return relationship.targetPlan.index
            }
        }
        let pointing = Set(entities.flatMap(children)).subtracting(referenced)
        // A child that is a parent too is read first, so that its own children come with it.
        return pointing.subtracting(entities.filter { !children(of: $0).isEmpty }.map(\.index))
    }

    /// How deep owned rows within owned rows are read ahead.
    static let prefetchLevels = 8

    /// Owned rows a level of reads reaches, found once the reads ran.
    enum Reach {
        /// These rows (their ids were in link columns).
        case rows(EntityPlan, [Int64])
        /// The rows whose link column points at `pointees`.
        case pointing(PostgresRowCache.EntityRows, column: Int, pointees: [Int64])
        /// The targets of the lists of `sources`, rows of `target`.
        case lists(PostgresRowCache.LinkTable, sources: [Int64], target: EntityPlan)
    }

    /// Appends to `frontier` the owned rows that the reads just run reached, and empties
    /// `reached`.
    private func reach(_ reached: inout [Reach], into frontier: inout [(EntityPlan, [Int64])]) throws(StoreError) {
        for reach in reached {
            let (entity, ids) = try rows(reachedBy: reach)
            if !ids.isEmpty { frontier.append((entity, ids)) }
        }
        reached = []
    }

    private func rows(reachedBy reach: Reach) throws(StoreError) -> (EntityPlan, [Int64]) {
        switch reach {
        case .rows(let entity, let ids):
            return (entity, ids)
        case .pointing(let rows, let j, let pointees):
            return (rows.plan, pointees.flatMap { rows.rows(pointingAt: $0, column: j) })
        case .lists(let table, let sources, let target):
            let reached = sources.flatMap { table.lists.read($0) { $0.targets } ?? [] }
            try run(idLoad(cache.rows(target), ids: reached))
            return (target, reached)
        }
    }

    /// The read of what linking to rows `ids` through `relationship` reads of them: the rows
    /// that let go of a one ↔ one target, or the link lists that grow when the link is kept in
    /// the target's own list. `nil` for the other relationships, which read nothing of those
    /// rows but the rows.
    private func referenceLoad(_ relationship: RelationshipPlan, _ ids: [Int64]) -> Load? {
        guard !ids.isEmpty else { return nil }
        switch relationship.storage {
        case .selfColumn(let column, true):
            let entity = relationship.entity
            guard let j = entity.selfColumns.firstIndex(where: { entity.relationships[$0].columnName == column }) else { return nil }
            return pointingLoad(cache.rows(entity), column: j, at: ids)
        case .linkTable(_, false):
            return listLoad(cache.table(relationship), sources: ids)
        case .selfColumn, .otherColumn, .linkTable:
            return nil
        }
    }

    /// The reads of what the importer reads of rows `ids` of `entity` (read already) through
    /// its link columns; appends to `owned` how to find, once they ran, the owned rows they
    /// reached.
    private func columnLoads(_ entity: EntityPlan, _ ids: [Int64], owned: inout [Reach]) -> [Load] {
        let rows = cache.rows(entity)
        var loads: [Load] = []
        for (j, r) in entity.selfColumns.enumerated() {
            let relationship = entity.relationships[r]
            let targets = ids.compactMap { rows.rows.read($0) { $0.columns[j] } ?? nil }
            guard !targets.isEmpty else { continue }
            if relationship.isTargetOwned {
                if let load = idLoad(cache.rows(relationship.targetPlan), ids: targets) { loads.append(load) }
                owned.append(.rows(relationship.targetPlan, targets))
            }
            if case .selfColumn(_, true) = relationship.storage, let load = pointingLoad(rows, column: j, at: targets) {
                loads.append(load)
            }
        }
        return loads
    }

    /// The reads of what the importer reads of rows `ids` of `entity` through its other
    /// relationships, which need the ids only: rows pointing at them, their link lists, and the
    /// lists linking to them; appends to `owned` as ``columnLoads(_:_:owned:)`` does.
    private func linkLoads(_ entity: EntityPlan, _ ids: [Int64], owned: inout [Reach]) -> [Load] {
        var loads: [Load] = []
        func add(_ load: Load?) { if let load { loads.append(load) } }
        for relationship in entity.relationships {
            let target = relationship.targetPlan
            switch relationship.storage {
            case .selfColumn:
                continue
            case .otherColumn(let column):
                guard let j = target.selfColumns.firstIndex(where: { target.relationships[$0].columnName == column }) else { continue }
                let pointing = cache.rows(target)
                add(pointingLoad(pointing, column: j, at: ids))
                if relationship.isTargetOwned { owned.append(.pointing(pointing, column: j, pointees: ids)) }
            case .linkTable(_, true):
                let table = cache.table(relationship)
                add(listLoad(table, sources: ids))
                if relationship.isTargetOwned { owned.append(.lists(table, sources: ids, target: target)) }
            case .linkTable(_, false):
                add(linkingLoad(cache.table(relationship), to: ids, of: entity))
            }
        }
        return loads
    }
}

extension PostgresImportRows {
    /// `keys` as the cache holds keys (see ``cacheKey(stored:_:)``).
    func cacheKeys(_ keys: KeyList, _ entity: EntityPlan) -> KeyList {
        guard case .keys(let keys) = keys else { return keys }
        return .keys(keys.map { cacheKey(stored: $0, entity) })
    }
}

extension KeyList {
    /// These keys and `other`'s, each once; keys of one entity are all row ids or none.
    func union(_ other: KeyList) -> KeyList {
        switch (self, other) {
        case (.ids(let ids), .ids(let more)): return .ids(Array(Set(ids).union(more)))
        case (.keys(let keys), .keys(let more)): return .keys(Array(Set(keys).union(more)))
        default: preconditionFailure("the keys of one entity are all row ids or none")
        }
    }
}

extension PostgresRowCache.EntityRows {
    /// The cached rows with `keys`.
    func rows(forKeys keys: KeyList) -> [Int64] {
        switch keys {
        case .ids(let ids): return ids.filter(holds)
        case .keys(let keys): return keys.compactMap(row(forKey:))
        }
    }

    /// The rows with `keys` the cache holds, and those the server's ids show it holds
    /// (``serverIDs``), not read.
    func storedRows(forKeys keys: KeyList) -> [Int64] {
        guard serverIDs != nil, case .ids(let ids) = keys else { return rows(forKeys: keys) }
        return ids.filter { holds($0) || serverHolds($0) == true }
    }
}
