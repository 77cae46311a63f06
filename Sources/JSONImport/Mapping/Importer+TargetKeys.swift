/// References that match a `unique` attribute of the target (`targetKey`, SPEC 1.3): found
/// when the record is read, or looked up again once every record is in, so that order within
/// one import does not matter.
extension Importer {
    /// A reference whose target was not there when its record was read.
    struct PendingReference {
        let relationship: RelationshipPlan
        let value: StoredValue
        /// The record (by ``referenceOwner``) whose row links; its row once that is known.
        let owner: Int
        var row: Int64?
        let place: RecordPlace
        let path: [PathComponent]
    }

    /// The row of `target` whose attribute `slot` holds the value the reference gives (`json`
    /// itself, or that attribute of a `keyObject`); `nil` when none does yet, the reference
    /// then waiting for the end of the import.
    func reference(
        byAttribute slot: Int, _ json: JSONValue, _ relationship: RelationshipPlan, target: EntityPlan
    ) throws(RecordError) -> Int64? {
        let attribute = target.attributes[slot]
        var given = json
        if json.kind == .object {
            guard case .value(let found) = lookup(json, attribute.path) else {
                throw fail("missing key '\(attribute.spec.name)' (key '\(attribute.spec.key)') of \(target.spec.name)", key: attribute)
            }
            given = found
        }
        let value = try convert(given, attribute)
        guard !value.isNull else { throw fail("a key of \(target.spec.name) cannot be null") }
        if let row = try store({ () throws(StoreError) in try rows.holder(target, slot: slot, value: value) }) { return row }
        pendingReferences.append(PendingReference(
            relationship: relationship, value: value.stored, owner: referenceOwner, row: nil, place: recordPlace, path: path))
        return nil
    }

    /// Gives the references that record `owner` left waiting (from index `start` on) its row.
    func ownPendingReferences(_ owner: Int, from start: Int, row: Int64) {
        for i in start..<pendingReferences.count where pendingReferences[i].owner == owner {
            pendingReferences[i].row = row
        }
    }

    /// Links every waiting reference whose target is there now. One still missing is a skipped
    /// link under `missing: skip`, else the error of the record that gave it.
    func settlePendingReferences() throws -> [(place: RecordPlace, issue: ImportIssue)] {
        var issues: [(place: RecordPlace, issue: ImportIssue)] = []
        for pending in pendingReferences {
            guard let row = pending.row else { continue }
            let relationship = pending.relationship
            let (entity, target) = (relationship.entity, relationship.targetPlan)
            // A row deleted since (a cascade, an owned row replaced) links to nothing.
            guard try !storedValues(entity, row: row).isEmpty else { continue }
            let value = Value(pending.value)
            let slot = relationship.targetKeySlot!
            guard let found = try store({ () throws(StoreError) in try rows.holder(target, slot: slot, value: value) }) else {
                switch relationship.spec.missing {
                case .skip, .stub:
                    countSkippedLink(relationship, of: entity)
                case .error:
                    let message = "no \(target.spec.name) with \(relationship.spec.targetKey!) \(pending.value.shown) (missing: error)"
                    issues.append((pending.place, ImportIssue(
                        file: pending.place.file, record: pending.place.record,
                        path: pending.path.rendered(after: pending.place.prefix), message: message, line: pending.place.line)))
                }
                continue
            }
            try link(row, of: entity, to: found, by: relationship)
        }
        pendingReferences.removeAll()
        return issues
    }

    /// Adds the link from `row` to `target` a waiting reference names, after the links the
    /// record gave.
    private func link(_ row: Int64, of entity: EntityPlan, to target: Int64, by relationship: RelationshipPlan) throws {
        let current: [Int64]
        switch relationship.storage {
        case .selfColumn(let column, _):
            let j = entity.selfColumns.firstIndex { entity.relationships[$0].columnName == column }!
            var columns = Array(try storedValues(entity, row: row).dropFirst(entity.attributes.count).map { value -> Int64? in
                if case .integer(let id) = value { return id }
                return nil
            })
            let before = columns
            columns[j] = target
            try releaseTakenTargets(entity, row: row, from: before, to: columns)
            var shape = [Bool](filledWith: false, count: entity.attributes.count + columns.count)
            shape[entity.attributes.count + j] = true
            let values = [Value?](filledWith: nil, count: entity.attributes.count)
            try store { () throws(StoreError) in try rows.update(entity, row: row, values: values, columns: columns, setting: shape) }
            try columnLinksChanged(entity, row: row, from: before, to: columns)
            tracker.linkMoved(entity.index, row)
            return
        default:
            current = try currentLinks(relationship, of: entity, row: row)
        }
        guard !current.contains(target) else { return }
        var previous: Int64?
        try store { () throws(StoreError) in
            switch relationship.storage {
            case .selfColumn: break
            case .otherColumn:
                previous = try rows.linkingRow(relationship, ofTarget: target)
                try rows.setLinkingRow(relationship, ofTarget: target, to: row)
            case .linkTable(_, true):
                try rows.insertLink(relationship, source: row, target: target, position: try rows.nextPosition(relationship, source: row))
            case .linkTable(_, false):
                try keepSourceLists(relationship, [target])
                try rows.insertLink(relationship, source: target, target: row, position: try rows.nextPosition(relationship, source: target))
            }
        }
        noteLinkWrite(relationship)
        if case .linkTable(_, true) = relationship.storage {
            tracker.keepList(link: relationship.spec.linkIndex, entity: entity.index, row: row) { current }
        }
        linksMoved(relationship, of: entity, row: row, added: [target])
        pairChanged(relationship, row, target, present: true)
        // A target held in its own column leaves the row that linked it before.
        if let previous {
            tracker.linkMoved(entity.index, previous)
            pairChanged(relationship, previous, target, present: false)
        }
    }
}
