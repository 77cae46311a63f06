/// Links: the link lists and link columns the importer reads and changes, in the cache.
extension PostgresImportRows {
    func linkedRows(_ relationship: RelationshipPlan, of row: Int64) throws(StoreError) -> [Int64] {
        switch relationship.storage {
        case .selfColumn:
            preconditionFailure("links in the row's own column are read with the row")
        case .otherColumn(let column):
            let target = cache.rows(relationship.targetPlan)
            let j = try columnIndex(relationship.targetPlan, column)
            // Most are complete already (read ahead): no load is made up to find that out.
            if !target.completePointees[j].contains(row) { try loadPointing(target, column: j, at: [row]) }
            return target.rows(pointingAt: row, column: j)
        case .linkTable(_, true):
            let table = cache.table(relationship)
            if let targets = table.lists.read(row, { $0.targets }) { return targets }
            try loadLists(table, sources: [row])
            return table.lists.read(row) { $0.targets }!
        case .linkTable(_, false):
            let table = cache.table(relationship)
            if !table.completeTargets.contains(row) { try loadLinking(table, to: [row], of: relationship.entity) }
            return cache.sources(table, linkingTo: row).sorted()
        }
    }

    func releaseTarget(_ relationship: RelationshipPlan, _ target: Int64, except row: Int64?) throws(StoreError) -> [Int64] {
        guard case .selfColumn(let column, _) = relationship.storage else { return [] }
        let entity = relationship.entity
        let rows = cache.rows(entity)
        let j = try columnIndex(entity, column)
        try loadPointing(rows, column: j, at: [target])
        let released = rows.rows(pointingAt: target, column: j).filter { $0 != row }
        for other in released {
            try change(entity, other) { (cached) throws(StoreError) in cached.columns[j] = nil } writingAtOnce: { () throws(StoreError) in
                try connection.run("UPDATE \(entity.table) SET \(quote(column)) = NULL WHERE \(entity.rowID) = $1", [.integer(other)])
            }
        }
        return released
    }

    func linkingRow(_ relationship: RelationshipPlan, ofTarget target: Int64) throws(StoreError) -> Int64? {
        guard case .otherColumn(let column) = relationship.storage else { return nil }
        let rows = cache.rows(relationship.targetPlan)
        try load(rows, id: target)
        let j = try columnIndex(relationship.targetPlan, column)
        return rows.rows.read(target) { $0.columns[j] } ?? nil
    }

    func setLinkingRow(_ relationship: RelationshipPlan, ofTarget target: Int64, to row: Int64?) throws(StoreError) {
        guard case .otherColumn(let column) = relationship.storage else { return }
        let entity = relationship.targetPlan
        let j = try columnIndex(entity, column)
        try change(entity, target) { (cached) throws(StoreError) in cached.columns[j] = row } writingAtOnce: { () throws(StoreError) in
            try connection.run(
                "UPDATE \(entity.table) SET \(quote(column)) = $1 WHERE \(entity.rowID) = $2",
                [row.map(StoredValue.integer) ?? .null, .integer(target)])
        }
    }

    func nextPosition(_ relationship: RelationshipPlan, source: Int64) throws(StoreError) -> Int64 {
        let table = cache.table(relationship)
        try loadLists(table, sources: [source])
        return table.lists.read(source) { $0.nextPosition }!
    }

    func insertLink(_ relationship: RelationshipPlan, source: Int64, target: Int64, position: Int64) throws(StoreError) {
        try changeList(relationship, source) { list in
            list.insert(target, at: position)
            return 1
        }
    }

    /// One change of the source's list for all its new links.
    func insertLinks(_ relationship: RelationshipPlan, source: Int64, targets: [Int64], from position: Int64) throws(StoreError) {
        guard !targets.isEmpty else { return }
        try changeList(relationship, source) { list in
            list.insert(contentsOf: targets, at: position)
            return targets.count
        }
    }

    func deleteLinks(_ relationship: RelationshipPlan, source: Int64) throws(StoreError) {
        try changeList(relationship, source) { list in list.removeAll() }
    }

    func deleteLink(_ relationship: RelationshipPlan, source: Int64, target: Int64) throws(StoreError) {
        try changeList(relationship, source) { list in list.remove(target) }
    }

    /// Changes the cached links of `source` with `body`, which returns how many links it added
    /// or removed.
    private func changeList(
        _ relationship: RelationshipPlan, _ source: Int64, _ body: (inout PostgresRowCache.LinkList) -> Int
    ) throws(StoreError) {
        let table = cache.table(relationship)
        if !table.holds(source) {
            // The server has no links of a row it lacks: its list is made here, at once.
            if cache.rows(table.source).rows.read(source, { $0.isStored }) == false {
                var list = PostgresRowCache.LinkList(isStored: false)
                let changed = body(&list)
                list.isDirty = changed != 0
                cache.setList(table, source, consume list)
                changeCount += changed
                return
            }
            try loadLists(table, sources: [source])
        }
        changeCount += cache.changeList(table, source, body)
    }

    // MARK: Link table indexes

    /// Not probed: a link table's emptiness only decides whether its index is set aside, and
    /// here it stays (below).
    func isEmpty(linkTable table: String) throws(StoreError) -> Bool { false }

    /// The index stays: PostgreSQL builds no index per statement the way a bulk of SQLite
    /// inserts into a fresh table pays for one.
    func setAsideTargetIndex(ofLinkTable table: String) throws(StoreError) -> Bool { false }

    func restoreTargetIndex(ofLinkTable table: String) throws(StoreError) {}
}
