import Foundation

/// A comparable description of the storage a spec needs: each table's column definitions and
/// each index's statement. Recorded in the store's metadata table; diffed on open (SPEC 5).
struct StoreSchemaState: Codable, Equatable {
    /// Table name → column definitions in order.
    var tables: [String: [String]]
    /// Table name → its CREATE TABLE statement.
    var creates: [String: String]
    /// Index name → its CREATE INDEX statement.
    var indexes: [String: String]
    /// Index name → the table it belongs to.
    var indexTables: [String: String]
    /// Table name → attribute column → the attribute's type (`int`, `[date]`), for the tables
    /// of entities: what a column's values mean, which its SQL type alone does not say (SQLite
    /// keeps `bool` and `int` alike, `date` and `double` alike). `nil` in a store recorded before
    /// the types were; ``columnType(of:in:)`` then reads them off the column definitions.
    var types: [String: [String: String]]?

    init(_ schema: StorageSchema) {
        tables = [:]
        creates = [:]
        indexes = [:]
        indexTables = [:]
        types = Dictionary(schema.spec.entities.map { entity in
            (entity.table, Dictionary(entity.attributes.map { ($0.name, $0.type.description) }, uniquingKeysWith: { a, _ in a }))
        }, uniquingKeysWith: { a, _ in a })
        for statement in schema.statements.dropFirst() {
            if statement.hasPrefix("CREATE TABLE") {
                let name = Self.name(in: statement, after: "CREATE TABLE ")
                creates[name] = statement
                tables[name] = Self.columns(of: statement)
            } else {
                let name = Self.name(in: statement, after: statement.hasPrefix("CREATE UNIQUE") ? "CREATE UNIQUE INDEX " : "CREATE INDEX ")
                indexes[name] = statement
                indexTables[name] = Self.name(in: statement, after: " ON ")
            }
        }
    }

    /// The state as the metadata table records it: JSON with sorted keys.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding dictionaries of strings cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The quoted identifier following `marker`, unquoted.
    static func name(in statement: String, after marker: String) -> String {
        guard let start = statement.range(of: marker)?.upperBound else { return "" }
        var result = ""
        var index = statement.index(after: start)  // skip the opening quote
        while index < statement.endIndex {
            let c = statement[index]
            let next = statement.index(after: index)
            if c == "\"" {
                if next < statement.endIndex && statement[next] == "\"" {
                    result.append("\"")
                    index = statement.index(after: next)
                    continue
                }
                break
            }
            result.append(c)
            index = next
        }
        return result
    }

    /// The column definition lines of a CREATE TABLE statement as StorageSchema writes it.
    static func columns(of statement: String) -> [String] {
        statement.split(separator: "\n").dropFirst().dropLast().map {
            var line = $0.trimmingCharacters(in: .whitespaces)
            if line.hasSuffix(",") { line.removeLast() }
            return line
        }.filter { !$0.hasPrefix("PRIMARY KEY") }
    }

    /// The recorded type of attribute `column` of `table`; `nil` for a column no attribute has
    /// (row ids, links, bookkeeping) or a store recorded before the types were.
    func recordedType(of column: String, in table: String) -> AttributeType? {
        types?[table]?[column].flatMap(AttributeType.init(parsing:))
    }

    /// The type column `column` of `table` stores by its SQL type (`INTEGER` an `int`, `REAL` a
    /// `double`, `TEXT` a `string`; PostgreSQL's `bool`, `timestamptz` and `uuid` as named): what
    /// a store recorded before the types were tells of them. `nil` for a bookkeeping column.
    func columnType(of column: String, in table: String) -> AttributeType? {
        guard !column.hasPrefix("_"), let definition = tables[table]?.first(where: { Self.columnName($0) == column }) else { return nil }
        switch definition.dropFirst(quote(column).count + 1).prefix(while: { $0 != " " }) {
        case "INTEGER", "int8": return .int
        case "REAL", "float8": return .double
        case "bool": return .bool
        case "timestamptz": return .date
        case "uuid": return .uuid
        default: return .string
        }
    }

    /// The column name of a definition line.
    static func columnName(_ definition: String) -> String {
        name(in: " " + definition, after: " ")
    }
}
