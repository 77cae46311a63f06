/// Reading into the cache: one statement per kind of read and table, whatever the number of
/// rows, so that a batch's reads are a few round trips (``prefetch(_:)``) and a
/// read the cache misses is one.
extension PostgresImportRows {
    /// A read of rows into the cache: its statement, how its result decodes, and what to do
    /// with what it decodes to.
    struct Load {
        let statement: PostgresStatement
        let decoding: Decoding
        /// Takes what the read decoded to: its rows and lists are moved into the cache, not
        /// copied (a copy is a retain and a release of each row's arrays).
        let apply: (consuming Decoded) -> Void
        /// The reads that follow from what this one decoded, planned from it alone: a worker
        /// running this read in the background runs them next, in a round trip of its own,
        /// before the row path waits for it (see ``BackgroundHandOver``). The row path, running
        /// this read itself, plans from its cache instead.
        var followUp: ((Decoded) -> [Load])? = nil

        /// Decodes `result` (a checked result: ``PostgresResult/checkReadable(sql:)``). It reads
        /// the result alone, so a worker thread may decode what it read while the row path goes
        /// on (see ``BackgroundHandOver``).
        func decode(_ result: PostgresResult) -> Decoded {
            switch decoding {
            case .rows(let attributes, let links): .rows(PostgresImportRows.decodeRows(result, attributes: attributes, links: links))
            case .lists: .lists(PostgresImportRows.decodeLists(result))
            case .ids: .ids((0..<result.rowCount).map { result.integer(row: $0, column: 0) })
            }
        }
    }

    /// Runs `loads` in one round trip and applies each result as it arrives, while the server
    /// runs the reads after it.
    func run(_ loads: [Load]) throws(StoreError) {
        guard !loads.isEmpty else { return }
        try finishBackgroundHandOver()
        roundTrips += 1
        func apply(_ load: Load, _ result: PostgresResult) throws(StoreError) {
            try result.checkReadable(sql: load.statement.sql)
            load.apply(load.decode(result))
        }
        if loads.count == 1 {
            return try apply(loads[0], try connection.result(loads[0].statement.sql, loads[0].statement.parameters))
        }
        do {
            try connection.pipeline(loads.map(\.statement)) { (index, result) throws(StoreError) in try apply(loads[index], result) }
        } catch {
            throw error.error
        }
    }

    /// Runs `load`, if there is one.
    func run(_ load: Load?) throws(StoreError) {
        if let load { try run([load]) }
    }

    // MARK: Reading what the cache misses

    func load(_ rows: PostgresRowCache.EntityRows, id: Int64) throws(StoreError) {
        guard !rows.holds(id) else { return }
        try run(idLoad(rows, ids: [id]))
    }

    func load(_ rows: PostgresRowCache.EntityRows, keys: [[StoredValue]]) throws(StoreError) {
        try probeEmptiness(rows.plan)
        try run(keyLoad(rows, keys: keys))
    }

    func loadPointing(_ rows: PostgresRowCache.EntityRows, column j: Int, at pointees: [Int64]) throws(StoreError) {
        try run(pointingLoad(rows, column: j, at: pointees))
    }

    func loadLists(_ table: PostgresRowCache.LinkTable, sources: [Int64]) throws(StoreError) {
        try run(listLoad(table, sources: sources))
    }

    func loadLinking(_ table: PostgresRowCache.LinkTable, to targets: [Int64], of entity: EntityPlan) throws(StoreError) {
        try run(linkingLoad(table, to: targets, of: entity))
    }

    // MARK: Loads

    /// Reads the rows `ids` the cache lacks; `nil` when it lacks none. With `owners`, followed by
    /// the owned rows those rows point at (see ``ownedRowsFollowUp(_:owners:)``).
    func idLoad(_ rows: PostgresRowCache.EntityRows, ids: [Int64], owners: RowIDSet? = nil) -> Load? {
        let missing = RowIDSet(ids.filter { !rows.holds($0) })
        guard !missing.isEmpty else { return nil }
        let entity = rows.plan
        let (statement, gap) = idRead(
            selectColumns(entity), from: entity.table, where: entity.rowID, in: missing, tenantOf: entity.spec)
        return Load(
            statement: statement, decoding: Self.rowDecoding(entity),
            apply: { [self] decoded in cacheRows(decoded.rows(), into: rows, gapKey: gap) { id, _ in missing.contains(id) } },
            followUp: owners.flatMap { ownedRowsFollowUp(rows, owners: $0) })
    }

    /// What follows a read of rows of `rows`' entity in the background: the owned rows that
    /// those of them among `owners` point at through their link columns (a user's address), read
    /// by the worker from the rows it decoded rather than by the row path in a round trip of its
    /// own once it has cached them (``columnLoads(_:_:owned:)`` then finds them cached). `nil`
    /// when the entity has no such column, or it or the owned entity is distributed (their
    /// reads name the transaction's tenants). A row the cache holds already stands over the one
    /// read.
    private func ownedRowsFollowUp(_ rows: PostgresRowCache.EntityRows, owners: RowIDSet) -> ((Decoded) -> [Load])? {
        // Planned here, on the row path's thread: the follow-up reads nothing of the row path.
        let reads = ownedColumns(of: rows.plan).map { j, target in
            let gapKey = Self.gapKey(table: target.table, column: target.rowID)
            return (column: j, rows: cache.rows(target), columns: selectColumns(target), gapKey: gapKey,
                gap: readGaps[gapKey] ?? Self.widestGap)
        }
        guard !reads.isEmpty else { return nil }
        return { [self] decoded in
            guard case .rows(let read) = decoded else { return [] }
            return reads.compactMap { owned -> Load? in
                var ids = RowIDSet()
                for row in read where owners.contains(row.id) {
                    if let id = row.columns[owned.column] { ids.insert(id) }
                }
                guard !ids.isEmpty else { return nil }
                let target = owned.rows.plan
                return Load(
                    statement: Self.idRead(owned.columns, from: target.table, where: target.rowID, in: ids, gap: owned.gap),
                    decoding: Self.rowDecoding(target),
                    apply: { [self] decoded in
                        cacheRows(decoded.rows(), into: owned.rows, gapKey: owned.gapKey) { id, _ in ids.contains(id) }
                    })
            }
        }
    }

    /// The link columns of `entity` that point at owned rows (by index among its link columns),
    /// and the owned entities; none when either is distributed.
    func ownedColumns(of entity: EntityPlan) -> [(Int, EntityPlan)] {
        guard entity.tenantSlot == nil else { return [] }
        return entity.selfColumns.enumerated().compactMap { j, r in
            let relationship = entity.relationships[r]
            guard relationship.isTargetOwned, relationship.targetPlan.tenantSlot == nil else { return nil }
            return (j, relationship.targetPlan)
        }
    }

    /// Reads the rows with `keys` (distinct) the cache knows nothing of; those not found are
    /// known absent. In a table that was empty (see ``insertedKeys``), only the keys of rows
    /// the transaction inserted are read; the others are known absent at once.
    /// `owners`: see ``idLoad(_:ids:owners:)``, for keys that are row ids.
    func keyLoad(_ rows: PostgresRowCache.EntityRows, keys: KeyList, owners: RowIDSet? = nil) -> Load? {
        switch keys {
        case .ids(let ids): return keyLoad(rows, ids: ids, owners: owners)
        case .keys(let keys): return keyLoad(rows, keys: keys)
        }
    }

    /// ``keyLoad(_:keys:owners:)`` of keys that are row ids: by id, as ``idLoad(_:ids:owners:)``
    /// reads.
    private func keyLoad(_ rows: PostgresRowCache.EntityRows, ids: [Int64], owners: RowIDSet?) -> Load? {
        var unknown: [Int64] = []
        for id in ids where !rows.holds(id) && !rows.absentIDs.contains(id) && rows.serverHolds(id) != false {
            if namesNoRow([.integer(id)], of: rows.plan) { cache.setAbsent(rows, [.integer(id)], true) } else { unknown.append(id) }
        }
        guard let load = idLoad(rows, ids: unknown, owners: owners) else { return nil }
        return Load(
            statement: load.statement, decoding: load.decoding,
            apply: { [cache] decoded in
                load.apply(consume decoded)
                for id in unknown where !rows.holds(id) { cache.setAbsent(rows, [.integer(id)], true) }
            },
            followUp: load.followUp)
    }

    private func keyLoad(_ rows: PostgresRowCache.EntityRows, keys: [[StoredValue]]) -> Load? {
        var unknown: [[StoredValue]] = []
        for key in keys where rows.row(forKey: key) == nil && !rows.isAbsent(key) {
            if namesNoRow(key, of: rows.plan) { cache.setAbsent(rows, key, true) } else { unknown.append(key) }
        }
        guard !unknown.isEmpty else { return nil }
        let entity = rows.plan
        // A key names its tenant: the transaction's tenants are those of the keys it looks up.
        if let slot = entity.tenantSlot, let position = entity.keySlots.firstIndex(of: slot) {
            for key in unknown { tenants.insert(key[position]) }
        }
        let (condition, parameters) = PostgresEngine.keyCondition(entity, keys: unknown)
        return Load(
            statement: PostgresStatement(
                PostgresSQL.numbered("SELECT \(selectColumns(entity)) FROM \(entity.table) AS r WHERE \(condition)"), parameters),
            decoding: Self.rowDecoding(entity),
            apply: { [cache] decoded in
                Self.cacheRows(decoded.rows(), into: rows, cache)
                for key in unknown where rows.row(forKey: key) == nil { cache.setAbsent(rows, key, true) }
            })
    }

    /// Reads the id of every row of `rows`' entity (whose key is the row id), up to `limit`:
    /// when the server holds no more, the cache knows from then on which keys name a row
    /// without reading them (``PostgresRowCache/EntityRows/serverIDs``). A table the server's
    /// statistics count more rows in is not read: the read returns one NULL instead. A read
    /// the cache stopped trusting since it was planned (a deletion, a rollback to a savepoint)
    /// is dropped.
    func serverIDsLoad(_ rows: PostgresRowCache.EntityRows, limit: Int) -> Load {
        let entity = rows.plan
        let epoch = rows.serverIDsEpoch
        return Load(
            statement: PostgresStatement(
                "WITH f AS (SELECT coalesce((SELECT c.reltuples FROM pg_class AS c WHERE c.oid = to_regclass($2::text)), -1) "
                    + "<= $1::int8 AS fits) "
                    + "(SELECT r.\(entity.rowID) FROM \(entity.table) AS r, f WHERE f.fits LIMIT $1::int8 + 1) "
                    + "UNION ALL SELECT NULL FROM f WHERE NOT f.fits",
                [.integer(Int64(limit)), .text(entity.table)]),
            decoding: .ids,
            apply: { [self] decoded in
                let ids = decoded.ids()
                guard ids.count <= limit, rows.serverIDsEpoch == epoch else { return }
                var held = RowIDSet(minimumCapacity: ids.count)
                for id in ids {
                    guard let id else { return }
                    held.insert(id)
                }
                rows.serverIDs = held
                serverIDsTaken += 1
            })
    }

    /// Reads the rows whose link column `j` points at one of `pointees`, unless the cache has
    /// every such row already; each pointee is then complete.
    func pointingLoad(_ rows: PostgresRowCache.EntityRows, column j: Int, at pointees: [Int64]) -> Load? {
        let entity = rows.plan
        let relationship = entity.relationships[entity.selfColumns[j]]
        let pointed = cache.rows(relationship.targetPlan)
        var needed = RowIDSet(minimumCapacity: pointees.count)
        for pointee in pointees where !rows.completePointees[j].contains(pointee) {
            // A row the server has never held has nothing pointing at it there.
            if pointed.rows.read(pointee, { $0.isStored }) == false {
                cache.markComplete(rows, column: j, pointee: pointee)
            } else {
                needed.insert(pointee)
            }
        }
        guard !needed.isEmpty else { return nil }
        let (statement, gap) = idRead(
            selectColumns(entity), from: entity.table, where: quote(relationship.columnName!), in: needed, tenantOf: entity.spec)
        return Load(
            statement: statement, decoding: Self.rowDecoding(entity),
            apply: { [self] decoded in
                cacheRows(decoded.rows(), into: rows, gapKey: gap) { _, columns in columns[j].map(needed.contains) == true }
                for pointee in needed { cache.markComplete(rows, column: j, pointee: pointee) }
            })
    }

    /// Reads the links of the `sources` whose lists the cache lacks.
    func listLoad(_ table: PostgresRowCache.LinkTable, sources: [Int64]) -> Load? {
        let owners = cache.rows(table.source)
        var needed = RowIDSet(minimumCapacity: sources.count)
        for source in sources where !table.holds(source) {
            if owners.rows.read(source, { $0.isStored }) == false {
                cache.setList(table, source, PostgresRowCache.LinkList(isStored: false))
            } else {
                needed.insert(source)
            }
        }
        guard !needed.isEmpty else { return nil }
        let (statement, gap) = idRead(
            "r.\"source\", r.\"target\", r.\"position\"", from: quote(table.name), where: "\"source\"", in: needed,
            tenantOf: table.source.spec)
        return Load(
            statement: statement, decoding: .lists,
            apply: { [self] decoded in
                let lists = decoded.lists()
                let count = lists.count
                let kept = Self.cacheLists(lists, of: needed, into: table, cache)
                adjust(gap, kept: kept, wasted: count - kept)
            })
    }

    /// Reads the whole lists of the sources linking to one of `targets` (rows of `entity`),
    /// unless the cache has every such list; each target is then complete.
    func linkingLoad(_ table: PostgresRowCache.LinkTable, to targets: [Int64], of entity: EntityPlan) -> Load? {
        let linked = cache.rows(entity)
        var needed = RowIDSet(minimumCapacity: targets.count)
        for target in targets where !table.completeTargets.contains(target) {
            if linked.rows.read(target, { $0.isStored }) == false {
                cache.markComplete(table, target: target)
            } else {
                needed.insert(target)
            }
        }
        guard !needed.isEmpty else { return nil }
        let name = quote(table.name)
        let tenant = engine.tenantFilter(table.source.spec, alias: nil, parameter: 2)
        return Load(
            statement: PostgresStatement(
                "SELECT \"source\", \"target\", \"position\" FROM \(name) WHERE \"source\" IN "
                    + "(SELECT \"source\" FROM \(name) WHERE \"target\" = ANY($1::int8[])\(tenant.sql))\(tenant.sql)",
                [PostgresEngine.array(needed)] + tenant.parameters),
            decoding: .lists,
            apply: { [cache] decoded in
                Self.cacheLists(decoded.lists(), of: nil, into: table, cache)
                for target in needed { cache.markComplete(table, target: target) }
            })
    }

    // MARK: Caching what was read

    /// Caches the rows read the cache does not hold (a row the cache holds stands: see
    /// ``PostgresRowCache/cacheStored(_:_:values:columns:isStub:)``). Each row is moved out of
    /// `read` into the cache, last first: the rows' order does not matter to the cache.
    private static func cacheRows(_ read: consuming [DecodedRow], into rows: PostgresRowCache.EntityRows, _ cache: PostgresRowCache) {
        while let (id, values, columns, isStub) = read.popLast() {
            cache.cacheStored(rows, id, values: values, columns: columns, isStub: isStub)
        }
    }

    /// Caches the rows of a read by ranges of ids (``idRead(_:from:where:in:tenantOf:)``)
    /// that were asked for (by id and link columns), as ``cacheRows(_:into:_:)`` does, passing
    /// over the others, and adjusts the gap of the read's ranges by how many it passed over.
    private func cacheRows(
        _ read: consuming [DecodedRow], into rows: PostgresRowCache.EntityRows, gapKey: String,
        where isAsked: (Int64, [Int64?]) -> Bool
    ) {
        let count = read.count
        var kept = 0
        while let (id, values, columns, isStub) = read.popLast() {
            guard isAsked(id, columns) else { continue }
            cache.cacheStored(rows, id, values: values, columns: columns, isStub: isStub)
            kept += 1
        }
        adjust(gapKey, kept: kept, wasted: count - kept)
    }

    /// Caches the lists read, each moved out of `lists`: of `sources` only, when given (a read
    /// by ranges passes over the others), a source of them without links with an empty list.
    /// Lists the cache has already stand. Returns how many of `lists` are of `sources`.
    @discardableResult
    private static func cacheLists(
        _ lists: consuming [(source: Int64, list: PostgresRowCache.LinkList)], of sources: RowIDSet?,
        into table: PostgresRowCache.LinkTable, _ cache: PostgresRowCache
    ) -> Int {
        // Each source comes once (``decodeLists(_:)``); which came is asked only of `sources`.
        guard let sources else {
            let found = lists.count
            while let (source, list) = lists.popLast() {
                if !table.holds(source) { cache.setList(table, source, list) }
            }
            return found
        }
        var sourcesFound = RowIDSet(minimumCapacity: lists.count)
        while let (source, list) = lists.popLast() {
            guard sources.contains(source) else { continue }
            sourcesFound.insert(source)
            if !table.holds(source) { cache.setList(table, source, list) }
        }
        for source in sources where !sourcesFound.contains(source) && !table.holds(source) {
            cache.setList(table, source, PostgresRowCache.LinkList(isStored: false))
        }
        return sourcesFound.count
    }
}
