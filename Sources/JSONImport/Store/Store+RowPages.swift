/// Reading rows a page at a time: the attributes of many rows of one entity in one statement,
/// and the links of many rows through one relationship in another, so that decoding records
/// with nested values costs a few statements per page rather than a few per row.
extension Store {
    /// Reads those of `rows` of `entity` that exist. Per row found it appends to `values` the
    /// row's attribute values, in attribute order, then per relationship of
    /// ``EntityPlan/selfColumns`` the row it links to (`.integer`, or `.null` for none).
    ///
    /// - Returns: the rows found, in ascending order.
    func readRows(of entity: EntityPlan, _ rows: [Int64], into values: inout [StoredValue]) throws(StoreError) -> [Int64] {
        try engine.readRows(of: entity, rows, into: &values)
    }

    /// Calls `body` with each link of `relationship` from `rows` of `entity`: the source row and
    /// the row it links to, grouped by source in ascending order, and in link order within a
    /// source.
    func forEachLink(
        _ relationship: RelationshipPlan, of entity: EntityPlan, rows: [Int64], _ body: (Int64, Int64) -> Void
    ) throws(StoreError) {
        try engine.forEachLink(relationship, of: entity, rows: rows, plan: plan, body)
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
        return try engine.keyValues(of: entity, rows: rows)
            .map { ($0.0, Self.keyValue($0.1, of: entity.spec)) }
            .sorted { $0.0 < $1.0 }
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
