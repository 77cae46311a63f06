/// The rows of an entity that a filter and a list of keys select, read a page at a time in
/// key order (keyset paging: a page starts after the key the last one ended on, so each page
/// costs the same however deep into the table it is).
struct KeyOrderPages {
    private let store: Store
    private let entity: EntityPlan
    private let filter: FilterExpression?
    private let keys: [[StoredValue]]

    /// One page: the row ids, and the order columns of the last row (where the next page
    /// starts), `nil` when the page is empty.
    struct Page {
        let rows: [Int64]
        let lastKey: [StoredValue]?
    }

    /// The rows of `entity` (stubs left out) that `filter` matches and, when `keys` is not
    /// empty, whose primary key is one of them.
    init(store: Store, entity: EntityPlan, filter: FilterExpression?, keys: [[StoredValue]]) {
        self.store = store
        self.entity = entity
        self.filter = filter
        self.keys = keys
    }

    /// The next `limit` rows after the row whose order columns hold `key` (from the start
    /// when `nil`).
    ///
    /// - Throws: ``QueryError`` for a filter that names what the entity does not have.
    func page(after key: [StoredValue]?, limit: Int) throws -> Page {
        do {
            return try store.engine.keyOrderPage(entity, filter: filter, keys: keys, after: key, limit: limit, plan: store.plan)
        } catch let error as FilterError {
            throw QueryError(error)
        }
    }
}
