extension SQLiteConnection {
    /// Sets `column` to `value` in the rows `rows` of `entity`: one statement per 50,000 rows,
    /// the ids passed as a JSON array.
    func setColumn(_ column: String, of entity: EntityPlan, rows: [Int64], to value: StoredValue) throws(StoreError) {
        let chunkSize = 50_000
        for start in stride(from: 0, to: rows.count, by: chunkSize) {
            let ids = rows[start..<min(start + chunkSize, rows.count)].map(String.init).joined(separator: ",")
            try run(
                "UPDATE \(entity.table) SET \(quote(column)) = ? WHERE \(entity.rowID) IN (SELECT value FROM json_each(?))",
                [value, .text("[\(ids)]")])
        }
    }
}
