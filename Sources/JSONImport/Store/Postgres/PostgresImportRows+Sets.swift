import Foundation

/// The set-based halves of the row path: reading ahead what a batch of records will read, and
/// handing the writes held to the server.
extension PostgresImportRows {
    // MARK: Reading ahead

    /// Rows past which a batch's writes are handed over and the cache emptied.
    static let cacheBudget = 200_000

    var readsAhead: Bool { true }

    /// Rows and links written past which a batch's writes go to the server.
    static let handOverSize = 2_000

    /// Reads in one round trip the rows with the keys a batch of records names, then in one
    /// round trip per level what the importer reads of those rows: their owned rows, link
    /// lists, the rows pointing at them and the rows their one ↔ one targets are taken from.
    private func prefetch(_ keys: [(EntityPlan, [[StoredValue]])]) throws(StoreError) {
        let keyed = keys.filter { !$0.0.spec.isOwned }.map { entity, entityKeys in
            (entity, entityKeys.map { cacheKey(stored: $0, entity) })
        }
        try run(keyed.compactMap { entity, entityKeys in keyLoad(cache.rows(entity), keys: entityKeys) })
        var frontier = keyed.map { entity, entityKeys in
            let rows = cache.rows(entity)
            return (entity, entityKeys.compactMap { rows.row(forKey: $0) })
        }
        var visited = Set<[Int64]>()
        for _ in 0..<Self.prefetchLevels where !frontier.isEmpty {
            var loads: [Load] = []
            var reached: [Reach] = []
            for (entity, ids) in frontier {
                let new = ids.filter { visited.insert([Int64(entity.index), $0]).inserted }
                if !new.isEmpty { loads += relationLoads(entity, new, owned: &reached) }
            }
            try run(loads)
            frontier = []
            for reach in reached {
                let (entity, ids) = try rows(reachedBy: reach)
                if !ids.isEmpty { frontier.append((entity, ids)) }
            }
        }
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
            return (rows.plan, pointees.flatMap { rows.pointers[j][$0] ?? [] })
        case .lists(let table, let sources, let target):
            let reached = sources.flatMap { table.lists[$0]?.targets ?? [] }
            try run(idLoad(cache.rows(target), ids: reached))
            return (target, reached)
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
    /// order they run.
    struct HandOver {
        enum Step {
            case statements([PostgresStatement])
            case copy(table: String, columns: [PostgresCopyColumn], rows: [[StoredValue]])
        }
        var steps: [Step] = []
    }

    /// Writes what the cache holds that the server lacks (see ``takeHandOver()``), after the
    /// hand-over running in the background, if any. Savepoints of the importer's open scopes
    /// are taken first.
    func handOver() throws(StoreError) {
        try finishBackgroundHandOver()
        guard let handOver = takeHandOver() else { return }
        try engine.openScopesOnServer()
        try send(handOver)
    }

    /// The records of the last batch are imported: reads ahead for the next batch (see
    /// ``prefetch(_:)``), then has the last batch's writes go to the server on a worker thread
    /// while the importer goes on with the next. Past the cache's budget, the writes go first
    /// and the cache is emptied (unless a scope around the import needs it to undo itself).
    func beginBatch(_ keys: [(EntityPlan, [[StoredValue]])]) throws(StoreError) {
        try finishBackgroundHandOver()
        if cache.size > Self.cacheBudget && !cache.hasOpenScope {
            try handOver()
            cache.removeAll()
        }
        try prefetch(keys)
        // Small batches (a line of JSON Lines) pile up their writes first.
        guard changeCount - changesHandedOver >= Self.handOverSize, let handOver = takeHandOver() else { return }
        changesHandedOver = changeCount
        try engine.openScopesOnServer()
        let job = BackgroundHandOver(rows: self, handOver: handOver)
        background = job
        job.start()
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
    /// copying the lists in. `nil` when there are none.
    func takeHandOver() -> HandOver? {
        var inserts: [(PostgresRowCache.EntityRows, [Int64])] = []
        var updates: [(PostgresRowCache.EntityRows, [Int64])] = []
        for case let rows? in cache.entities {
            var inserted: [Int64] = []
            var updated: [Int64] = []
            for id in rows.dirty {
                if rows.rows[id]!.isStored { updated.append(id) } else { inserted.append(id) }
            }
            if !inserted.isEmpty { inserts.append((rows, inserted.sorted())) }
            if !updated.isEmpty { updates.append((rows, updated.sorted())) }
        }
        var lists: [(PostgresRowCache.LinkTable, [Int64])] = []
        for table in cache.tables {
            if !table.dirty.isEmpty { lists.append((table, table.dirty.sorted())) }
        }
        guard !inserts.isEmpty || !updates.isEmpty || !lists.isEmpty else { return nil }

        var handOver = HandOver()
        var first: [PostgresStatement] = []
        for (rows, _) in updates {
            let stage = quote(Self.stageName(rows.plan))
            first.append(PostgresStatement(
                "CREATE TEMPORARY TABLE IF NOT EXISTS \(stage) ("
                    + stageColumns(rows.plan).map { "\(quote($0.name)) \($0.type.rawValue)" }.joined(separator: ", ")
                    + ") ON COMMIT DROP"))
            first.append(PostgresStatement("TRUNCATE \(stage)"))
        }
        for (table, sources) in lists {
            let stored = sources.filter { table.lists[$0]!.isStored }
            if !stored.isEmpty {
                let tenant = engine.tenantFilter(table.source.spec, alias: nil, parameter: 2)
                first.append(PostgresStatement(
                    "DELETE FROM \(quote(table.name)) WHERE \"source\" = ANY($1::int8[])\(tenant.sql)",
                    [PostgresEngine.array(stored)] + tenant.parameters))
            }
        }
        handOver.steps.append(.statements(first))
        for (rows, ids) in updates {
            handOver.steps.append(.copy(
                table: Self.stageName(rows.plan), columns: stageColumns(rows.plan),
                rows: ids.map { stageValues(rows.plan, id: $0, rows.rows[$0]!) }))
        }
        // A one ↔ one target moving between rows: its old holder lets go first, so the unique
        // link column never holds it twice on the way.
        handOver.steps.append(.statements(updates.flatMap { rows, _ in releaseSQL(rows.plan).map { PostgresStatement($0) } }))
        for (rows, ids) in inserts {
            handOver.steps.append(.copy(
                table: rows.plan.spec.table, columns: insertColumns(rows.plan),
                rows: ids.map { insertValues(rows.plan, id: $0, rows.rows[$0]!) }))
        }
        let linkColumns = [PostgresCopyColumn("source", .int8), PostgresCopyColumn("target", .int8), PostgresCopyColumn("position", .int8)]
        for (table, sources) in lists {
            // A distributed source's links carry its tenant, read from the cached source row.
            let owners = cache.rows(table.source)
            let tenantSlot = table.source.tenantSlot
            let tenantColumn = tenantSlot.map { [PostgresCopyColumn(table.source.spec.attributes[$0].name, Self.columnType(table.source.spec.attributes[$0].type))] } ?? []
            var links: [[StoredValue]] = []
            for source in sources {
                let list = table.lists[source]!
                let tenant = tenantSlot.map { [owners.rows[source]?.values[$0] ?? .null] } ?? []
                for (target, position) in zip(list.targets, list.positions) {
                    links.append(tenant + [.integer(source), .integer(target), .integer(position)])
                }
            }
            if !links.isEmpty { handOver.steps.append(.copy(table: table.name, columns: tenantColumn + linkColumns, rows: links)) }
        }
        handOver.steps.append(.statements(updates.map { rows, _ in PostgresStatement(mergeSQL(rows.plan)) }))

        for (rows, ids) in inserts + updates {
            for id in ids { cache.markHandedOver(rows, id) }
        }
        for (table, sources) in lists {
            for source in sources { cache.markHandedOver(table, source) }
        }
        return handOver
    }

    /// Runs the steps of `handOver` on the connection.
    func send(_ handOver: HandOver) throws(StoreError) {
        for step in handOver.steps {
            switch step {
            case .statements(let statements):
                try pipeline(statements)
            case .copy(let table, let columns, let rows):
                try copy(into: table, columns: columns) { (writer) throws(StoreError) in
                    for row in rows { try writer.appendRow(row) }
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

    // MARK: Columns

    static func columnType(_ type: AttributeType) -> PostgresColumnType {
        switch type {
        case .scalar(.int): return .int8
        case .scalar(.double): return .float8
        case .scalar(.bool): return .bool
        case .scalar(.date): return .timestamptz
        case .scalar(.uuid): return .uuid
        default: return .text
        }
    }

    /// The staging table of `entity`'s changed rows, one per transaction.
    static func stageName(_ entity: EntityPlan) -> String { "_jsonimport_stage_" + entity.spec.table }

    /// The columns a new row is written with: its row id (unless it is the key), attributes,
    /// link columns, bookkeeping timestamps and stub mark.
    func insertColumns(_ entity: EntityPlan) -> [PostgresCopyColumn] {
        var columns = stageColumns(entity)
        if entity.spec.hasTimestamps {
            columns.insert(contentsOf: ["_created_at", "_updated_at", "_seen_at"].map { PostgresCopyColumn($0, .timestamptz) },
                at: columns.count - (entity.spec.isOwned ? 0 : 1))
        }
        return columns
    }

    func insertValues(_ entity: EntityPlan, id: Int64, _ row: PostgresRowCache.Row) -> [StoredValue] {
        var values = stageValues(entity, id: id, row)
        if entity.spec.hasTimestamps {
            values.insert(contentsOf: Array(repeating: .real(row.insertedAt), count: 3), at: values.count - (entity.spec.isOwned ? 0 : 1))
        }
        return values
    }

    /// The `INSERT` of one new row, with the values of `insertValues`.
    func insertSQL(_ entity: EntityPlan) -> String {
        let columns = insertColumns(entity)
        return "INSERT INTO \(entity.table) (\(columns.map { quote($0.name) }.joined(separator: ", "))) VALUES ("
            + columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ") + ")"
    }

    /// The columns a changed row is staged with: row id (unless it is the key), attributes,
    /// link columns and stub mark.
    private func stageColumns(_ entity: EntityPlan) -> [PostgresCopyColumn] {
        var columns: [PostgresCopyColumn] = entity.keyIsRowID ? [] : [PostgresCopyColumn("_id", .int8)]
        columns += entity.spec.attributes.map { PostgresCopyColumn($0.name, Self.columnType($0.type)) }
        columns += entity.selfColumns.map { PostgresCopyColumn(entity.relationships[$0].columnName!, .int8) }
        if !entity.spec.isOwned { columns.append(PostgresCopyColumn("_stub", .bool)) }
        return columns
    }

    private func stageValues(_ entity: EntityPlan, id: Int64, _ row: PostgresRowCache.Row) -> [StoredValue] {
        var values: [StoredValue] = entity.keyIsRowID ? [] : [.integer(id)]
        values += row.values
        values += row.columns.map { $0.map(StoredValue.integer) ?? .null }
        if !entity.spec.isOwned { values.append(.integer(row.isStub ? 1 : 0)) }
        return values
    }

    /// Per unique link column of `entity`: the `UPDATE` clearing it in the staged rows that
    /// change it.
    private func releaseSQL(_ entity: EntityPlan) -> [String] {
        let stage = quote(Self.stageName(entity))
        return entity.selfColumns.compactMap { r in
            guard case .selfColumn(let name, true) = entity.relationships[r].storage else { return nil }
            let column = quote(name)
            return "UPDATE \(entity.table) AS t SET \(column) = NULL FROM \(stage) AS s "
                + "WHERE t.\(entity.rowID) = s.\(entity.rowID)\(PostgresEngine.tenantJoin(entity.spec, "t", "s")) "
                + "AND t.\(column) IS NOT NULL AND t.\(column) IS DISTINCT FROM s.\(column)"
        }
    }

    /// The `UPDATE` writing the staged rows of `entity` over the table's.
    private func mergeSQL(_ entity: EntityPlan) -> String {
        // A row's tenant never changes: Citus refuses to update a distribution column.
        let keys = Set(entity.keySlots.map { entity.spec.attributes[$0].name } + [entity.spec.tenantAttribute].compactMap { $0 })
        let sets = stageColumns(entity).map(\.name).filter { !keys.contains($0) && $0 != "_id" }
        let stage = quote(Self.stageName(entity))
        return "UPDATE \(entity.table) AS t SET " + sets.map { "\(quote($0)) = s.\(quote($0))" }.joined(separator: ", ")
            + " FROM \(stage) AS s WHERE t.\(entity.rowID) = s.\(entity.rowID)\(PostgresEngine.tenantJoin(entity.spec, "t", "s"))"
    }
}

/// A hand-over running on a worker thread. The connection is the worker's until ``wait()``
/// returns: the row path waits for it before any other use of the connection, and the worker
/// touches nothing else of the row path.
///
/// `@unchecked Sendable`: the semaphore `done` orders it all. The worker writes `error` and
/// uses the connection only before it signals `done`; the row path reads `error` and uses the
/// connection again only after waiting on it.
final class BackgroundHandOver: @unchecked Sendable {
    private unowned let rows: PostgresImportRows
    private let handOver: PostgresImportRows.HandOver
    private let done = DispatchSemaphore(value: 0)
    /// Written by the worker before it signals `done`, read after.
    private var error: StoreError?

    init(rows: PostgresImportRows, handOver: PostgresImportRows.HandOver) {
        self.rows = rows
        self.handOver = handOver
    }

    func start() {
        let thread = Thread { [self] in
            do throws(StoreError) {
                try rows.send(handOver)
            } catch {
                self.error = error
            }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the worker; throws the error the hand-over failed with.
    func wait() throws(StoreError) {
        done.wait()
        if let error { throw error }
    }
}
