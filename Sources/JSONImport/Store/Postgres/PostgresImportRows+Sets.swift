import Foundation

/// The set-based halves of the row path: reading ahead what a batch of records will read, and
/// handing the writes held to the server.
extension PostgresImportRows {
    // MARK: Reading ahead

    var readsAhead: Bool { true }

    /// Rows and links written past which a batch's writes go to the server.
    static let handOverSize = 2_000

    /// Reads in one round trip the rows with the keys a batch of records names and those its
    /// references name, then in one round trip per level what the importer reads of the
    /// records' rows: their owned rows, link lists, the rows pointing at them and the rows their
    /// one ↔ one targets are taken from. Of a referenced row, only what linking to it reads
    /// (see ``referenceLoad(_:_:)``), in the first level's round trip.
    ///
    /// Rows that point at their parent through a column of their own (a repo's `owner` under
    /// its user's `repos`) come with the first level's reads of the parents: their keys are read
    /// after it, only those the cache still lacks (new rows, or rows that moved between
    /// parents), rather than every row twice.
    private func prefetch(
        _ keys: [(EntityPlan, [[StoredValue]])], references: [(RelationshipPlan, [[StoredValue]])]
    ) throws(StoreError) {
        let keyed = keys.filter { !$0.0.spec.isOwned }.map { entity, entityKeys in
            (entity, entityKeys.map { cacheKey(stored: $0, entity) })
        }
        let referenced = references.map { relationship, keys in
            (relationship, keys.map { cacheKey(stored: $0, relationship.targetPlan) })
        }
        // Per entity, the keys of its records and of the references to it, each once.
        var byEntity = keyed
        var position = Dictionary(uniqueKeysWithValues: keyed.enumerated().map { ($1.0.index, $0) })
        for (relationship, keys) in referenced {
            let entity = relationship.targetPlan
            if let i = position[entity.index] {
                byEntity[i].1 = Array(Set(byEntity[i].1).union(keys))
            } else {
                position[entity.index] = byEntity.count
                byEntity.append((entity, keys))
            }
        }
        for (entity, _) in byEntity { try probeEmptiness(entity) }
        let pointing = Self.pointingChildren(of: keyed.map(\.0), referenced: Set(referenced.map(\.0.targetPlan.index)))
        var later = byEntity.filter { pointing.contains($0.0.index) }
        try run(byEntity.compactMap { entity, entityKeys in
            pointing.contains(entity.index) ? nil : keyLoad(cache.rows(entity), keys: entityKeys)
        })
        func found(_ entity: EntityPlan, _ entityKeys: [[StoredValue]]) -> (EntityPlan, [Int64]) {
            let rows = cache.rows(entity)
            return (entity, entityKeys.compactMap { rows.row(forKey: $0) })
        }
        var frontier = keyed.filter { !pointing.contains($0.0.index) }.map(found)
        var referenceLoads: [Load] = referenced.compactMap { relationship, keys in
            let rows = cache.rows(relationship.targetPlan)
            return referenceLoad(relationship, keys.compactMap { rows.row(forKey: $0) })
        }
        // Per entity (by index): the rows whose relations are read already.
        var visited: [Int: Set<Int64>] = [:]
        for _ in 0..<Self.prefetchLevels where !frontier.isEmpty || !referenceLoads.isEmpty || !later.isEmpty {
            var loads = referenceLoads
            referenceLoads = []
            var reached: [Reach] = []
            for (entity, ids) in frontier {
                let new = ids.filter { visited[entity.index, default: []].insert($0).inserted }
                if !new.isEmpty { loads += relationLoads(entity, new, owned: &reached) }
            }
            try run(loads)
            frontier = []
            for reach in reached {
                let (entity, ids) = try rows(reachedBy: reach)
                if !ids.isEmpty { frontier.append((entity, ids)) }
            }
            if !later.isEmpty {
                try run(later.compactMap { entity, entityKeys in keyLoad(cache.rows(entity), keys: entityKeys) })
                frontier += later.map(found).filter { !$0.1.isEmpty }
                later = []
            }
        }
    }

    /// Of `entities` (a batch's), those whose rows hold a column pointing at a row of another of
    /// them (`otherColumn` from the parent's side), that no reference of the batch names and
    /// that point at no such row themselves: the parents' first-level reads read them (see
    /// ``prefetch(_:references:)``).
    private static func pointingChildren(of entities: [EntityPlan], referenced: Set<Int>) -> Set<Int> {
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
    private enum Reach {
        /// These rows (their ids were in link columns).
        case rows(EntityPlan, [Int64])
        /// The rows whose link column points at `pointees`.
        case pointing(PostgresRowCache.EntityRows, column: Int, pointees: [Int64])
        /// The targets of the lists of `sources`, rows of `target`.
        case lists(PostgresRowCache.LinkTable, sources: [Int64], target: EntityPlan)
    }

    private func rows(reachedBy reach: Reach) throws(StoreError) -> (EntityPlan, [Int64]) {
        switch reach {
        case .rows(let entity, let ids):
            return (entity, ids)
        case .pointing(let rows, let j, let pointees):
            return (rows.plan, pointees.flatMap { rows.rows(pointingAt: $0, column: j) })
        case .lists(let table, let sources, let target):
            let reached = sources.flatMap { table.lists[$0]?.targets ?? [] }
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

    /// The reads of what the importer reads of rows `ids` of `entity`; appends to `owned` how
    /// to find, once they ran, the owned rows they reached.
    private func relationLoads(_ entity: EntityPlan, _ ids: [Int64], owned: inout [Reach]) -> [Load] {
        let rows = cache.rows(entity)
        var loads: [Load] = []
        func add(_ load: Load?) { if let load { loads.append(load) } }
        for (j, r) in entity.selfColumns.enumerated() {
            let relationship = entity.relationships[r]
            let targets = ids.compactMap { rows.rows[$0]?.columns[j] }
            guard !targets.isEmpty else { continue }
            if relationship.isTargetOwned {
                add(idLoad(cache.rows(relationship.targetPlan), ids: targets))
                owned.append(.rows(relationship.targetPlan, targets))
            }
            if case .selfColumn(_, true) = relationship.storage { add(pointingLoad(rows, column: j, at: targets)) }
        }
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

    // MARK: Handing over

    /// The writes of one hand-over, taken from the cache: statements and rows to copy, in the
    /// order they run. Rows and lists are the cache's own copies (their arrays shared, not
    /// copied), encoded as they are sent.
    struct HandOver {
        /// The tenant column of a distributed source's link table, and the tenant of each list
        /// handed over, in order (SPEC 6).
        struct LinkTenants {
            let column: PostgresCopyColumn
            let values: [StoredValue]
        }

        enum Step {
            case statements([PostgresStatement])
            /// Rows of `entity` into `table`: new rows with their bookkeeping timestamps
            /// (`isNew`), or changed rows into the entity's staging table.
            case rows(EntityPlan, table: String, isNew: Bool, [(id: Int64, row: PostgresRowCache.Row)])
            /// The links of each source into the link table `table`.
            /// `tenant`: the tenant column of a distributed source's links, and each list's tenant.
            case links(table: String, tenant: LinkTenants?, [(source: Int64, list: PostgresRowCache.LinkList)])
        }
        var steps: [Step] = []
    }

    /// Writes what the cache holds that the server lacks (see ``takeHandOver()``), after the
    /// hand-over running in the background, if any. Savepoints of the importer's open scopes
    /// are taken first.
    func handOver() throws(StoreError) {
        try finishBackgroundHandOver()
        guard let handOver = takeHandOver(keepingNewStubs: false) else { return }
        try engine.openScopesOnServer()
        try send(handOver)
    }

    /// The records of the last batch are imported: reads ahead for the next batch (see
    /// ``prefetch(_:references:)``), then has the last batch's writes go to the server on a
    /// worker thread while the importer goes on with the next. Past the cache's budget, the
    /// writes go first and the cache is emptied (unless a scope around the import needs it to
    /// undo itself).
    func beginBatch(_ keys: [(EntityPlan, [[StoredValue]])], references: [(RelationshipPlan, [[StoredValue]])]) throws(StoreError) {
        try keepWithinBudget()
        try prefetch(keys, references: references)
        // Small batches (a line of JSON Lines) pile up their writes first.
        guard changeCount - changesHandedOver >= Self.handOverSize, let handOver = takeHandOver(keepingNewStubs: true) else { return }
        changesHandedOver = changeCount
        try engine.openScopesOnServer()
        let job = BackgroundHandOver(rows: self, handOver: handOver)
        background = job
        job.start()
    }

    /// Reads the rows `ids` of `entity` the cache lacks, in one round trip.
    func readAhead(_ entity: EntityPlan, rows ids: [Int64]) throws(StoreError) {
        try keepWithinBudget()
        try run(idLoad(cache.rows(entity), ids: ids))
    }

    /// Past the cache's budget, hands the writes over and empties the cache (unless a scope
    /// needs it to undo itself), after the hand-over running in the background, if any.
    private func keepWithinBudget() throws(StoreError) {
        try finishBackgroundHandOver()
        guard cache.size > cacheBudget && !cache.hasOpenScope else { return }
        try handOver()
        rememberInsertedKeys()
        cache.removeAll()
    }

    /// Before the cache is emptied: the keys of the rows it holds of tables that were empty when
    /// the transaction first looked (all of them its own inserts), for ``insertedKeys``.
    private func rememberInsertedKeys() {
        let transaction = engine.transactionNumber
        for (index, inserted) in insertedKeys where inserted.transaction == transaction {
            guard index < cache.entities.count, let rows = cache.entities[index] else { continue }
            var keys = inserted.keys
            if rows.keyIsRowID {
                for id in rows.rows.keys { keys.insert([.integer(id)]) }
            } else {
                keys.formUnion(rows.keys.keys)
            }
            insertedKeys[index] = (transaction, keys)
        }
    }

    /// Waits for the hand-over running in the background and throws its error: every use of
    /// the connection comes after it.
    func finishBackgroundHandOver() throws(StoreError) {
        guard let job = background else { return }
        background = nil
        try job.wait()
    }

    /// The writes the server lacks, marked as handed over in the cache: new rows with one binary
    /// `COPY` per table; changed rows with a `COPY` into a temporary staging table and one
    /// `UPDATE … FROM` per table; changed link lists by removing their sources' links and
    /// copying the lists in. `nil` when there are none. `keepingNewStubs`: see
    /// ``PostgresRowCache/takeDirtyRows(_:keepingNewStubs:)``.
    func takeHandOver(keepingNewStubs: Bool) -> HandOver? {
        typealias Rows = [(id: Int64, row: PostgresRowCache.Row)]
        var inserts: [(EntityPlan, Rows)] = []
        var updates: [(EntityPlan, Rows)] = []
        for case let rows? in cache.entities where !rows.dirty.isEmpty || (!keepingNewStubs && !rows.waiting.isEmpty) {
            let (inserted, updated) = cache.takeDirtyRows(rows, keepingNewStubs: keepingNewStubs)
            if !inserted.isEmpty { inserts.append((rows.plan, inserted)) }
            if !updated.isEmpty { updates.append((rows.plan, updated)) }
        }
        var lists: [(PostgresRowCache.LinkTable, [(source: Int64, list: PostgresRowCache.LinkList)])] = []
        for table in cache.tables where !table.dirty.isEmpty {
            lists.append((table, cache.takeDirtyLists(table)))
        }
        guard !inserts.isEmpty || !updates.isEmpty || !lists.isEmpty else { return nil }

        var handOver = HandOver()
        var first: [PostgresStatement] = []
        for (entity, rows) in updates {
            let stage = quote(Self.stageName(entity))
            first.append(PostgresStatement(
                "CREATE TEMPORARY TABLE IF NOT EXISTS \(stage) ("
                    + stageColumns(entity).map { "\(quote($0.name)) \($0.type.rawValue)" }.joined(separator: ", ")
                    + ") ON COMMIT DROP"))
            first.append(stageEmptying(entity))
            stagedRows[entity.index]!.count += rows.count
        }
        for (table, taken) in lists {
            let stored = taken.filter(\.list.isStored).map(\.source)
            if !stored.isEmpty {
                let tenant = engine.tenantFilter(table.source.spec, alias: nil, parameter: 2)
                first.append(PostgresStatement(
                    "DELETE FROM \(quote(table.name)) WHERE \"source\" = ANY($1::int8[])\(tenant.sql)",
                    [PostgresEngine.array(stored)] + tenant.parameters))
            }
        }
        handOver.steps.append(.statements(first))
        for (entity, rows) in updates {
            handOver.steps.append(.rows(entity, table: Self.stageName(entity), isNew: false, rows))
        }
        // A one ↔ one target moving between rows: its old holder lets go first, so the unique
        // link column never holds it twice on the way.
        handOver.steps.append(.statements(updates.flatMap { entity, _ in
            releaseSQL(entity).map { PostgresStatement($0, isPlannedEachRun: true) }
        }))
        for (entity, rows) in inserts {
            handOver.steps.append(.rows(entity, table: entity.spec.table, isNew: true, rows))
        }
        for (table, taken) in lists where taken.contains(where: { !$0.list.targets.isEmpty }) {
            // A distributed source's links carry its tenant, read from the cached source row.
            let tenant = table.source.tenantSlot.map { slot in
                let owners = cache.rows(table.source)
                let attribute = table.source.spec.attributes[slot]
                return HandOver.LinkTenants(
                    column: PostgresCopyColumn(attribute.name, Self.columnType(attribute.type)),
                    values: taken.map { owners.rows[$0.source]?.values[slot] ?? .null })
            }
            handOver.steps.append(.links(table: table.name, tenant: tenant, taken))
        }
        // Planned each time: a plan made when the table was small would read all of it.
        handOver.steps.append(.statements(updates.map { entity, _ in PostgresStatement(mergeSQL(entity), isPlannedEachRun: true) }))
        return handOver
    }

    private static let linkColumns = [
        PostgresCopyColumn("source", .int8), PostgresCopyColumn("target", .int8), PostgresCopyColumn("position", .int8),
    ]

    /// Rows a staging table holds, deleted ones included, past which it is truncated rather
    /// than emptied with `DELETE`. Truncating costs file operations each time; deleted rows
    /// stay in the table to the end of the transaction and slow its scans.
    static let stagedRowsTruncated = 20_000

    /// The statement emptying the staging table of `entity` before a hand-over stages rows in
    /// it; counts them out of ``stagedRows`` when it truncates the table.
    private func stageEmptying(_ entity: EntityPlan) -> PostgresStatement {
        let transaction = engine.transactionNumber
        let held = stagedRows[entity.index].flatMap { $0.transaction == transaction ? $0.count : nil } ?? 0
        let stage = quote(Self.stageName(entity))
        if held > Self.stagedRowsTruncated {
            stagedRows[entity.index] = (transaction, 0)
            return PostgresStatement("TRUNCATE \(stage)")
        }
        stagedRows[entity.index] = (transaction, held)
        // Not prepared ahead: the table may not exist before the pipeline's first statement.
        return PostgresStatement("DELETE FROM \(stage)", isPlannedEachRun: true)
    }

    /// Runs the steps of `handOver` on the connection.
    func send(_ handOver: HandOver) throws(StoreError) {
        for step in handOver.steps {
            switch step {
            case .statements(let statements):
                try pipeline(statements)
            case .rows(let entity, let table, let isNew, let rows):
                try copy(into: table, columns: isNew ? insertColumns(entity) : stageColumns(entity)) { (writer) throws(StoreError) in
                    for (id, row) in rows {
                        try forEachField(entity, id: id, row, timestamps: isNew) { (value) throws(StoreError) in try writer.append(value) }
                    }
                }
            case .links(let table, let tenant, let lists):
                try copy(into: table, columns: (tenant.map { [$0.column] } ?? []) + Self.linkColumns) { (writer) throws(StoreError) in
                    for (l, (source, list)) in lists.enumerated() {
                        for (i, target) in list.targets.enumerated() {
                            if let tenant { try writer.append(tenant.values[l]) }
                            try writer.append(.integer(source))
                            try writer.append(.integer(target))
                            try writer.append(.integer(list.position(at: i)))
                        }
                    }
                }
            }
        }
    }

    private func pipeline(_ statements: [PostgresStatement]) throws(StoreError) {
        guard !statements.isEmpty else { return }
        roundTrips += 1
        do {
            _ = try connection.pipeline(statements)
        } catch {
            throw error.error
        }
    }

    private func copy(
        into table: String, columns: [PostgresCopyColumn], _ rows: (inout PostgresCopyWriter) throws(StoreError) -> Void
    ) throws(StoreError) {
        roundTrips += 1
        do {
            try connection.copy(into: table, columns: columns) { writer in try rows(&writer) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.other, "\(error)")
        }
    }
}
