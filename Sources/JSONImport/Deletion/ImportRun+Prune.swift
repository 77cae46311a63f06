/// The deletions at the end of an import (SPEC 2.3): prune (sync mode), then the clean-up pass.
extension ImportRun {
    /// Prunes when asked, then runs the clean-up pass when it is on and something may have
    /// become an orphan (see ``Store/cleanUp(isOn:mayHaveOrphans:deleter:tracker:)``).
    ///
    /// - Parameter skippedKeys: primary keys of the root records skipped under `onError: skip`;
    ///   prune keeps their rows.
    /// - Returns: the deleted rows that existed before the import (keys read with `explain`).
    func deleteAfterRecords(_ importer: Importer, skippedKeys: [[StoredValue]]) throws -> [Deletion] {
        let deleter = Deleter(store: store)
        deleter.readsKeys = options.explain || store.writeState.collectsChanges
        var deletions: [Deletion] = []
        var mayHaveOrphans = importer.tracker.mayHaveOrphans
        if options.prune {
            try deleter.reset()
            try markPruned(deleter, importer, skippedKeys: skippedKeys)
            let outcome = try deleter.apply(.prune, tracker: importer.tracker)
            deletions += outcome.deletions
            if outcome.deleted > 0 { mayHaveOrphans = true }
        }
        deletions += try store.cleanUp(
            isOn: options.cleanup, mayHaveOrphans: mayHaveOrphans, deleter: deleter, tracker: importer.tracker)
        return deletions
    }

    /// Marks the root entity's rows that this import neither contained a record for (at any
    /// depth) nor created, except those whose key is in a skipped record. A distributed root
    /// entity is pruned in the tenants its root records name only (SPEC 6).
    private func markPruned(_ deleter: Deleter, _ importer: Importer, skippedKeys: [[StoredValue]]) throws {
        let engine = deleter.engine
        try engine.resetKept()
        try importer.tracker.rows(of: entity.index, where: { status, seen in seen || status == .inserted }) { (rows) throws(StoreError) in
            try engine.keep(rows: rows)
        }
        for key in skippedKeys where !entity.spec.isOwned {
            try engine.keep(entity, key: key)
        }
        let tenants = entity.tenantSlot.map { _ in importer.rootTenants.sorted { $0.shown < $1.shown } }
        try deleter.mark(entity, .notKept(tenants: tenants, within: try pruneScope()))
    }

    /// The query of the root entity's rows ``ImportOptions/pruneScope`` selects, as the store
    /// runs it when prune marks them; `nil` without a scope.
    ///
    /// - Throws: ``ImportError`` `usage` for a scope without prune; ``QueryError`` for a
    ///   malformed filter or a name the entity does not have.
    func pruneScope() throws -> CompiledQuery? {
        guard let text = options.pruneScope else { return nil }
        guard options.prune else {
            throw ImportError(code: .usage, message: "a prune scope applies only with prune", report: ImportReport(entity: entity.spec.name))
        }
        var selection = RecordReader.Selection()
        do {
            selection.filter = try FilterParser.parse(text)
            return try store.reader.compiledQuery(entity, selection)
        } catch let error as FilterError {
            throw QueryError(error)
        }
    }
}

extension Importer {
    /// The primary key of a root record, read the way an import reads it; `nil` when the record
    /// has no valid key (or the entity has none).
    func rootKey(of json: JSONValue, _ entity: EntityPlan) -> [StoredValue]? {
        guard !entity.spec.isOwned, json.kind == .object else { return nil }
        var key: [StoredValue] = []
        for slot in entity.keySlots {
            let attribute = entity.attributes[slot]
            guard case .value(let found) = lookup(json, attribute.path),
                let value = try? convert(found, attribute), !value.isNull
            else { return nil }
            key.append(value.stored)
        }
        return key
    }
}
