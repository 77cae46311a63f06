/// The originals of changed rows (what they held before the import, see ``RowTracker``) moved
/// out of memory into temporary tables, one per entity, so that an import changing millions of
/// existing rows holds only a few MB of them at a time. The tables' value columns have no type
/// affinity, so values read back exactly as they were written; they live in the import's
/// transaction and are dropped when the import has settled its counts.
final class SpilledOriginals {
    private let connection: SQLiteConnection
    private let plan: ImportPlan
    /// Per entity (by index): the prepared insert into its table, once it has one.
    private var inserts: [Int: SQLiteStatement] = [:]

    init(connection: SQLiteConnection, plan: ImportPlan) {
        self.connection = connection
        self.plan = plan
    }

    /// Whether any original of `entity` was moved out.
    func holds(_ entity: Int) -> Bool { inserts[entity] != nil }

    /// Moves `originals` (per entity: row → values) into the tables; a row already there keeps
    /// its first original.
    func append(_ originals: [[Int64: [StoredValue]]]) throws(StoreError) {
        for (entity, rows) in originals.enumerated() where !rows.isEmpty {
            let insert = try self.insert(for: entity)
            for row in rows.keys.sorted() {
                let values = rows[row]!
                insert.reset()
                insert.bind(row, at: 1)
                insert.bind(Int64(values.count), at: 2)
                for column in 0..<columnCount(entity) {
                    insert.bind(column < values.count ? values[column] : .null, at: Int32(column + 3))
                }
                try insert.step()
            }
        }
    }

    /// Up to `limit` originals of `entity` moved out, of rows after `row` (from the first with
    /// `nil`), in row order.
    func originals(of entity: Int, after row: Int64?, limit: Int) throws(StoreError) -> [(row: Int64, values: [StoredValue])] {
        guard holds(entity) else { return [] }
        let select = try connection.prepare(
            "SELECT * FROM \(table(entity))\(row == nil ? "" : " WHERE \"row\" > ?") ORDER BY \"row\" LIMIT \(limit)")
        if let row { select.bind(row, at: 1) }
        var result: [(row: Int64, values: [StoredValue])] = []
        while try select.step() {
            let count = Int(select.int64(at: 1))
            result.append((select.int64(at: 0), (0..<count).map { select.value(at: $0 + 2) }))
        }
        return result
    }

    /// Drops the tables made so far.
    func drop() throws(StoreError) {
        for entity in inserts.keys.sorted() {
            inserts[entity] = nil
            try connection.execute("DROP TABLE IF EXISTS temp.\(table(entity))")
        }
    }

    private func insert(for entity: Int) throws(StoreError) -> SQLiteStatement {
        if let insert = inserts[entity] { return insert }
        let columns = (0..<columnCount(entity)).map { ", \"v\($0)\"" }.joined()
        try connection.execute(
            "DROP TABLE IF EXISTS temp.\(table(entity)); CREATE TEMP TABLE \(table(entity)) (\"row\" INTEGER PRIMARY KEY, \"count\" INTEGER NOT NULL\(columns))")
        let placeholders = String(repeating: ", ?", count: columnCount(entity))
        let insert = try connection.prepare("INSERT OR IGNORE INTO \(table(entity)) VALUES (?, ?\(placeholders))")
        inserts[entity] = insert
        return insert
    }

    /// The values an original of `entity` holds: its attributes and link columns.
    private func columnCount(_ entity: Int) -> Int {
        plan.entities[entity].attributes.count + plan.entities[entity].selfColumns.count
    }

    private func table(_ entity: Int) -> String { quote("_import_originals_\(entity)") }
}
