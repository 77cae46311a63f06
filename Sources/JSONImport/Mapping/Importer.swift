/// Imports records into the store for one import (one transaction): identity, attributes,
/// relationships, counting. Rows are read and written through the store's row path (``ImportRows``).
/// Hot stored properties opt out of run-time exclusivity checks: an importer is used by one
/// thread at a time and never hands out overlapping accesses to its own state.
final class Importer {
    /// How rows are read and written, one at a time.
    let rows: any ImportRows
    let plan: ImportPlan
    let now: Double
    let tracker: RowTracker
    /// JSON path of the value being imported, within the current root record.
    @exclusivity(unchecked) var path: [PathComponent] = []
    /// Where the last key lookup ended, within the current root record.
    @exclusivity(unchecked) var memberCursor = JSONValue.MemberCursor()
    /// The keys of the batch after the one being imported, gathered when it began (see
    /// ``beginBatch(_:upcoming:_:)``), with the offset of its first record and its count.
    @exclusivity(unchecked) var upcomingKeys: (first: Int?, count: Int, keys: BatchKeys)?
    /// Batches whose keys were gathered, for their numbers.
    @exclusivity(unchecked) var batchesGathered = 0
    /// How many keys the last batch gathered, per entity (by index) and per relationship of
    /// references: what the next one makes room for at once.
    @exclusivity(unchecked) var gatheredCounts: (records: [Int], references: [ObjectIdentifier: Int]) = ([], [:])
    @exclusivity(unchecked) var skippedLinks: [String: Int] = [:]
    /// The row of each root record imported, in payload order (skipped records left out).
    @exclusivity(unchecked) var rootRows: [Int64] = []
    /// Skipped links counted by the current skippable record, undone with it.
    @exclusivity(unchecked) var skippedJournal: [String] = []
    /// Per entity: above zero while recent records were new rows, so inserting first pays.
    @exclusivity(unchecked) var insertFirstScore: [Int]
    /// Per entity that skips repeated records: the row and values each key was last written with.
    @exclusivity(unchecked) var written: KeyCaches<WrittenRecord>
    /// Nested records whose rows hold what their JSON converts to, by the JSON's bytes.
    @exclusivity(unchecked) var signatures: RecordSignatures
    /// Per entity whose key is the row id: whether its table was empty when the import began.
    /// The identity marks of such an entity cover every row the import wrote and drop every row
    /// it deleted, so in a table that started empty a key they do not know is not stored.
    @exclusivity(unchecked) private var startedEmpty: [Bool]
    /// Link-table indexes set aside while the import fills the tables (see ``LinkIndexes``).
    @exclusivity(unchecked) var linkIndexes: LinkIndexes
    /// Link writes a link set read before may not show (see ``noteLinkWrite(_:)``), counted, and
    /// per link (by index) the count at its last one: whether a link was written since a moment
    /// is one comparison with the count then, nothing copied.
    @exclusivity(unchecked) var linkWrites = 0
    @exclusivity(unchecked) var lastLinkWrite: [Int]
    /// Unique values rows could not take yet (see ``settlePendingUniques()``), and the order
    /// they were given in.
    @exclusivity(unchecked) var pendingUniques = PendingUniques()
    @exclusivity(unchecked) var pendingSequence = 0
    /// Where the root record being imported is.
    @exclusivity(unchecked) var recordPlace = RecordPlace()
    /// The tenant of the distributed record being imported (SPEC 6): the records nested in it
    /// and the references it makes take it.
    @exclusivity(unchecked) var tenant: StoredValue?
    /// References by `targetKey` waiting for the end of the import, in the order given.
    @exclusivity(unchecked) var pendingReferences: [PendingReference] = []
    /// The record being imported, numbered: whose row a waiting reference links.
    @exclusivity(unchecked) var referenceOwner = 0
    /// How many references waited when the current skippable record began.
    @exclusivity(unchecked) var pendingReferencesAtRecord = 0
    private var referenceOwners = 0
    /// The tenants the root records named: those a prune works in.
    @exclusivity(unchecked) var rootTenants: Set<StoredValue> = []
    /// Per entity (by index): rows tombstones named, deleted at the end of the import unless a
    /// later record writes them again.
    @exclusivity(unchecked) var tombstoned = RecordJournaledRows()
    /// Per entity (by index): stale records (SPEC 2.2 step 0), and the rows they named.
    @exclusivity(unchecked) var staleRecords: [Int: Int] = [:]
    @exclusivity(unchecked) var staleRows = RecordJournaledRows()
    /// `staleRecords` when the current skippable record began.
    @exclusivity(unchecked) var staleRecordsAtRecord: [Int: Int] = [:]
    /// Originals of changed rows moved out of memory (see ``spillIfNeeded()``).
    /// Where originals go past their budget; `nil` keeps them in memory.
    let spilledOriginals: SpilledOriginals?
    /// Runs before a record of the entity (by index) is stored; a thrown message rejects it.
    @exclusivity(unchecked) var validators: [Int: @Sendable (RecordFields) throws -> Void] = [:]

    init(store: Store, now: Double) {
        self.rows = store.importRows
        self.plan = store.plan
        self.now = now
        self.tracker = RowTracker(keyIsRowID: plan.entities.map(\.keyIsRowID), links: plan.netEffectEnds)
        self.insertFirstScore = Array(repeating: 0, count: plan.entities.count)
        self.written = KeyCaches(count: plan.entities.count, budget: Self.writtenCacheBudget)
        self.signatures = RecordSignatures(entities: plan.entities.count, budget: Self.writtenCacheBudget)
        self.startedEmpty = Array(repeating: false, count: plan.entities.count)
        self.linkIndexes = LinkIndexes(spec: plan.spec)
        self.lastLinkWrite = Array(repeating: 0, count: plan.spec.links.count)
        self.spilledOriginals = store.engine.makeSpilledOriginals(plan: store.plan)
        tracker.spilledFlags = store.engine.makeSpilledFlags()
    }

    /// Notes which tables are empty; called once the import's transaction has begun.
    func noteEmptyTables() throws(StoreError) {
        for entity in plan.entities where entity.keyIsRowID {
            startedEmpty[entity.index] = try rows.isEmpty(entity)
        }
        try noteEmptyLinkTables()
    }

    /// Whether no row of `entity` has `key`, known without asking the store.
    func isKnownAbsent(_ entity: EntityPlan, _ key: RowKey) -> Bool {
        startedEmpty[entity.index] && tracker.identity(entity.index, key) == nil
    }

    /// A record to import, a reference to resolve, or the link to preset in it.
    struct Preset {
        /// Index into the target's `selfColumns`.
        let column: Int
        let row: Int64
    }

    /// What importing one record did.
    struct Outcome {
        let row: Int64
        /// `true` when this call inserted the row.
        let isNew: Bool
        /// The preset column's value before this call (`nil`: it was NULL or the row is new).
        let presetWas: Int64?
        /// A stale record (SPEC 2.2 step 0): its row is as it was, a preset link not written.
        var isStale = false
    }

    // MARK: Records

    /// Imports `json` as a record of `entity` and returns its row. `ownedRow` is the row an owned
    /// record updates in place; `preset` sets one of the row's link columns as part of its write.
    /// A tombstone (`deleteWhen`) imports nothing and returns `nil`; a stale record returns the
    /// stored row, unchanged.
    func importRecord(
        _ json: JSONValue, _ entity: EntityPlan, ownedRow: Int64? = nil, preset: Preset? = nil
    ) throws(RecordError) -> Outcome? {
        guard json.kind == .object else {
            throw fail("expected object for \(entity.spec.name), found \(json.summary)")
        }
        if let row = recognisedRow(json, entity) { return Outcome(row: row, isNew: false, presetWas: nil) }
        if entity.hasSyncRules {
            switch try syncOutcome(json, entity) {
            case .record: break
            case .tombstone: return nil
            case .stale(let row):
                staleRecords[entity.index, default: 0] += 1
                staleRows.insert(row, of: entity.index)
                return Outcome(row: row, isNew: false, presetWas: nil, isStale: true)
            }
        }
        let outerTenant = tenant
        let outerOwner = referenceOwner
        referenceOwners += 1
        let owner = referenceOwners
        referenceOwner = owner
        let pendingStart = pendingReferences.count
        defer {
            tenant = outerTenant
            referenceOwner = outerOwner
        }
        var values = try readAttributes(json, entity)
        if let slot = entity.tenantSlot {
            tenant = values[slot]?.stored
            if outerTenant == nil, let tenant { rootTenants.insert(tenant) }
        }
        let key = try primaryKey(values, entity)
        try validate(values, entity)
        if let row = repeatedRow(entity, key: key, values: values) {
            try importLinks(json, entity, row: row, isNew: false)
            ownPendingReferences(owner, from: pendingStart, row: row)
            recognise(json, entity, row: row)
            return Outcome(row: row, isNew: false, presetWas: nil)
        }

        // What is stored now. While rows keep turning out new, try the insert first instead.
        let insertsFirst = entity.allowsInsertFirst && insertFirstScore[entity.index] > 0
            && !isMissingRequired(values, entity)
        var existing: Existing?
        if !entity.spec.isOwned && !insertsFirst && !isKnownAbsent(entity, RowKey(key)) {
            existing = untouchedStub(entity, key: key)
            if existing == nil { existing = try select(entity, key: key, values: &values) }
        } else if let ownedRow {
            existing = try select(entity, row: ownedRow, values: &values)
        }

        let changesBefore = rows.changeCount
        let resolvedAsNew = existing == nil
        var newColumns = try resolveColumns(json, entity, preset: preset, current: existing?.columns)
        if let stale = existing, !newColumns.isEmpty, rows.changeCount != changesBefore,
            !(stale.isStub && tracker.isUntouchedStub(entity.index, stale.row))
        {
            existing = try refreshColumns(stale, entity, json, preset: preset, values: &values, into: &newColumns)
        }
        // A nested occurrence of the same key may have inserted the row meanwhile.
        if existing == nil, !key.isEmpty, let row = tracker.identity(entity.index, RowKey(key)) {
            existing = try select(entity, row: row, values: &values)
            existing?.isChanged = true
        }
        try releaseTakenTargets(entity, row: existing?.row, from: existing?.columns, to: newColumns)
        var inserted: Int64?
        if existing == nil {
            inserted = try insert(entity, values: values, columns: newColumns, key: key, ifAbsent: insertsFirst)
            if inserted == nil { existing = try select(entity, key: key, values: &values) }
        }
        // Resolved as for a new row (the row found since, by its key or by an insert tried
        // first): the links the record does not mention stay as stored.
        if resolvedAsNew, let existing {
            keepUnmentionedColumns(json, entity, preset: preset, stored: existing.columns, into: &newColumns)
        }

        let row: Int64
        if let existing {
            row = existing.row
            let columnsChanged = newColumns != existing.columns
            if (existing.isChanged || columnsChanged) && tracker.needsOriginal(entity.index, row) {
                tracker.keepOriginal(entity.index, row, try storedValues(entity, row: row))
            }
            if existing.isChanged || columnsChanged || existing.isStub {
                try update(entity, row: row, values: values, columns: newColumns, stored: existing.columns)
            }
            tracker.touch(entity.index, row, existing.isChanged || columnsChanged ? .updated : .unchanged, seen: true)
            if existing.isStub { tracker.clearStub(entity.index, row) }
            try columnLinksChanged(entity, row: row, from: existing.columns, to: newColumns, preset: preset)
        } else {
            row = inserted!
            tracker.touch(entity.index, row, .inserted, seen: true)
            try columnLinksChanged(entity, row: row, from: nil, to: newColumns, preset: preset)
        }
        if !key.isEmpty {
            insertFirstScore[entity.index] = max(-8, min(8, insertFirstScore[entity.index] + (existing == nil ? 1 : -1)))
            rememberWritten(entity, key: key, row: row, values: values)
            recognise(json, entity, row: row)
        }
        try importLinks(json, entity, row: row, isNew: existing == nil)
        // The latest record wins over an earlier tombstone for the same row.
        if !tombstoned.isEmpty { tombstoned.remove(row, of: entity.index) }
        let presetWas = preset.flatMap { existing?.columns[$0.column] }
        ownPendingReferences(owner, from: pendingStart, row: row)
        return Outcome(row: row, isNew: existing == nil, presetWas: presetWas)
    }

    /// The primary-key values of a record (empty for an owned entity).
    private func primaryKey(_ values: [Value?], _ entity: EntityPlan) throws(RecordError) -> [Value] {
        var key: [Value] = []
        for slot in entity.keySlots {
            guard let value = values[slot], !value.isNull else {
                let attribute = entity.attributes[slot]
                throw fail("missing primary key '\(attribute.spec.name)' (key '\(attribute.spec.key)')", key: attribute)
            }
            key.append(value)
        }
        return key
    }

    private func validate(_ values: [Value?], _ entity: EntityPlan) throws(RecordError) {
        guard let validator = validators[entity.index] else { return }
        do {
            try validator(RecordFields(entity: entity.spec, values: values))
        } catch {
            throw fail("rejected by validation: \(error)")
        }
    }

    /// The row as it is after the nested records of its own record were imported: they may have
    /// changed its link columns (another row took its one ↔ one target; a nested occurrence of
    /// the same key set a link). Columns the record gives no key for take the values now stored,
    /// so the row's write does not put back what it read before.
    private func refreshColumns(
        _ stale: Existing, _ entity: EntityPlan, _ json: JSONValue, preset: Preset?, values: inout [Value?],
        into columns: inout [Int64?]
    ) throws(RecordError) -> Existing? {
        guard let fresh = try select(entity, row: stale.row, values: &values) else { return stale }
        for (j, r) in entity.selfColumns.enumerated() where fresh.columns[j] != stale.columns[j] && preset?.column != j {
            if case .missing = lookup(json, entity.relationships[r].path) { columns[j] = fresh.columns[j] }
        }
        return Existing(row: stale.row, columns: fresh.columns, isChanged: stale.isChanged, isStub: stale.isStub)
    }

    /// Sets the links the record gives for relationships not stored in the row's own columns.
    private func importLinks(_ json: JSONValue, _ entity: EntityPlan, row: Int64, isNew: Bool) throws(RecordError) {
        // A new row has no links but those its record's nested records give it meanwhile.
        let writesBefore = linkWrites
        for relationship in entity.relationships where relationship.columnName == nil {
            let isNew = isNew && lastLinkWrite[relationship.spec.linkIndex] <= writesBefore
            switch lookup(json, relationship.path) {
            case .missing: continue
            case .null:
                try setLinks(relationship, of: entity, row: row, isNew: isNew, to: nil)
            case .value(let value):
                path.append(.key(relationship.pathLabel))
                var routed = true
                if relationship.spec.kind == .one { routed = try routesHere(value, relationship) }
                try setLinks(relationship, of: entity, row: row, isNew: isNew, to: routed ? value : nil)
                path.removeLast()
            }
        }
    }

    private func isMissingRequired(_ values: [Value?], _ entity: EntityPlan) -> Bool {
        for (i, attribute) in entity.attributes.enumerated() where values[i] == nil && attribute.spec.isRequired {
            return true
        }
        return false
    }

    /// A row as found before writing: its id, link columns, and whether the present attributes
    /// differ from the stored ones.
    typealias Existing = ExistingRow

    /// A stub this import inserted that nothing has written to since, known without a query. Its
    /// record counts as a change whatever it holds: the row is new to this import either way.
    private func untouchedStub(_ entity: EntityPlan, key: [Value]) -> Existing? {
        guard let row = tracker.identity(entity.index, RowKey(key)), tracker.isUntouchedStub(entity.index, row) else {
            return nil
        }
        return Existing(row: row, columns: Array(filledWith: nil, count: entity.selfColumns.count), isChanged: true, isStub: true)
    }

    /// The stored row with `key`, compared with `values` (a decimal equal in value takes the
    /// stored text, so the row keeps it).
    private func select(_ entity: EntityPlan, key: [Value], values: inout [Value?]) throws(RecordError) -> Existing? {
        try store { () throws(StoreError) in try rows.existing(entity, key: key, values: &values) }
    }

    private func select(_ entity: EntityPlan, row: Int64, values: inout [Value?]) throws(RecordError) -> Existing? {
        try store { () throws(StoreError) in try rows.existing(entity, row: row, values: &values) }
    }

    /// Inserts a row and returns its id; with `ifAbsent`, `nil` when a row with the key exists.
    /// `columns` `nil` leaves every link column empty.
    private func insert(
        _ entity: EntityPlan, values: [Value?], columns: [Int64?]?, key: [Value], isStub: Bool = false,
        ifAbsent: Bool = false
    ) throws(RecordError) -> Int64? {
        for (i, attribute) in entity.attributes.enumerated()
        where values[i] == nil && attribute.spec.isRequired && attribute.spec.defaultValue == nil && !isStub {
            throw fail("missing required attribute '\(attribute.spec.name)' (key '\(attribute.spec.key)')", key: attribute)
        }
        let row: Int64?
        do throws(RecordError) {
            row = try store { () throws(StoreError) in
                try rows.insert(entity, values: values, columns: columns, isStub: isStub, now: now, ifAbsent: ifAbsent)
            }
        } catch {
            // A unique value another row holds now waits for the end of the import.
            let (held, cleared) = try heldUniques(after: error, entity, values: values, row: nil)
            let row = try insert(entity, values: cleared, columns: columns, key: key, isStub: isStub, ifAbsent: ifAbsent)
            if let row { deferUnique(entity, row: row, slots: held, values: values) }
            return row
        }
        guard let row else { return nil }
        if !key.isEmpty { tracker.remember(entity.index, RowKey(key), row) }
        noteUniqueWrite(entity, row: row, values: values)
        return row
    }

    /// Writes the attributes the record gives (its key aside) and the link columns that changed.
    private func update(
        _ entity: EntityPlan, row: Int64, values: [Value?], columns: [Int64?], stored: [Int64?]
    ) throws(RecordError) {
        if entity.recognisesRepeats { signatures.invalidate(entity.index) }
        var shape = [Bool](filledWith: false, count: values.count + columns.count)
        for (i, value) in values.enumerated() where value != nil && !entity.keySlots.contains(i) { shape[i] = true }
        for (j, column) in columns.enumerated() where column != stored[j] { shape[values.count + j] = true }
        do throws(RecordError) {
            try store { () throws(StoreError) in
                try rows.update(entity, row: row, values: values, columns: columns, setting: shape)
            }
        } catch {
            let (held, cleared) = try heldUniques(after: error, entity, values: values, row: row)
            try update(entity, row: row, values: cleared, columns: columns, stored: stored)
            deferUnique(entity, row: row, slots: held, values: values)
            return
        }
        noteUniqueWrite(entity, row: row, values: values)
    }

    /// The attributes and link columns row `row` of `entity` holds now.
    func storedValues(_ entity: EntityPlan, row: Int64) throws(RecordError) -> [StoredValue] {
        try store { () throws(StoreError) in try rows.storedValues(entity, row: row) }
    }

    /// Inserts a stub row holding only `key` and attribute defaults.
    func insertStub(_ entity: EntityPlan, key: [Value]) throws(RecordError) -> Int64 {
        var values = [Value?](filledWith: nil, count: entity.attributes.count)
        for (i, slot) in entity.keySlots.enumerated() { values[slot] = key[i] }
        let row = try insert(
            entity, values: values, columns: nil, key: key, isStub: true)!
        tracker.touch(entity.index, row, .inserted)
        tracker.markStub(entity.index, row)
        return row
    }
}
