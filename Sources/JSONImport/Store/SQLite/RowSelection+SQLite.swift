/// The rows of a selection in SQLite's SQL: a range, or an id list read with `json_each`.
extension RowSelection {
    /// The condition on `column` (quoted), with its parameters at 1 (and 2).
    func condition(on column: String) -> String {
        isRange ? "\(column) BETWEEN ?1 AND ?2" : "\(column) IN (SELECT value FROM json_each(?1))"
    }

    func bind(to statement: SQLiteStatement) {
        if isRange {
            statement.bind(rows[0], at: 1)
            statement.bind(rows[rows.count - 1], at: 2)
        } else {
            statement.bind(Store.idList(rows), at: 1)
        }
    }
}
