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

    init(_ schema: StorageSchema) {
        tables = [:]
        creates = [:]
        indexes = [:]
        indexTables = [:]
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

    /// The column name of a definition line.
    static func columnName(_ definition: String) -> String {
        name(in: " " + definition, after: " ")
    }
}
