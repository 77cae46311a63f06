/// Payloads a feed hands over that the store holds already (an HTTP `304`, SPEC 7).
extension ImportRun {
    /// Counts the records of an ``FeedPayload/unchanged(keys:)`` payload as read again:
    /// each stored row (stubs aside) with one of its keys is seen, unchanged unless this import
    /// changed it otherwise, so its `seenAt` advances and prune keeps it; so are the rows of
    /// other entities its forward relationships lead to, as the records nested in it would be.
    /// A key whose row is gone since finds nothing.
    func readAgain(_ payload: FeedPayload, _ importer: Importer, into report: inout ImportReport, meter: inout ProgressMeter?) throws {
        guard case .unchanged(let keys) = payload else { return }
        report.records += keys.count
        defer { meter?.finish(nil, records: report.records) }
        // A feed's payloads are records of one entity (a fetch takes no union or document).
        guard let entity = target.roots.first?.entity, !keys.isEmpty, !entity.spec.isOwned else { return }
        var selection = RecordReader.Selection(ids: keys)
        selection.excludesStubs = true
        let rows = try store.engine.rowIDs(entity, selection, plan: store.plan)
        for row in rows { importer.tracker.touch(entity.index, row, .unchanged, seen: true) }
        // A distributed entity's key holds its tenant: the records name it as they did.
        if let slot = entity.tenantSlot, let position = entity.keySlots.firstIndex(of: slot) {
            for key in keys where position < key.count { importer.rootTenants.insert(key[position]) }
        }
        try seeLinkedRows(from: rows, of: entity, importer)
        guard keepsRootRows else { return }
        // In payload order, as the records were read the first time.
        let rowsByKey = Dictionary(try store.engine.keyValues(of: entity, rows: rows).map { ($1, $0) }) { first, _ in first }
        importer.rootRows += keys.compactMap { rowsByKey[$0] }
    }

    /// Marks seen, unchanged, every row of another entity than the root one that a forward
    /// relationship leads to from `rows`, and from those rows on.
    private func seeLinkedRows(from rows: [Int64], of entity: EntityPlan, _ importer: Importer) throws {
        var seen = Array(repeating: Set<Int64>(), count: store.plan.entities.count)
        var pending: [(entity: EntityPlan, rows: [Int64])] = [(entity, rows)]
        while let (source, rows) = pending.popLast() {
            for relationship in source.relationships where relationship.spec.isForward && relationship.target != entity.index {
                let target = store.plan.entities[relationship.target]
                var reached: [Int64] = []
                try store.engine.forEachLink(relationship, of: source, rows: rows, plan: store.plan) { _, row in
                    guard seen[target.index].insert(row).inserted else { return }
                    importer.tracker.touch(target.index, row, .unchanged, seen: true)
                    reached.append(row)
                }
                if !reached.isEmpty { pending.append((target, reached)) }
            }
        }
    }
}
