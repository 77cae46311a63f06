/// One database a store lives in, as the stages above the store use it: its transactions,
/// the storage of a mapping spec, bookkeeping writes, the row path and deletion engine of the
/// import and delete stages, and the reads that build records. ``SQLiteEngine`` (the embedded
/// default) and the PostgreSQL engine implement it; a ``Store`` holds one, and nothing above
/// the store names a database.
///
/// Rows are named by their row id everywhere; values cross the seam as ``StoredValue``s in
/// SQLite's storage classes whatever the database's column types (a `bool` as `.integer` 0 or
/// 1, a date as `.real` seconds since 1970), so every stage above reads both the same.
protocol StoreEngine: AnyObject {
    /// The store as messages name it: its path, or its URL without a password.
    var name: String { get }
    /// The SQL the engine speaks.
    var dialect: SQLDialect { get }

    // MARK: Transactions

    /// Runs `body` in a scope of `kind`: the outermost scope is a transaction (a write one
    /// holds the store's writer lock), a write scope inside one is a savepoint that undoes only
    /// itself, and a read scope inside one runs in it. Work is kept when the outcome says so;
    /// a throw undoes the scope and is rethrown as it was.
    func transaction<T>(_ kind: TransactionKind, deciding body: () throws -> ScopeOutcome<T>) throws -> T

    /// Whether a transaction is open.
    var isInTransaction: Bool { get }

    /// Turns the database's own foreign-key checks off for the next transaction (an import
    /// keeps its links whole itself) or back on; a no-op where none are declared.
    func enforceForeignKeys(_ isOn: Bool) throws(StoreError)

    /// A number that changes whenever another connection commits to the store; this
    /// connection's own commits leave it alone.
    func externalCommitVersion() throws(StoreError) -> Int64

    // MARK: Storage

    /// The schema the store records, `nil` for an empty database (a new store).
    ///
    /// - Throws: ``StoreError`` `notAStore` for a database holding other things, `corrupt` for
    ///   an unreadable record.
    func recordedState() throws -> StoreSchemaState?

    /// Runs DDL statements, in order, in the open transaction.
    func execute(_ statements: [String]) throws(StoreError)

    /// Creates the storage of `schema` in an empty database, in the open transaction.
    func createStorage(_ schema: StorageSchema) throws(StoreError)

    /// Runs the statements of a migration plan, in order, in the open transaction.
    func executeMigration(_ statements: [String]) throws(StoreError)

    /// Records `state` and the format version in the metadata table.
    func record(_ state: StoreSchemaState) throws(StoreError)

    // MARK: Bookkeeping

    /// Sets `column` to `value` in `rows` (ascending, no repeats) of `entity`. For `_seen_at`,
    /// an import hands over its rows of an entity in chunks and then calls
    /// ``finishSeen(of:at:)``; a store may hold the chunks until then.
    func setColumn(_ column: String, of entity: EntityPlan, rows: [Int64], to value: StoredValue) throws(StoreError)

    /// The import has handed over every row of `entity` it contained (``setColumn(_:of:rows:to:)``
    /// of `_seen_at`, to `value`): what the store held back is written now.
    func finishSeen(of entity: EntityPlan, at value: StoredValue) throws(StoreError)

    /// Whether the store holds writes back for a hand-over, whose rows can take their
    /// `_updated_at` with them (``stampUpdated(of:rows:at:)``).
    var holdsWrites: Bool { get }

    /// An import's records are done, and updated `rows` (ascending, no repeats) of `entity`:
    /// those whose writes the store holds may take `_updated_at` `value` with them. The
    /// bookkeeping still sets it in all of them (``setColumn(_:of:rows:to:)``) after the
    /// deletion stage, which may update more.
    func stampUpdated(of entity: EntityPlan, rows: [Int64], at value: StoredValue) throws(StoreError)

    // MARK: Stages

    /// The importer's row path.
    var importRows: any ImportRows { get }

    /// A deletion engine for one deletion stage.
    func makeDeletionEngine(plan: ImportPlan) -> any DeletionEngine

    /// Where an import keeps the row flags past its memory budget, `nil` to keep them all in
    /// memory.
    func makeSpilledFlags() -> SpilledFlags?

    /// Where an import keeps the originals of changed rows past its memory budget, `nil` to
    /// keep them all in memory.
    func makeSpilledOriginals(plan: ImportPlan) -> SpilledOriginals?

    // MARK: Reads

    /// The row ids `selection` picks from `entity`, in order.
    func rowIDs(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> [Int64]

    /// How many rows `selection` picks from `entity` (within its limit and offset).
    func count(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> Int

    /// The query of the row ids `selection` picks, for a deletion to mark them.
    func compiledQuery(_ entity: EntityPlan, _ selection: RecordReader.Selection, plan: ImportPlan) throws -> CompiledQuery

    /// The attribute values and stub mark of those of `rows` of `entity` that exist, by row.
    func storedRows(_ entity: EntityPlan, rows: [Int64]) throws -> [Int64: RecordReader.StoredRow]

    /// The attributes (and, with `meta`, the bookkeeping values `_created_at`, `_updated_at`,
    /// `_seen_at`, `_stub`) of those of `rows` of `entity` that exist, by row.
    func attributeRows(_ entity: EntityPlan, rows: [Int64], meta: Bool) throws(StoreError) -> [Int64: [StoredValue]]

    /// Those of `rows` of `entity` that exist, ascending; per row found, appends to `values` its
    /// attributes, then per relationship of ``EntityPlan/selfColumns`` the row it links to.
    func readRows(of entity: EntityPlan, _ rows: [Int64], into values: inout [StoredValue]) throws(StoreError) -> [Int64]

    /// Calls `body` with each link of `relationship` from `rows` of `entity`, grouped by source
    /// in ascending order and in link order within a source.
    func forEachLink(
        _ relationship: RelationshipPlan, of entity: EntityPlan, rows: [Int64], plan: ImportPlan,
        _ body: (Int64, Int64) -> Void
    ) throws(StoreError)

    /// The key values of those of `rows` of `entity` that exist, with their row ids.
    func keyValues(of entity: EntityPlan, rows: [Int64]) throws(StoreError) -> [(Int64, [StoredValue])]

    /// The next `limit` rows of `entity` (stubs left out) that `filter` and `keys` select, in
    /// key order, after the row whose key is `after`; with the key of the last.
    func keyOrderPage(
        _ entity: EntityPlan, filter: FilterExpression?, keys: [[StoredValue]], after: [StoredValue]?, limit: Int,
        plan: ImportPlan
    ) throws -> KeyOrderPages.Page

    /// Runs a read the engine's dialect spells (inspection and counts) and returns its rows.
    func rows(_ sql: String, _ values: [StoredValue]) throws(StoreError) -> [[StoredValue]]

    /// Runs a write the engine's dialect spells.
    func run(_ sql: String, _ values: [StoredValue]) throws(StoreError)
}

extension StoreEngine {
    /// Runs `body` in a scope of `kind`, keeping its work when it returns.
    func transaction<T>(_ kind: TransactionKind = .write, _ body: () throws -> T) throws -> T {
        try transaction(kind, deciding: { ScopeOutcome(value: try body()) })
    }
}
