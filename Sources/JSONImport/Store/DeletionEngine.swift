/// The set-based operations the deletion stage (prune, `delete`, eviction, the clean-up pass)
/// asks of a store. The stage decides what to mark and in which rounds; the engine keeps the
/// marks and the reached sets in its own storage and runs each step over whole sets of rows.
///
/// Marks: every row to delete is marked once, with a round: 0 for rows the operation selected,
/// n for rows n cascade steps away from them. The operations read and delete the rows marked
/// in the engine's current marks, which ``resetMarks()`` empties.
///
/// Reachability (the clean-up pass): a reached set per entity grows a frontier at a time; the
/// rows that reach added last are the frontier the next step follows links from.
protocol DeletionEngine: AnyObject {
    /// Empties the marks, creating their storage on first use.
    func resetMarks() throws(StoreError)

    /// Marks (round 0) the rows of `entity` that `selection` picks; returns how many were new.
    func mark(_ entity: EntityPlan, _ selection: DeletionSelection) throws(StoreError) -> Int

    /// Marks with round `round + 1` every row that `relationship` of `entity` links to from the
    /// rows of `entity` marked in `round`; returns how many were new.
    func markLinked(by relationship: RelationshipPlan, of entity: EntityPlan, fromRound round: Int) throws(StoreError) -> Int

    /// The marked rows of `entity` that `relationship` links to rows not marked, ascending, each
    /// with the number of such links.
    func linksToUnmarked(by relationship: RelationshipPlan, of entity: EntityPlan) throws(StoreError) -> [(row: Int64, count: Int)]

    /// The rows not marked that `link` connects to marked rows of its source (`fromSource`) or
    /// target side: the neighbours that lose a link.
    func unmarkedNeighbours(through link: Link, fromSource: Bool) throws(StoreError) -> [Int64]

    /// Applies the links' `ON DELETE` actions to the marked rows of `entity` of one kind (round 0,
    /// or reached by cascades) and deletes them; returns their row ids and, when `readingKeys`,
    /// their primary keys, in deletion order.
    func deleteMarked(
        _ entity: EntityPlan, cascaded: Bool, readingKeys: Bool
    ) throws(StoreError) -> (rows: [Int64], keys: [[StoredValue]])

    /// The primary key of `row` (empty for an owned entity or a row that does not exist).
    func key(of entity: EntityPlan, row: Int64) throws(StoreError) -> [StoredValue]

    /// Empties the set of kept rows that ``DeletionSelection/notKept`` leaves out.
    func resetKept() throws(StoreError)

    /// Adds rows to the kept set.
    func keep(rows: [Int64]) throws(StoreError)

    /// Adds the row of `entity` with primary key `key` to the kept set, if it exists.
    func keep(_ entity: EntityPlan, key: [StoredValue]) throws(StoreError)

    /// Keeps the operation's deletions to the tenants of distributed entities (SPEC 6) that
    /// its records named, as an import's are (its records' rows, their cascades, prune and
    /// clean-up: rows link only within their tenant). An engine that routes statements by
    /// tenant names them in each; the others need not.
    func keepToNamedTenants()

    /// Keeps the operation's deletions to `tenants` (and their cascades and clean-up): a
    /// `delete` of rows named by key.
    func keep(toTenants tenants: Set<StoredValue>)

    /// Lets the operation's deletions reach every tenant again: a clean-up pass catching up
    /// on one an earlier operation skipped.
    func reachEveryTenant()

    /// Starts reachability over `entities`: their reached sets and frontiers empty.
    func beginReachability(_ entities: [EntityPlan]) throws(StoreError)

    /// Adds to the next frontier of `link`'s target the rows `link` reaches from every source
    /// row (`fromFrontier: false`, for links from roots) or from the source's frontier, leaving
    /// out rows already reached.
    func reach(through link: Link, fromFrontier: Bool) throws(StoreError)

    /// Adds the next frontier of `entity` to its reached set and makes it the frontier; returns
    /// whether the reached set grew.
    func advanceFrontier(of entity: EntityPlan) throws(StoreError) -> Bool

    /// Sets `_updated_at` of `rows` (ascending, no repeats) of `entity` to `time`.
    func setUpdatedAt(of entity: EntityPlan, rows: [Int64], to time: Double) throws(StoreError)

    /// Whether an earlier operation skipped a clean-up pass that could have found something.
    func isCleanupPending() throws(StoreError) -> Bool

    /// Records whether a clean-up pass is pending.
    func setCleanupPending(_ isPending: Bool) throws(StoreError)
}

/// Which rows of one entity ``DeletionEngine/mark(_:_:)`` marks.
enum DeletionSelection {
    /// The rows a record query selects (filter, keys, stubs, order, limit), as the query stage
    /// compiled it for the store.
    case query(CompiledQuery)
    /// Rows whose `_seen_at` is before `time` (seconds since 1970): eviction.
    case seenBefore(Double)
    /// Rows not in the kept set: prune. For a distributed entity, `tenants` are the tenants
    /// prune works in: rows of other tenants stay. `within`: only rows this query selects too
    /// (`--prune-scope`).
    case notKept(tenants: [StoredValue]?, within: CompiledQuery? = nil)
    /// Rows not in the reached set of the last reachability pass: the clean-up pass.
    case unreachable
    /// The rows of the kept set: those tombstones named.
    case kept
}

/// A query of row ids of one entity in the store's own language, with its bound values, made
/// by the query stage and handed on unread by the stages that use it.
///
/// The text is one `SELECT` of a single column of row ids (it may order and limit them),
/// without a trailing `;`; a deletion embeds it whole as a subquery, `(text) q`. Its
/// parameters are `?` on SQLite and `$1…$n` on PostgreSQL, numbered in the order of
/// `parameters`, which are bound as they are: a statement that embeds the text and binds
/// values of its own numbers them after the query's, from `$(n+1)`.
struct CompiledQuery {
    let text: String
    let parameters: [StoredValue]
}

extension DeletionEngine {
    /// One node holds every tenant: nothing to route.
    func keepToNamedTenants() {}
    func keep(toTenants tenants: Set<StoredValue>) {}
    func reachEveryTenant() {}
}
