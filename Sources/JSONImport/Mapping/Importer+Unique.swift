/// Unique attributes hold when the import ends, not after each record (SPEC 2.3): a value that
/// another row holds when a record is written is written as NULL and kept pending, then set once
/// every record is in, when the rows that swapped or gave up values have done so.
extension Importer {
    /// Where the root record being imported sits in its payload.
    struct RecordPlace {
        /// The payload's position among the import's sources.
        var source = 0
        var file = ""
        var record = 0
        var line: Int?
        /// JSONPath of the root record: `$[17]`, `$`.
        var prefix = "$"
    }

    /// A unique value that row `row` could not take yet.
    struct PendingUnique {
        let sequence: Int
        let value: StoredValue
        /// The record that gave the value, and the JSON path of the attribute in it.
        let place: RecordPlace
        let path: [PathComponent]
        /// The last record that gave the same value to another row after this one was put off.
        var rival: (row: Int64, place: RecordPlace, path: [PathComponent])?
    }

    /// A row's attribute: what a pending value is for.
    struct PendingSlot: Hashable {
        let entity: Int
        let row: Int64
        let slot: Int
    }

    /// After writing `values` to row `row` (`nil`: a new row) failed with `error`: the unique
    /// attributes another row holds now, and `values` with those cleared to write instead.
    /// - Throws: `error` when no held value explains it.
    func heldUniques(
        after error: RecordError, _ entity: EntityPlan, values: [Value?], row: Int64?
    ) throws(RecordError) -> (held: [Int], cleared: [Value?]) {
        let held = entity.uniqueSlots.isEmpty || !error.isConstraint ? [] : try uniqueConflicts(entity, values: values, row: row)
        guard !held.isEmpty else {
            if error.isConstraint, let conflict = try keyPartConflict(entity, values: values, row: row) { throw conflict }
            throw error
        }
        var cleared = values
        for slot in held { cleared[slot] = .null }
        return (held, cleared)
    }

    /// The unique attributes of `values` that a row other than `row` holds now.
    private func uniqueConflicts(_ entity: EntityPlan, values: [Value?], row: Int64?) throws(RecordError) -> [Int] {
        var held: [Int] = []
        for slot in entity.uniqueSlots {
            guard let value = values[slot], !value.isNull else { continue }
            if let holder = try holder(entity, slot: slot, value: value), holder != row { held.append(slot) }
        }
        return held
    }

    /// The error of a `unique` attribute that is part of a composite key, whose value another
    /// row holds: it cannot wait for the end of the import as other unique values do (a key is
    /// never `null`), so the record fails, in the same words on every store.
    private func keyPartConflict(_ entity: EntityPlan, values: [Value?], row: Int64?) throws(RecordError) -> RecordError? {
        guard entity.keySlots.count > 1 else { return nil }
        for slot in entity.keySlots where entity.attributes[slot].spec.isUnique {
            guard let value = values[slot], !value.isNull, let holder = try holder(entity, slot: slot, value: value), holder != row
            else { continue }
            let attribute = entity.attributes[slot]
            return fail(
                "'\(attribute.spec.name)' must be unique: \(value.stored.shown) (key '\(attribute.spec.key)') is also held by \(try describe(entity, row: holder))",
                key: attribute)
        }
        return nil
    }

    /// The row holding `value` in unique attribute `slot`, if any.
    private func holder(_ entity: EntityPlan, slot: Int, value: Value) throws(RecordError) -> Int64? {
        try store { () throws(StoreError) in try rows.holder(entity, slot: slot, value: value) }
    }

    /// Puts off the values of `slots` that row `row` is to take.
    func deferUnique(_ entity: EntityPlan, row: Int64, slots: [Int], values: [Value?]) {
        for slot in slots {
            pendingSequence += 1
            pendingUniques[PendingSlot(entity: entity.index, row: row, slot: slot)] = PendingUnique(
                sequence: pendingSequence, value: values[slot]!.stored, place: recordPlace, path: attributePath(entity, slot))
        }
    }

    /// The JSON path of attribute `slot` in the record being imported.
    private func attributePath(_ entity: EntityPlan, _ slot: Int) -> [PathComponent] {
        path + entity.attributes[slot].spec.key.segments.map(PathComponent.key)
    }

    /// After row `row` was written with `values`: a value written to a pending attribute replaces
    /// the pending one, and a unique value another row waits for makes this record its rival.
    func noteUniqueWrite(_ entity: EntityPlan, row: Int64, values: [Value?]) {
        guard !pendingUniques.isEmpty else { return }
        for slot in entity.uniqueSlots {
            guard let value = values[slot] else { continue }
            pendingUniques[PendingSlot(entity: entity.index, row: row, slot: slot)] = nil
            guard !value.isNull else { continue }
            for waiting in pendingUniques.rows(of: entity.index, slot: slot, waitingFor: value.stored) where waiting != row {
                pendingUniques[PendingSlot(entity: entity.index, row: waiting, slot: slot)]?.rival =
                    (row, recordPlace, attributePath(entity, slot))
            }
        }
    }

    /// Sets every pending value, in the order the records gave them. A value still held by
    /// another row is the error of the later of the two records: the one that gave the value to
    /// its holder when that came after, else the one still waiting for it.
    func settlePendingUniques() throws -> [(place: RecordPlace, issue: ImportIssue)] {
        var issues: [(place: RecordPlace, issue: ImportIssue)] = []
        for (key, pending) in pendingUniques.inOrder {
            let entity = plan.entities[key.entity]
            let value = Value(pending.value)
            // A row deleted since (a cascade, an owned row replaced) waits for nothing.
            guard try !storedValues(entity, row: key.row).isEmpty else { continue }
            if let holder = try holder(entity, slot: key.slot, value: value), holder != key.row {
                issues.append(try conflict(entity, key: key, pending, holder: holder))
                continue
            }
            try store { () throws(StoreError) in try rows.setAttribute(entity, slot: key.slot, of: key.row, to: value) }
        }
        pendingUniques.removeAll()
        return issues
    }

    private func conflict(
        _ entity: EntityPlan, key: PendingSlot, _ pending: PendingUnique, holder: Int64
    ) throws -> (place: RecordPlace, issue: ImportIssue) {
        let attribute = entity.attributes[key.slot].spec
        let (place, path, other) = if let rival = pending.rival, rival.row == holder {
            (rival.place, rival.path, key.row)
        } else {
            (pending.place, pending.path, holder)
        }
        let message = "'\(attribute.name)' must be unique: \(pending.value.shown) (key '\(attribute.key)') is also held by \(try describe(entity, row: other))"
        let issue = ImportIssue(
            file: place.file, record: place.record, path: path.rendered(after: place.prefix), message: message, line: place.line)
        return (place, issue)
    }

    /// `User 7`, `Membership (1, "a")`, or `another Address` for an owned row.
    private func describe(_ entity: EntityPlan, row: Int64) throws(RecordError) -> String {
        guard !entity.keySlots.isEmpty else { return "another \(entity.spec.name)" }
        let values = try storedValues(entity, row: row)
        let key = entity.keySlots.map { values[$0].shown }
        return "\(entity.spec.name) \(key.count == 1 ? key[0] : "(" + key.joined(separator: ", ") + ")")"
    }
}
