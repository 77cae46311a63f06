/// Reading rows a page at a time: the attributes of many rows of one entity in one statement,
/// and the links of many rows through one relationship in another, so that decoding records
/// with nested values costs a few statements per page rather than a few per row.
extension Store {
    /// The stored attribute values (in attribute order) of those of `rows` that exist, by row.
    func attributeValues(of entity: EntityPlan, rows: [Int64]) throws(StoreError) -> [Int64: [StoredValue]] {
        guard !rows.isEmpty else { return [:] }
        let columns = entity.spec.attributes.map { quote($0.name) }.joined(separator: ", ")
        let statement = try connection.statement(
            "SELECT \(entity.rowID), \(columns) FROM \(entity.table) WHERE \(entity.rowID) IN (SELECT value FROM json_each(?))")
        defer { statement.reset() }
        statement.bind(Self.idList(rows), at: 1)
        var result: [Int64: [StoredValue]] = [:]
        result.reserveCapacity(rows.count)
        let count = entity.spec.attributes.count
        while try statement.step() {
            result[statement.int64(at: 0)] = (0..<count).map { statement.value(at: $0 + 1) }
        }
        return result
    }

    /// The rows `relationship` links each of `rows` to, in link order (as
    /// ``RecordReader/linkedRows(_:of:row:)`` reads them one row at a time); rows without links
    /// are left out.
    func linkedRows(_ relationship: RelationshipPlan, of entity: EntityPlan, rows: [Int64]) throws(StoreError) -> [Int64: [Int64]] {
        guard !rows.isEmpty else { return [:] }
        let target = plan.entities[relationship.target]
        let ids = "IN (SELECT value FROM json_each(?))"
        let sql: String
        switch relationship.storage {
        case .selfColumn(let column, _):
            sql = "SELECT \(entity.rowID), \(quote(column)) FROM \(entity.table) WHERE \(entity.rowID) \(ids) AND \(quote(column)) IS NOT NULL"
        case .otherColumn(let column):
            sql = "SELECT \(quote(column)), \(target.rowID) FROM \(target.table) WHERE \(quote(column)) \(ids) ORDER BY 1, 2"
        case .linkTable(let name, true):
            sql = "SELECT \"source\", \"target\" FROM \(quote(name)) WHERE \"source\" \(ids) ORDER BY \"source\", \"position\""
        case .linkTable(let name, false):
            sql = "SELECT \"target\", \"source\" FROM \(quote(name)) WHERE \"target\" \(ids) ORDER BY \"target\", \"source\""
        }
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        statement.bind(Self.idList(rows), at: 1)
        var result: [Int64: [Int64]] = [:]
        while try statement.step() {
            result[statement.int64(at: 0), default: []].append(statement.int64(at: 1))
        }
        return result
    }

    /// The keys of `rows`, in row order.
    func keys(of entity: EntityPlan, rows: [Int64]) throws -> [(Int64, RecordValue)] {
        guard !rows.isEmpty else { return [] }
        let keys = entity.spec.keyAttributes
        let columns = ([entity.rowID] + keys.map { quote($0.name) }).joined(separator: ", ")
        var result: [(Int64, RecordValue)] = []
        try SQLiteConnection.forEachIDList(rows) { (ids) throws(StoreError) in
            let found = try connection.rows(
                "SELECT \(columns) FROM \(entity.table) WHERE \(entity.rowID) IN (SELECT value FROM json_each(?))", [ids])
            for values in found {
                guard case .integer(let row) = values[0] else { continue }
                result.append((row, Self.keyValue(Array(values.dropFirst()), of: entity.spec)))
            }
        }
        return result.sorted { $0.0 < $1.0 }
    }

    /// Rows read per statement when a read goes a page at a time.
    static let rowsPerStatement = 500

    /// `rows` in pages of ``rowsPerStatement``, in order.
    static func pages(of rows: [Int64]) -> [[Int64]] {
        stride(from: 0, to: rows.count, by: rowsPerStatement).map { Array(rows[$0..<min($0 + rowsPerStatement, rows.count)]) }
    }

    /// Row ids as the JSON array `json_each` reads.
    static func idList(_ rows: [Int64]) -> String {
        "[" + rows.map(String.init).joined(separator: ",") + "]"
    }
}
