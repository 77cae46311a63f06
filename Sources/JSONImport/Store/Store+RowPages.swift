/// Reading rows a page at a time: the attributes of many rows of one entity in one statement,
/// and the links of many rows through one relationship in another, so that decoding records
/// with nested values costs a few statements per page rather than a few per row.
///
/// A page picks its rows by range when their ids are dense (rows imported together have
/// neighbouring ids), skipping the few in the range it did not ask for, and by an id list
/// otherwise.
extension Store {
    /// Reads those of `rows` of `entity` that exist. Per row found it appends to `values` the
    /// row's attribute values, in attribute order, then per relationship of
    /// ``EntityPlan/selfColumns`` the row it links to (`.integer`, or `.null` for none).
    ///
    /// - Returns: the rows found, in ascending order.
    func readRows(of entity: EntityPlan, _ rows: [Int64], into values: inout [StoredValue]) throws(StoreError) -> [Int64] {
        let selection = RowSelection(rows)
        guard !selection.rows.isEmpty else { return [] }
        let columns = entity.spec.attributes.map { quote($0.name) }
            + entity.selfColumns.map { quote(entity.relationships[$0].columnName!) }
        let statement = try connection.statement(
            "SELECT \(entity.rowID), \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE \(selection.condition(on: entity.rowID))")
        defer { statement.reset() }
        selection.bind(to: statement)
        var found: [Int64] = []
        found.reserveCapacity(selection.rows.count)
        var filter = selection.filter
        while try statement.step() {
            let row = statement.int64(at: 0)
            guard filter.wants(row) else { continue }
            found.append(row)
            for column in 1...columns.count { values.append(statement.value(at: column)) }
        }
        return found
    }

    /// Calls `body` with each link of `relationship` from `rows` of `entity`: the source row and
    /// the row it links to, grouped by source in ascending order, and in link order within a
    /// source (as ``RecordReader/linkedRows(_:of:row:)`` reads them one row at a time).
    func forEachLink(
        _ relationship: RelationshipPlan, of entity: EntityPlan, rows: [Int64], _ body: (Int64, Int64) -> Void
    ) throws(StoreError) {
        let selection = RowSelection(rows)
        guard !selection.rows.isEmpty else { return }
        let target = plan.entities[relationship.target]
        let sql: String
        switch relationship.storage {
        case .selfColumn(let column, _):
            sql = "SELECT \(entity.rowID), \(quote(column)) FROM \(entity.table) WHERE \(selection.condition(on: entity.rowID)) AND \(quote(column)) IS NOT NULL"
        case .otherColumn(let column):
            sql = "SELECT \(quote(column)), \(target.rowID) FROM \(target.table) WHERE \(selection.condition(on: quote(column))) ORDER BY 1, 2"
        case .linkTable(let name, true):
            // In key order (source, target), which needs no sort; each source's links are put in
            // position order here.
            sql = "SELECT \"source\", \"target\", \"position\" FROM \(quote(name)) WHERE \(selection.condition(on: "\"source\"")) ORDER BY \"source\", \"target\""
        case .linkTable(let name, false):
            sql = "SELECT \"target\", \"source\" FROM \(quote(name)) WHERE \(selection.condition(on: "\"target\"")) ORDER BY \"target\", \"source\""
        }
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        selection.bind(to: statement)
        var filter = selection.filter
        guard case .linkTable(_, true) = relationship.storage else {
            while try statement.step() {
                let source = statement.int64(at: 0)
                if filter.wants(source) { body(source, statement.int64(at: 1)) }
            }
            return
        }
        var source: Int64 = 0
        var links = PositionedLinks()
        func flush() {
            for target in links.inLinkOrder { body(source, target) }
            links.removeAll()
        }
        while try statement.step() {
            let next = statement.int64(at: 0)
            guard filter.wants(next) else { continue }
            if next != source { flush() }
            source = next
            links.append(statement.int64(at: 1), at: statement.int64(at: 2))
        }
        flush()
    }

    /// The rows `relationship` links each of `rows` to, in link order; rows without links are
    /// left out.
    func linkedRows(_ relationship: RelationshipPlan, of entity: EntityPlan, rows: [Int64]) throws(StoreError) -> [Int64: [Int64]] {
        var result: [Int64: [Int64]] = [:]
        try forEachLink(relationship, of: entity, rows: rows) { result[$0, default: []].append($1) }
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

    /// Row ids as the JSON array `json_each` reads, written digit by digit (a page's list is
    /// written for every statement that reads it).
    static func idList(_ rows: some Collection<Int64>) -> String {
        String(unsafeUninitializedCapacity: rows.count * 21 + 2) { buffer in
            var end = 0
            func put(_ byte: UInt8) {
                buffer[end] = byte
                end += 1
            }
            put(UInt8(ascii: "["))
            for row in rows {
                if end > 1 { put(UInt8(ascii: ",")) }
                if row < 0 { put(UInt8(ascii: "-")) }
                var magnitude = row.magnitude
                let first = end
                repeat {
                    put(UInt8(ascii: "0") + UInt8(magnitude % 10))
                    magnitude /= 10
                } while magnitude > 0
                buffer[first..<end].reverse()
            }
            put(UInt8(ascii: "]"))
            return end
        }
    }
}
