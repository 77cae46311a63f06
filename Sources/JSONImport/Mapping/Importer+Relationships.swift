/// Relationships: nested records, references by key, and link sets (SPEC 2.2 step 3, 1.3).
extension Importer {
    /// The row a relationship value designates: a nested record imported, or a reference by key
    /// resolved (`nil` when the reference is skipped under `missing: skip`).
    func resolve(
        _ json: JSONValue, _ relationship: RelationshipPlan, of entity: EntityPlan, current: Int64?,
        preset: Preset? = nil
    ) throws(RecordError) -> Outcome? {
        let target = plan.entities[relationship.target]
        let isObject = json.kind == .object
        // A row reached through a back side gets no inbound link from it.
        if !relationship.spec.isForward && target.spec.cleanup == .orphans { tracker.mayHaveOrphans = true }
        switch relationship.spec.by {
        case .object where !isObject:
            throw fail("expected object for \(target.spec.name), found \(json.summary)")
        case .id where isObject:
            throw fail("expected a key of \(target.spec.name), found object")
        case .keyObject where !isObject:
            throw fail("expected an object holding the key of \(target.spec.name), found \(json.summary)")
        case .keyObject where relationship.targetKeySlot == nil:
            return try reference(keyObject: json, relationship, of: entity, target: target).map {
                Outcome(row: $0, isNew: false, presetWas: nil)
            }
        default: break
        }
        if let slot = relationship.targetKeySlot, !isObject || relationship.spec.by == .keyObject {
            return try reference(byAttribute: slot, json, relationship, target: target).map {
                Outcome(row: $0, isNew: false, presetWas: nil)
            }
        }
        if isObject {
            return try importRecord(
                json, target, ownedRow: target.spec.isOwned ? current : nil, preset: preset)
        }
        guard !target.spec.isOwned else {
            throw fail("expected object for \(target.spec.name), found \(json.summary)")
        }
        return try reference(json, relationship, of: entity, target: target).map {
            Outcome(row: $0, isNew: false, presetWas: nil)
        }
    }

    /// Resolves a key reference (SPEC 1.3 `missing`).
    private func reference(
        _ json: JSONValue, _ relationship: RelationshipPlan, of entity: EntityPlan, target: EntityPlan
    ) throws(RecordError) -> Int64? {
        try reference(key: try referenceKey(json, target), relationship, of: entity, target: target)
    }

    /// Resolves a reference given as an object of which only the target's key is read
    /// (`by: keyObject`): the target row is found, or handled by `missing`, and never written.
    private func reference(
        keyObject json: JSONValue, _ relationship: RelationshipPlan, of entity: EntityPlan, target: EntityPlan
    ) throws(RecordError) -> Int64? {
        var key: [Value] = []
        for slot in target.keySlots {
            let attribute = target.attributes[slot]
            if slot == target.tenantSlot {
                key.append(try readTenant(json, attribute, of: target))
                continue
            }
            guard case .value(let found) = lookup(json, attribute.path) else {
                throw fail("missing key '\(attribute.spec.name)' (key '\(attribute.spec.key)') of \(target.spec.name)", key: attribute)
            }
            let value = try convert(found, attribute)
            guard !value.isNull else { throw fail("a key of \(target.spec.name) cannot be null", key: attribute) }
            key.append(value)
        }
        return try reference(key: key, relationship, of: entity, target: target)
    }

    /// Resolves the reference to the row of `target` with `key`.
    private func reference(
        key: [Value], _ relationship: RelationshipPlan, of entity: EntityPlan, target: EntityPlan
    ) throws(RecordError) -> Int64? {
        if let row = try storedRow(target, key: key) { return row }
        switch relationship.spec.missing {
        case .stub:
            return try insertStub(target, key: key)
        case .skip:
            countSkippedLink(relationship, of: entity)
            return nil
        case .error:
            let shown = key.map { $0.stored.shown }.joined(separator: ", ")
            throw fail("no \(target.spec.name) with key \(shown) (missing: error)")
        }
    }

    /// The row of `entity` with `key` stored now (written earlier in this import included),
    /// remembered for the next lookup; `nil` when there is none.
    func storedRow(_ entity: EntityPlan, key: [Value]) throws(RecordError) -> Int64? {
        let rowKey = RowKey(key)
        if let row = tracker.identity(entity.index, rowKey) { return row }
        guard !isKnownAbsent(entity, rowKey), let row = try store({ () throws(StoreError) in try rows.rowID(entity, key: key) })
        else { return nil }
        tracker.remember(entity.index, rowKey, row)
        return row
    }

    /// The key values of a reference: a scalar, or an array of values in key order. A
    /// distributed target's key takes the tenant of the record the reference is in.
    private func referenceKey(_ json: JSONValue, _ target: EntityPlan) throws(RecordError) -> [Value] {
        let slots = target.referenceKeySlots
        if slots.count != 1 {
            guard json.kind == .array, json.count == slots.count else {
                throw fail("expected an array of \(slots.count) key values of \(target.spec.name), found \(json.summary)")
            }
        }
        var key: [Value] = []
        key.reserveCapacity(target.keySlots.count)
        // The reference is the key, or an array of its parts, read in turn: no array of them is
        // made for the single key of most references.
        var parts = json.elements.makeIterator()
        for (i, slot) in slots.enumerated() {
            let part = slots.count == 1 ? json : parts.next()!
            // Errors name the value's own path: the reference, or its element for a composite key.
            let at: [PathComponent] = slots.count == 1 ? path : path + [.index(i)]
            let value: Value
            do {
                value = try convert(part, target.attributes[slot])
            } catch {
                throw RecordError(path: at, message: error.message)
            }
            guard !value.isNull else { throw RecordError(path: at, message: "a key of \(target.spec.name) cannot be null") }
            if slot == target.tenantSlot {
                do { try checkTenant(value, of: target, at: nil) } catch { throw RecordError(path: at, message: error.message) }
            }
            key.append(value)
        }
        // A distributed target's key is its tenant, then the key the reference gives.
        if key.count < target.keySlots.count {
            guard let tenant else { throw fail("a reference to \(target.spec.name) needs the tenant of the record it is in") }
            key.insert(Value(tenant), at: 0)
        }
        // A composite key's values make one index entry together.
        if key.count > 1, let message = AttributeValidation.checkIndexedLength(key) { throw fail(message) }
        return key
    }

    /// The link columns of the row, resolved from the record: targets are imported first, so
    /// the row can point at them. Keys the record does not have keep `current`.
    func resolveColumns(
        _ json: JSONValue, _ entity: EntityPlan, preset: Preset?, current: [Int64?]?
    ) throws(RecordError) -> [Int64?] {
        var columns = current ?? Array(filledWith: nil, count: entity.selfColumns.count)
        for (j, r) in entity.selfColumns.enumerated() {
            let relationship = entity.relationships[r]
            // A column set only where it changes: `columns` may share the cached row's array, which
            // a write would copy (a re-import's columns are as they were).
            func set(_ column: Int64?) { if columns[j] != column { columns[j] = column } }
            // The parent's link wins over the record's own (which is still imported).
            let isPreset = preset?.column == j
            switch lookup(json, relationship.path) {
            case .missing: break
            case .null: if !isPreset { set(nil) }
            case .value(let target):
                path.append(.key(relationship.pathLabel))
                // An object of a union that routes to a sibling relationship leaves this one empty.
                let resolved = try routesHere(target, relationship)
                    ? try resolve(target, relationship, of: entity, current: current?[j] ?? nil)?.row : nil
                if !isPreset { set(resolved) }
                path.removeLast()
            }
            if isPreset { set(preset!.row) }
        }
        return columns
    }

    /// The link columns of a row inserted first that turned out stored: those whose key the
    /// record does not have take the stored values, as for a row read before its write.
    func keepUnmentionedColumns(
        _ json: JSONValue, _ entity: EntityPlan, preset: Preset?, stored: [Int64?], into columns: inout [Int64?]
    ) {
        for (j, r) in entity.selfColumns.enumerated() where preset?.column != j {
            if case .missing = lookup(json, entity.relationships[r].path) { columns[j] = stored[j] }
        }
    }

    /// Counts and flags the consequences of a row's link columns changing from `old` (`nil` for
    /// a new row: no links) to `new`; `preset` is the link the row's parent set in its column.
    func columnLinksChanged(
        _ entity: EntityPlan, row: Int64, from old: [Int64?]?, to new: [Int64?], preset: Preset? = nil
    ) throws(RecordError) {
        for (j, r) in entity.selfColumns.enumerated() {
            let was = old?[j] ?? nil
            guard was != new[j] else { continue }
            let relationship = entity.relationships[r]
            // A link set read before nested records may be stale now, unless the change is the
            // parent's own new link (see `setLinks`).
            if was != nil || preset?.column != j { noteLinkWrite(relationship) }
            let target = relationship.target
            if relationship.otherSideReads {
                if let was { tracker.linkMoved(target, was) }
                if let now = new[j] { tracker.linkMoved(target, now) }
            }
            if let was {
                pairChanged(relationship, row, was, present: false)
                noteLostLink(relationship, of: entity, targetRow: was, sourceRow: row)
            }
            if let now = new[j] { pairChanged(relationship, row, now, present: true) }
        }
    }

    /// Notes that a link of `relationship` changed in a way a link set read before may not show.
    func noteLinkWrite(_ relationship: RelationshipPlan) {
        linkWrites += 1
        lastLinkWrite[relationship.spec.linkIndex] = linkWrites
    }

    /// One ↔ one: a target that `row` (`nil` for a row about to be inserted) now links to cannot
    /// stay linked from another row. Those rows lose the link before `row` is written, so the
    /// unique column never holds the target twice.
    func releaseTakenTargets(_ entity: EntityPlan, row: Int64?, from old: [Int64?]?, to new: [Int64?]) throws(RecordError) {
        for (j, r) in entity.selfColumns.enumerated() where old?[j] != new[j] {
            let relationship = entity.relationships[r]
            guard case .selfColumn(_, true) = relationship.storage, let now = new[j] else { continue }
            let others = try store { () throws(StoreError) in try rows.releaseTarget(relationship, now, except: row) }
            if !others.isEmpty { noteLinkWrite(relationship) }
            for other in others {
                tracker.linkMoved(entity.index, other)
                pairChanged(relationship, other, now, present: false)
            }
        }
    }

    /// A link from `sourceRow` to `targetRow` went away: the row it pointed at may be an orphan.
    func noteLostLink(_ relationship: RelationshipPlan, of entity: EntityPlan, targetRow: Int64, sourceRow: Int64) {
        // The row that lost an inbound link is the forward side's target.
        let lost = relationship.spec.isForward ? plan.entities[relationship.target] : entity
        if lost.spec.cleanup == .orphans { tracker.mayHaveOrphans = true }
    }

    // MARK: Link sets

    /// Sets the links of a relationship not stored in the row's own columns, from `json`
    /// (`nil` for JSON `null`). `isNew`: the record inserted the row, and nothing has written
    /// the relationship's link since its relationships began (its list is empty).
    func setLinks(
        _ relationship: RelationshipPlan, of entity: EntityPlan, row: Int64, isNew: Bool, to json: JSONValue?
    ) throws(RecordError) {
        let isAppend = relationship.spec.policy == .append && relationship.spec.kind == .many
        if json == nil && isAppend { return }
        let isMany = relationship.spec.kind == .many
        if let json, isMany, json.kind != .array {
            throw fail("expected array for \(relationship.spec.name), found \(json.summary)")
        }
        let hasNoLinks = isNew || tracker.isNewWithoutLinks(entity.index, row)
        var current = hasNoLinks ? [] : try currentLinks(relationship, of: entity, row: row)
        let link = relationship.spec.linkIndex
        let writesBefore = linkWrites
        let count = json.map { isMany ? $0.count : 1 } ?? 0
        var targets: [Int64] = []
        targets.reserveCapacity(count)
        // Per target: `.some(previous)` when its own write set the link column (see `apply`).
        var presetPrevious: [Int64??] = []
        // A few targets are told apart by a scan of those kept, with no set made (a set of a
        // few is an array scanned as well).
        var seen: RowIDSet? = count > RowIDSet.scanLimit ? RowIDSet(minimumCapacity: count) : nil
        let preset = presetFor(relationship, row: row)
        if preset != nil { presetPrevious.reserveCapacity(count) }
        var i = 0
        // Of a list given to a union, this relationship takes the objects routed to its entity.
        var routed = 0
        func each(_ element: JSONValue) throws(RecordError) {
            if isMany { path.append(.index(i)) }
            defer { i += 1 }
            if isMany, !(try routesHere(element, relationship)) {
                path.removeLast()
                return
            }
            let owned = relationship.isTargetOwned && routed < current.count ? current[routed] : nil
            routed += 1
            // A stale record wrote no link in its column: a row it names that is not linked yet
            // stays out of the set.
            if let outcome = try resolve(element, relationship, of: entity, current: owned, preset: preset),
                !outcome.isStale || preset == nil || current.contains(outcome.row),
                seen?.insert(outcome.row) ?? !targets.contains(outcome.row)
            {
                if preset != nil { presetPrevious.append(element.kind == .object ? .some(outcome.presetWas) : .none) }
                targets.append(outcome.row)
            }
            if isMany { path.removeLast() }
        }
        if let json {
            if isMany {
                for element in json.elements { try each(element) }
            } else {
                try each(json)
            }
        }
        // A nested record may be this very row, link to it through the same table, or take one
        // of its targets: what it wrote is the current state now, and a target's own write of
        // the link column may have been undone since (each target is read and written again).
        if lastLinkWrite[link] > writesBefore {
            current = try currentLinks(relationship, of: entity, row: row)
            presetPrevious = []
        }
        try apply(relationship, of: entity, row: row, current: current, targets: targets,
                  isAppend: isAppend, presetPrevious: presetPrevious)
    }

    /// For a link held in the target's column, nested records set it as part of their own write.
    private func presetFor(_ relationship: RelationshipPlan, row: Int64) -> Preset? {
        guard case .otherColumn(let column) = relationship.storage else { return nil }
        let target = plan.entities[relationship.target]
        guard let j = target.selfColumns.firstIndex(where: { target.relationships[$0].columnName == column }) else {
            return nil
        }
        return Preset(column: j, row: row)
    }

    /// The rows linked now, in link order.
    func currentLinks(_ relationship: RelationshipPlan, of entity: EntityPlan, row: Int64) throws(RecordError) -> [Int64] {
        if case .selfColumn = relationship.storage { return [] }
        if case .linkTable(_, false) = relationship.storage { try restoreLinkIndex(before: relationship) }
        return try store { () throws(StoreError) in try rows.linkedRows(relationship, of: row) }
    }

    private func apply(
        _ relationship: RelationshipPlan, of entity: EntityPlan, row: Int64, current: [Int64], targets: [Int64],
        isAppend: Bool, presetPrevious: [Int64??]
    ) throws(RecordError) {
        // The links as they were (a re-import's): nothing to write, no sets to make.
        if current == targets { return }
        // Indices of the targets not linked before; `nil` when none was (no copies for new rows).
        var addedIndices: [Int]?
        var added = targets
        var removed: [Int64] = []
        if !current.isEmpty {
            let currentSet = RowIDSet(current)
            let targetSet = RowIDSet(targets)
            let indices = targets.indices.filter { !currentSet.contains(targets[$0]) }
            addedIndices = indices
            added = indices.map { targets[$0] }
            removed = isAppend ? [] : current.filter { !targetSet.contains($0) }
        }
        let reordered = !isAppend && added.isEmpty && removed.isEmpty && current != targets
        guard !added.isEmpty || !removed.isEmpty || reordered else { return }
        try store { () throws(StoreError) in
            try keepSourceLists(relationship, added, removed)
            try write(relationship, row: row, targets: targets, added: added, addedIndices: addedIndices, removed: removed,
                isAppend: isAppend, current: current, presetPrevious: presetPrevious, entity: entity)
        }
        noteLinkWrite(relationship)
        if case .linkTable(_, true) = relationship.storage {
            tracker.keepList(link: relationship.spec.linkIndex, entity: entity.index, row: row) { current }
        }
        linksMoved(relationship, of: entity, row: row, added: added, removed: removed)
        for target in added { pairChanged(relationship, row, target, present: true) }
        for target in removed {
            pairChanged(relationship, row, target, present: false)
            noteLostLink(relationship, of: entity, targetRow: target, sourceRow: row)
        }
    }

    /// Writes the changed links of `row` through the row path.
    private func write(
        _ relationship: RelationshipPlan, row: Int64, targets: [Int64], added: [Int64], addedIndices: [Int]?,
        removed: [Int64], isAppend: Bool, current: [Int64], presetPrevious: [Int64??], entity: EntityPlan
    ) throws(StoreError) {
        switch relationship.storage {
        case .selfColumn: return
        case .otherColumn:
            for target in removed { try rows.setLinkingRow(relationship, ofTarget: target, to: nil) }
            var nextAdded = 0
            for index in targets.indices {
                if let addedIndices {
                    guard nextAdded < addedIndices.count, addedIndices[nextAdded] == index else { continue }
                    nextAdded += 1
                }
                let target = targets[index]
                let previous: Int64?
                if index < presetPrevious.count, let known = presetPrevious[index] {
                    previous = known
                } else {
                    previous = try rows.linkingRow(relationship, ofTarget: target)
                    try rows.setLinkingRow(relationship, ofTarget: target, to: row)
                }
                if let previous, previous != row {
                    tracker.linkMoved(entity.index, previous)
                    pairChanged(relationship, previous, target, present: false)
                }
            }
        case .linkTable(_, true):
            if isAppend {
                let start = try rows.nextPosition(relationship, source: row)
                try rows.insertLinks(relationship, source: row, targets: added, from: start)
                countInsertedLinks(relationship, added.count)
            } else {
                if !current.isEmpty { try rows.deleteLinks(relationship, source: row) }
                try rows.insertLinks(relationship, source: row, targets: targets, from: 0)
                countInsertedLinks(relationship, targets.count)
            }
        case .linkTable(_, false):
            for source in removed { try rows.deleteLink(relationship, source: source, target: row) }
            for source in added {
                let position = try rows.nextPosition(relationship, source: source)
                try rows.insertLink(relationship, source: source, target: row, position: position)
            }
            countInsertedLinks(relationship, added.count)
        }
    }
}
