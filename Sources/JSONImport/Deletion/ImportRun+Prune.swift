/// The deletions at the end of an import (SPEC 2.3): prune (sync mode), then the clean-up pass.
extension ImportRun {
    /// Prunes when asked, then runs the clean-up pass when it is on and something may have
    /// become an orphan (see ``Store/cleanUp(isOn:mayHaveOrphans:deleter:tracker:)``).
    ///
    /// - Parameters:
    ///   - pruning: the root entities to prune: those of the roots some payload held.
    ///   - scopes: per root entity (by index), the rows `--prune-scope` lets prune delete.
    ///   - skippedKeys: primary keys of the root records skipped under `onError: skip`; prune
    ///     keeps their rows.
    /// - Returns: the deleted rows that existed before the import (keys read with `explain`).
    func deleteAfterRecords(
        _ importer: Importer, pruning: [EntityPlan], scopes: [Int: CompiledQuery] = [:],
        skippedKeys: [(entity: EntityPlan, key: [StoredValue])]
    ) throws -> [Deletion] {
        let deleter = Deleter(store: store)
        deleter.engine.keepToNamedTenants()
        deleter.readsKeys = options.explain || store.writeState.collectsChanges
        var deletions: [Deletion] = []
        var mayHaveOrphans = importer.tracker.mayHaveOrphans
        if !importer.tombstoned.isEmpty {
            let outcome = try deleteTombstoned(deleter, importer)
            deletions += outcome.deletions
            if outcome.deleted > 0 { mayHaveOrphans = true }
        }
        if options.prune {
            try deleter.reset()
            for entity in pruning {
                try markPruned(
                    entity, deleter, importer, scope: scopes[entity.index],
                    skippedKeys: skippedKeys.filter { $0.entity === entity }.map(\.key))
            }
            let outcome = try deleter.apply(.prune, tracker: importer.tracker)
            deletions += outcome.deletions
            if outcome.deleted > 0 { mayHaveOrphans = true }
        }
        deletions += try store.cleanUp(
            isOn: options.cleanup, mayHaveOrphans: mayHaveOrphans, deleter: deleter, tracker: importer.tracker)
        return deletions
    }

    /// Deletes the rows tombstones named (SPEC 2.2 step 0), with their `onDelete` rules.
    private func deleteTombstoned(_ deleter: Deleter, _ importer: Importer) throws -> Deleter.Outcome {
        try deleter.reset()
        for (index, rows) in importer.tombstoned.sets.sorted(by: { $0.key < $1.key }) where !rows.isEmpty {
            try deleter.engine.resetKept()
            try deleter.engine.keep(rows: rows.sorted())
            try deleter.mark(store.plan.entities[index], .kept)
        }
        return try deleter.apply(.tombstone, tracker: importer.tracker)
    }

    /// Marks the rows of root entity `entity` that this import neither contained a record for
    /// (at any depth) nor created, except those whose key is in a skipped record, and within
    /// `scope` when one is given. A distributed root entity is pruned in the tenants its root
    /// records name only (SPEC 6).
    private func markPruned(
        _ entity: EntityPlan, _ deleter: Deleter, _ importer: Importer, scope: CompiledQuery?, skippedKeys: [[StoredValue]]
    ) throws {
        let engine = deleter.engine
        try engine.resetKept()
        try importer.tracker.rows(of: entity.index, where: { status, seen in seen || status == .inserted }) { (rows) throws(StoreError) in
            try engine.keep(rows: rows)
        }
        for key in skippedKeys where !entity.spec.isOwned {
            try engine.keep(entity, key: key)
        }
        // A stale record names its row, which stays as it is.
        if let rows = importer.staleRows[entity.index] { try engine.keep(rows: rows.sorted()) }
        let tenants = entity.tenantSlot.map { _ in importer.rootTenants.sorted { $0.shown < $1.shown } }
        try deleter.mark(entity, .notKept(tenants: tenants, within: scope))
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
