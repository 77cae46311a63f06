/// The import engine's row path: what it reads and writes one row or link at a time while it
/// walks a record. A store implements it with statements prepared once per store (SQLite:
/// ``SQLiteImportRows``); the engine decides what to write, the row path only how.
///
/// Rows are named by their row id; `values` are in attribute order and `columns` in the
/// entity's `selfColumns` order, `nil` for NULL.
protocol ImportRows: AnyObject {
    // MARK: Rows

    /// The row of `entity` with primary key `key` (owned entities: none, see the row-id form),
    /// comparing it with `values` in place: a value that differs marks the row changed, and a
    /// decimal spelled differently but equal in value takes the stored text in `values`.
    func existing(_ entity: EntityPlan, key: [Value], values: inout [Value?]) throws(StoreError) -> ExistingRow?

    /// The row `row` of `entity`, compared with `values` as the key form does.
    func existing(_ entity: EntityPlan, row: Int64, values: inout [Value?]) throws(StoreError) -> ExistingRow?

    /// What row `row` holds now: its attributes, then its link columns (empty when it is gone).
    func storedValues(_ entity: EntityPlan, row: Int64) throws(StoreError) -> [StoredValue]

    /// The row id of the row with `key`.
    func rowID(_ entity: EntityPlan, key: [Value]) throws(StoreError) -> Int64?

    /// Inserts a row (bookkeeping timestamps `now`) and returns its id; with `ifAbsent`, `nil`
    /// when a row with its key exists. A `nil` value takes the attribute's default; `columns`
    /// `nil` leaves every link column empty.
    func insert(
        _ entity: EntityPlan, values: [Value?], columns: [Int64?]?, isStub: Bool, now: Double, ifAbsent: Bool
    ) throws(StoreError) -> Int64?

    /// Writes the attributes and link columns `shape` marks (attributes, then link columns) and
    /// clears the stub mark.
    func update(_ entity: EntityPlan, row: Int64, values: [Value?], columns: [Int64?], setting shape: [Bool]) throws(StoreError)

    /// The row holding `value` in the unique attribute at `slot`, if any.
    func holder(_ entity: EntityPlan, slot: Int, value: Value) throws(StoreError) -> Int64?

    /// Sets the attribute at `slot` of row `row`.
    func setAttribute(_ entity: EntityPlan, slot: Int, of row: Int64, to value: Value) throws(StoreError)

    /// Whether the entity has no rows.
    func isEmpty(_ entity: EntityPlan) throws(StoreError) -> Bool

    /// Rows changed by every write so far: a write made while a record is read (by a nested
    /// record) changes it.
    var changeCount: Int { get }

    // MARK: Links

    /// The rows `relationship` links `row` to now, in link order (not for link columns of the
    /// row itself, which `existing` reads).
    func linkedRows(_ relationship: RelationshipPlan, of row: Int64) throws(StoreError) -> [Int64]

    /// One ↔ one, in a link column: the rows other than `row` linking to `target` lose the
    /// link; returns them.
    func releaseTarget(_ relationship: RelationshipPlan, _ target: Int64, except row: Int64?) throws(StoreError) -> [Int64]

    /// A link stored in the target's column: the row it points at from `target`, if any.
    func linkingRow(_ relationship: RelationshipPlan, ofTarget target: Int64) throws(StoreError) -> Int64?

    /// A link stored in the target's column: points `target` at `row` (`nil` unlinks it).
    func setLinkingRow(_ relationship: RelationshipPlan, ofTarget target: Int64, to row: Int64?) throws(StoreError)

    /// A link table: the position after the last link of `source`.
    func nextPosition(_ relationship: RelationshipPlan, source: Int64) throws(StoreError) -> Int64

    /// A link table: adds the link from `source` to `target` at `position`.
    func insertLink(_ relationship: RelationshipPlan, source: Int64, target: Int64, position: Int64) throws(StoreError)

    /// A link table: adds the links from `source` to each of `targets`, at `position` and the
    /// positions after it (see ``insertLink(_:source:target:position:)``).
    func insertLinks(_ relationship: RelationshipPlan, source: Int64, targets: [Int64], from position: Int64) throws(StoreError)

    /// A link table: removes every link of `source`.
    func deleteLinks(_ relationship: RelationshipPlan, source: Int64) throws(StoreError)

    /// A link table: removes the link from `source` to `target`.
    func deleteLink(_ relationship: RelationshipPlan, source: Int64, target: Int64) throws(StoreError)

    // MARK: Batches

    /// Whether ``beginBatch(_:upcoming:)`` does anything: the importer gathers a batch's
    /// keys only then.
    var readsAhead: Bool { get }

    /// Whether ``beginBatch(_:upcoming:)`` reads anything for the keys of `entity`'s rows, and
    /// for references to them: `false` when the row path knows already what each key names
    /// (a table that held no row as the transaction began, all of whose new rows it holds), so
    /// the importer need not gather them.
    func readsAhead(keysOf entity: EntityPlan) -> Bool

    /// A batch of records is about to be imported, the last one's are done: reads ahead what
    /// importing the batch will read, the rows of its records with their primary keys and what
    /// the importer reads of them, and the rows its references name with what linking to them
    /// reads. `upcoming` gives the keys of the batch after it, when it is parsed already, for
    /// a row path that reads for it while this one is imported: they are gathered meanwhile,
    /// so it is asked for once this batch's reads are done. A row path that holds writes may
    /// hand the last batch's over. A row path that reads one row at a time ignores it all.
    func beginBatch(_ batch: BatchKeys, upcoming: () -> BatchKeys?) throws(StoreError)

    /// The rows `rows` of `entity` are about to be read one at a time (``storedValues(_:row:)``):
    /// a row path that reads in sets reads them now. A row path that reads one row at a time
    /// ignores it.
    func readAhead(_ entity: EntityPlan, rows: [Int64]) throws(StoreError)

    /// The lists of `sources` in the link table of `relationship` (its forward side) are about
    /// to be read one at a time (``linkedRows(_:of:)``): a row path that reads in sets reads
    /// them now. A row path that reads one row at a time ignores it.
    func readAhead(lists relationship: RelationshipPlan, of sources: [Int64]) throws(StoreError)

    // MARK: Link table indexes

    /// Whether the link table named `table` is empty.
    func isEmpty(linkTable table: String) throws(StoreError) -> Bool

    /// Drops the index by target of the link table named `table`, for a bulk of inserts; `false`
    /// when it must stay (a statement of the caller's is running). Throws when the
    /// transaction is gone.
    func setAsideTargetIndex(ofLinkTable table: String) throws(StoreError) -> Bool

    /// Builds the index by target of the link table named `table` again.
    func restoreTargetIndex(ofLinkTable table: String) throws(StoreError)
}

/// A stored row as the importer finds it before writing a record over it.
struct ExistingRow {
    let row: Int64
    /// The row's link columns, in `selfColumns` order.
    let columns: [Int64?]
    /// A value of the record differs from the stored one.
    var isChanged: Bool
    let isStub: Bool
}

/// The primary keys a batch of records names, for ``ImportRows/beginBatch(_:upcoming:)``:
/// values as ``Value/stored`` gives them, each key once.
struct BatchKeys {
    /// The batch's place among those of its import, from 1: a row path that saw the batch as
    /// `upcoming` knows it again by it.
    var number: Int
    /// Per entity: the keys of its records, nested ones included.
    var records: [(EntityPlan, KeyList)]
    /// Per relationship: the keys its references name.
    var references: [(RelationshipPlan, KeyList)]
}

/// Keys of rows of one entity, each once: the row ids alone where the key is one `int`
/// attribute, the row id (``EntityPlan/keysAreRowIDs``), else whole keys. Row ids are hashed
/// and sent as plain integers, with no array per key.
enum KeyList {
    case ids([Int64])
    case keys([[StoredValue]])

    var count: Int {
        switch self {
        case .ids(let ids): return ids.count
        case .keys(let keys): return keys.count
        }
    }
}

extension ImportRows {
    func insertLinks(_ relationship: RelationshipPlan, source: Int64, targets: [Int64], from position: Int64) throws(StoreError) {
        for (i, target) in targets.enumerated() {
            try insertLink(relationship, source: source, target: target, position: position + Int64(i))
        }
    }
}
