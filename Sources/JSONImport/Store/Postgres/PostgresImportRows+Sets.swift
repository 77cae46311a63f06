import Foundation

/// The set-based halves of the row path: handing the writes held to the server, batch by
/// batch (reading ahead what a batch will read is in `PostgresImportRows+ReadAhead.swift`).
extension PostgresImportRows {
    var readsAhead: Bool { true }

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
    /// ``prefetch(_:)``), then, once ``handOverSize`` rows and links are written since the
    /// last hand-over, has the writes go to the server on a worker thread while the importer
    /// goes on, followed by the first round trip of reads for the batch after it, `upcoming`
    /// (see ``firstReads(of:)``), applied to the cache once the worker is done. A hand-over
    /// without reads may run through several batches: it is waited for when the connection is
    /// needed next, and a hand-over due meanwhile is put off to a later batch. Past the cache's
    /// budget, the writes go first and the cache is emptied (unless a scope around the import
    /// needs it to undo itself).
    ///
    /// Reads that run before the importer's writes reach the server are what a batch's reads
    /// always are: the writes of the batch before it are still in the cache when they run, and
    /// the cache's rows and lists stand over what a read brings (see
    /// ``PostgresRowCache/cacheStored(_:_:values:columns:isStub:)``).
    func beginBatch(_ batch: BatchKeys, upcoming: () -> BatchKeys?) throws(StoreError) {
        // The reads in the background are this batch's first round trip; a hand-over alone
        // goes on while the importer does, until the connection is needed.
        if let background {
            if background.reads.isEmpty { batchesBegunDuringHandOver += 1 } else { try finishBackgroundHandOver() }
        }
        try keepWithinBudget()
        try prefetch(batch)
        var handOver: HandOver?
        // Small batches (a line of JSON Lines) pile up their writes first. A hand-over still
        // running (one without reads: the importer went on without it) is not waited for:
        // the writes go with a later batch's, and the importer goes on meanwhile. A fresh
        // import's hand-overs wait for the server to take in a `COPY` of the rows held.
        if changeCount - changesHandedOver >= handOverSize {
            if background?.isRunning == true {
                handOversPostponed += 1
                openHandOverGate()
            } else {
                try finishBackgroundHandOver()
                if let taken = takeHandOver(keepingNewStubs: true) {
                    handOver = taken
                    changesHandedOver = changeCount
                    try engine.openScopesOnServer()
                }
            }
        }
        let reads = try upcoming().map(firstReads) ?? []
        guard handOver != nil || !reads.isEmpty else { return }
        try finishBackgroundHandOver()
        if !reads.isEmpty {
            roundTrips += 1
            backgroundReads += 1
        }
        let job = BackgroundHandOver(rows: self, handOver: handOver, reads: reads, gate: handOverGate)
        background = job
        job.start()
    }

    /// Reads the rows `ids` of `entity` the cache lacks, in one round trip.
    func readAhead(_ entity: EntityPlan, rows ids: [Int64]) throws(StoreError) {
        try keepWithinBudget()
        try run(idLoad(cache.rows(entity), ids: ids))
    }

    func readAhead(lists relationship: RelationshipPlan, of sources: [Int64]) throws(StoreError) {
        try keepWithinBudget()
        try run(listLoad(cache.table(relationship), sources: sources))
    }

    /// Past the cache's budget, hands the writes over and empties the cache (unless a scope
    /// needs it to undo itself), after the hand-over running in the background, if any.
    private func keepWithinBudget() throws(StoreError) {
        guard cache.size > cacheBudget && !cache.hasOpenScope else { return }
        try handOver()
        rememberInsertedKeys()
        cache.removeAll()
    }

    /// Forgets what the cache holds, its writes handed over first, when a deletion changed the
    /// server under it (``cacheIsStale``): rows and link lists it holds may be gone there, or
    /// point at rows that are (an import after a prune, in one transaction, took a pruned user
    /// for a stored one). Within an open scope the entries are forgotten one by one, each
    /// journaled: undoing the scope brings back the cache that the server's rollback matches.
    func forgetStaleCache() throws(StoreError) {
        guard cacheIsStale else { return }
        try engine.handOverPendingWrites()
        rememberInsertedKeys()
        if cache.hasOpenScope { cache.forgetEachEntry() } else { cache.removeAll() }
        cacheIsStale = false
    }

    /// Before the cache is emptied: the keys of the rows it holds of tables that were empty when
    /// the transaction first looked (all of them its own inserts), for ``insertedKeys``.
    private func rememberInsertedKeys() {
        let transaction = engine.transactionNumber
        for (index, inserted) in insertedKeys where inserted.transaction == transaction {
            guard index < cache.entities.count, let rows = cache.entities[index] else { continue }
            var keys = inserted.keys
            if rows.keyIsRowID {
                for id in rows.rows.ids { keys.insert([.integer(id)]) }
            } else {
                keys.formUnion(rows.keys.keys)
            }
            insertedKeys[index] = (transaction, keys)
        }
    }

    /// Waits for the hand-over running in the background and throws its error, then applies
    /// the reads that followed it: every use of the connection comes after it.
    func finishBackgroundHandOver() throws(StoreError) {
        guard let job = background else { return }
        background = nil
        openHandOverGate()
        // Each result moved out of the list as it is applied, in order: its rows go into the
        // cache without a copy.
        var (reads, results) = try job.wait()
        if reads.count > job.reads.count {
            roundTrips += 1
            followUpReads += reads.count - job.reads.count
        }
        results.reverse()
        for load in reads {
            switch results.popLast() {
            case .success(let decoded)?: load.apply(decoded)
            case .failure(let error)?: throw error
            case nil: return
            }
        }
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
            for (id, row) in updated where row.stampedAt != 0 {
                if stampsWritten[rows.plan.index]?.time != row.stampedAt { stampsWritten[rows.plan.index] = (row.stampedAt, []) }
                stampsWritten[rows.plan.index]!.rows.insert(id)
            }
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
                    + stagedColumns(entity).map { "\(quote($0.name)) \($0.type.rawValue)" }.joined(separator: ", ")
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
                    values: taken.map { owners.rows.read($0.source) { $0.values[slot] } ?? .null })
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

    /// Runs the steps of `handOver` on the connection, releasing each once it is sent: on the
    /// thread that sends them, which is the worker's for a hand-over in the background.
    func send(_ handOver: consuming HandOver) throws(StoreError) {
        var steps = (consume handOver).steps
        for index in steps.indices {
            let step = steps[index]
            steps[index] = .statements([])
            switch consume step {
            case .statements(let statements):
                try pipeline(statements)
            case .rows(let entity, let table, let isNew, var rows):
                // In key order, sorted here rather than when taken from the cache.
                rows.sort { $0.id < $1.id }
                let stamps = !isNew && entity.spec.hasTimestamps
                try copy(into: table, columns: isNew ? insertColumns(entity) : stagedColumns(entity)) { (writer) throws(StoreError) in
                    // Each row read where it lies, not copied out (a retain of each of its
                    // arrays, long out of the processor's caches for the stubs a fresh import
                    // hands over at its end).
                    for i in rows.indices {
                        try forEachField(entity, id: rows[i].id, rows[i].row, timestamps: isNew) { (value) throws(StoreError) in
                            try writer.append(value)
                        }
                        if stamps { try writer.append(rows[i].row.stampedAt == 0 ? .null : .real(rows[i].row.stampedAt)) }
                    }
                }
            case .links(let table, let tenant, let lists):
                // In key order (source, then target), as rows are: a new store's first rows come
                // before the key's index, whose build then finds them sorted and need not sort
                // them. The order of the links themselves is their positions'.
                let order = lists.indices.sorted { lists[$0].source < lists[$1].source }
                try copy(into: table, columns: (tenant.map { [$0.column] } ?? []) + Self.linkColumns) { (writer) throws(StoreError) in
                    for l in order {
                        let (source, list) = lists[l]
                        func link(_ i: Int) throws(StoreError) {
                            if let tenant { try writer.append(tenant.values[l]) }
                            try writer.append(.integer(source))
                            try writer.append(.integer(list.targets[i]))
                            try writer.append(.integer(list.position(at: i)))
                        }
                        if list.isInTargetOrder {
                            for i in list.targets.indices { try link(i) }
                        } else {
                            for i in list.targets.indices.sorted(by: { list.targets[$0] < list.targets[$1] }) { try link(i) }
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

    /// Lets a worker held by ``handOverGate`` go (tests only), once.
    private func openHandOverGate() {
        handOverGate?.signal()
        handOverGate = nil
    }
}
