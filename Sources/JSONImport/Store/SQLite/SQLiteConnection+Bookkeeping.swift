extension SQLiteConnection {
    /// Runs of at least this many consecutive row ids are updated as one range.
    private static let minimumRange = 16

    /// Sets `column` to `value` in the rows `rows` (ascending, no repeats) of `entity`. Runs of
    /// consecutive ids, which SQLite hands out to rows inserted together, are updated by range;
    /// the other rows by one statement per 50,000, their ids passed as a JSON array.
    func setColumn(_ column: String, of entity: EntityPlan, rows: [Int64], to value: StoredValue) throws(StoreError) {
        let set = "UPDATE \(entity.table) SET \(quote(column)) = ? WHERE \(entity.rowID)"
        var scattered: [Int64] = []
        var start = 0
        while start < rows.count {
            var end = start + 1
            while end < rows.count && rows[end] == rows[end - 1] + 1 { end += 1 }
            if end - start >= Self.minimumRange {
                try run("\(set) BETWEEN ? AND ?", [value, .integer(rows[start]), .integer(rows[end - 1])])
            } else {
                scattered.append(contentsOf: rows[start..<end])
            }
            start = end
        }
        try Self.forEachIDList(scattered) { (ids) throws(StoreError) in
            try run("\(set) IN (SELECT value FROM json_each(?))", [value, ids])
        }
    }

    /// Calls `body` with `rows` as JSON arrays of at most 50,000 ids (text for `json_each(?)`),
    /// so one statement covers thousands of rows.
    static func forEachIDList<E: Error>(_ rows: [Int64], _ body: (StoredValue) throws(E) -> Void) throws(E) {
        let chunkSize = 50_000
        for start in stride(from: 0, to: rows.count, by: chunkSize) {
            try body(.text(Store.idList(rows[start..<min(start + chunkSize, rows.count)])))
        }
    }
}
