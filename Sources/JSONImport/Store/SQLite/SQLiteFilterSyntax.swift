/// Filters and sort keys in SQLite's SQL: `IS` is null-safe, a decimal compares under the
/// ``SQLiteConnection/decimalCollation``, and `LIKE` is already what a filter's is.
enum SQLiteFilterSyntax: FilterSyntax {
    static func isNotTrue(_ condition: String) -> String {
        // `x IS NOT 1` rather than `NOT coalesce(x, 0)`: SQLite's parser holds less.
        "(\(condition)) IS NOT 1"
    }

    static func isNotDistinct(_ a: String, from b: String, valueIsNull: Bool) -> String { "\(a) IS \(b)" }

    static func isDistinct(_ a: String, from b: String) -> String { "\(a) IS NOT \(b)" }

    /// Decimals by numeric value, whatever digits their text spells them with (`10.5` =
    /// `10.50`); the collation applies to the value compared with the column too.
    static func compared(_ column: String, _ attribute: AttributeSpec) -> String {
        attribute.type == .decimal ? "\(column) COLLATE \(SQLiteConnection.decimalCollation)" : column
    }

    static func comparedValue(_ placeholder: String, _ attribute: AttributeSpec) -> String { placeholder }

    /// `IN (?, ?, …)`: a parameter per value.
    static func isIn(_ compared: String, _ values: [StoredValue], _ attribute: AttributeSpec) -> (sql: String, parameters: [StoredValue]) {
        ("\(compared) IN (\(values.map { _ in comparedValue("?", attribute) }.joined(separator: ", ")))", values)
    }

    static func like(_ column: String, _ attribute: AttributeSpec) -> String { "\(column) LIKE ?" }

    /// `json_each` gives strings as text, numbers as numbers and `true` as 1: the stored form
    /// of an element of each type. Decimals compare by the numbers they spell.
    static func contains(_ column: String, _ element: StoredValue, of type: ScalarType) -> (sql: String, parameters: [StoredValue]) {
        let collation = type == .decimal ? " COLLATE \(SQLiteConnection.decimalCollation)" : ""
        return ("EXISTS (SELECT 1 FROM json_each(\(column)) WHERE value = ?\(collation))", [element])
    }

    /// SQLite sorts NULL before every value.
    static func orderTerm(_ key: String, descending: Bool) -> String { descending ? key + " DESC" : key }

    /// SQLite orders by a subquery with the collation named on the subquery; one named on the
    /// column inside it is lost, and decimals through a relationship would sort as text.
    static var comparesInsideSubqueries: Bool { false }
}

/// The filter compiler of the SQLite store.
typealias SQLiteFilterCompiler = FilterCompiler<SQLiteFilterSyntax>
