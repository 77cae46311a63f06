/// The rows of a selection in PostgreSQL's SQL: a range, or an `int8[]` id list.
extension RowSelection {
    /// The condition on `column` (quoted), with its parameters at `$1` (and `$2`).
    func postgresCondition(on column: String) -> String {
        isRange ? "\(column) BETWEEN $1 AND $2" : "\(column) = ANY($1::int8[])"
    }

    /// The parameters of ``postgresCondition(on:)``.
    var postgresParameters: [StoredValue] {
        isRange ? [.integer(rows[0]), .integer(rows[rows.count - 1])] : [PostgresEngine.array(rows)]
    }
}
