/// The rows of an entity that a filter and a list of keys select, read a page at a time in
/// key order (keyset paging: a page starts after the key the last one ended on).
///
/// For `User` with a filter, a page after the key 42 is
///
/// ```sql
/// SELECT r."id", r."id" FROM "User" r
/// WHERE (r."score" > ?) AND r."_stub" = 0 AND (r."id") > (?)
/// ORDER BY r."id" LIMIT 256
/// ```
struct KeyOrderPages {
    private let connection: SQLiteConnection
    /// `SELECT rowid, order columns… FROM T r` of the entity.
    private let base: String
    private let conditions: [String]
    private let parameters: [StoredValue]
    private let orderColumns: [String]

    /// One page: the row ids, and the order columns of the last row (where the next page
    /// starts), `nil` when the page is empty.
    struct Page {
        let rows: [Int64]
        let lastKey: [StoredValue]?
    }

    /// The rows of `entity` (stubs left out) that `filter` matches and, when `keys` is not
    /// empty, whose primary key is one of them.
    /// - Throws: ``FilterError`` for a filter that names what the entity does not have.
    init(store: Store, entity: EntityPlan, filter: FilterExpression?, keys: [[StoredValue]]) throws(FilterError) {
        connection = store.connection
        let spec = entity.spec
        var conditions: [String] = []
        var parameters: [StoredValue] = []
        if let filter {
            var compiler = FilterCompiler(plan: store.plan)
            conditions.append(try compiler.compile(filter, on: entity, alias: "r"))
            parameters += compiler.parameters
        }
        if !keys.isEmpty {
            let (condition, list) = RecordReader.keyCondition(entity, keys: keys)
            conditions.append(condition)
            parameters.append(list)
        }
        if !spec.isOwned { conditions.append("r.\"_stub\" = 0") }
        self.conditions = conditions
        self.parameters = parameters
        orderColumns = (spec.isOwned ? [spec.rowIDColumn] : spec.primaryKey).map { "r.\(quote($0))" }
        base = "SELECT r.\(entity.rowID), \(orderColumns.joined(separator: ", ")) FROM \(entity.table) r"
    }

    /// The next `limit` rows after the row whose order columns hold `key` (from the start
    /// when `nil`).
    func page(after key: [StoredValue]?, limit: Int) throws -> Page {
        var conditions = self.conditions
        if key != nil {
            conditions.append("(\(orderColumns.joined(separator: ", "))) > (\(orderColumns.map { _ in "?" }.joined(separator: ", ")))")
        }
        var sql = base
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY \(orderColumns.joined(separator: ", ")) LIMIT \(limit)"
        let rows = try connection.rows(sql, parameters + (key ?? []))
        let ids = rows.compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { return id }
            return nil
        }
        return Page(rows: ids, lastKey: rows.last.map { Array($0.dropFirst()) })
    }
}
