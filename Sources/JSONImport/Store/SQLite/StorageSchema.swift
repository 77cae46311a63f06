/// The SQLite storage a mapping spec produces: tables, columns, link tables and indexes.
///
/// One component turns the spec into DDL, so a PostgreSQL dialect can later sit beside it.
///
/// ```swift
/// let schema = StorageSchema(spec: try MappingSpec.load(from: "Mappings"))
/// for statement in schema.statements { print(statement + ";") }
/// ```
public struct StorageSchema: Sendable, Hashable {
    /// The mappings the storage is derived from.
    public let spec: MappingSpec

    /// Creates the storage description of a spec.
    ///
    /// - Parameter spec: validated mappings.
    public init(spec: MappingSpec) { self.spec = spec }

    /// Name of the table that records the schema a store was created from.
    public static let metadataTable = "_jsonimport_meta"

    /// Every statement that creates the storage, in dependency order, without trailing `;`.
    public var statements: [String] {
        var result = ["CREATE TABLE \(quote(Self.metadataTable)) (\"key\" TEXT PRIMARY KEY, \"value\" TEXT NOT NULL)"]
        for entity in spec.entities {
            result.append(createTable(entity))
            result += indexes(entity)
        }
        for link in spec.links {
            guard case .linkTable(let name) = link.storage else { continue }
            result += linkTable(name, link)
        }
        return result
    }

    /// The columns of `entity`'s table, in table order.
    public func columns(of entity: EntitySpec) -> [Column] {
        var columns: [Column] = []
        if entity.rowIDColumn == "_id" {
            columns.append(Column(name: "_id", kind: .integer, constraint: "PRIMARY KEY"))
        }
        for attribute in entity.attributes {
            let isRowID = attribute.name == entity.rowIDColumn
            columns.append(Column(
                name: attribute.name, kind: Column.Kind(attribute.type),
                constraint: isRowID ? "PRIMARY KEY" : (entity.primaryKey.contains(attribute.name) ? "NOT NULL" : nil)))
        }
        for (link, _) in foreignKeys(heldBy: entity) {
            guard case .foreignKey(_, let column, let onSource, _) = link.storage else { continue }
            let pointsTo = spec[entity: onSource ? link.target : link.source]
            columns.append(Column(
                name: column, kind: .integer,
                constraint: "REFERENCES \(quote(pointsTo.table))(\(quote(pointsTo.rowIDColumn))) ON DELETE SET NULL"))
        }
        if entity.hasTimestamps {
            for name in ["_created_at", "_updated_at", "_seen_at"] {
                columns.append(Column(name: name, kind: .real, constraint: nil))
            }
        }
        if !entity.isOwned {
            columns.append(Column(name: "_stub", kind: .integer, constraint: "NOT NULL DEFAULT 0"))
        }
        assert(columns.count == entity.columnCount(links: spec.links), "the loader's column limit counts these columns")
        return columns
    }

    /// Foreign-key links whose column sits in `entity`'s table.
    func foreignKeys(heldBy entity: EntitySpec) -> [(Link, Int)] {
        spec.links.enumerated().compactMap { index, link in
            guard case .foreignKey(let table, _, _, _) = link.storage, table == entity.table else { return nil }
            return (link, index)
        }
    }

    /// A table column as the DDL declares it.
    public struct Column: Sendable, Hashable {
        /// The column name, unquoted.
        public let name: String
        /// What the column holds.
        public let kind: Kind
        /// What follows the type in the DDL (`PRIMARY KEY`, `NOT NULL`, `REFERENCES …`); `nil` for none.
        public let constraint: String?

        /// What a column holds: integers (`int`, `bool`, row ids, link columns), floating-point
        /// numbers (`double`, `date` as seconds since 1970) or text (everything else).
        public enum Kind: Sendable, Hashable {
            case integer
            case real
            case text

            /// The kind of column an attribute of `type` is stored in.
            public init(_ type: AttributeType) {
                switch type {
                case .scalar(.int), .scalar(.bool): self = .integer
                case .scalar(.double), .scalar(.date): self = .real
                default: self = .text
                }
            }
        }

        var definition: String {
            [quote(name), Self.typeName(kind), constraint].compactMap { $0 }.joined(separator: " ")
        }

        /// The SQLite type of a column kind.
        static func typeName(_ kind: Kind) -> String {
            switch kind {
            case .integer: return "INTEGER"
            case .real: return "REAL"
            case .text: return "TEXT"
            }
        }
    }

    private func createTable(_ entity: EntitySpec) -> String {
        let body = columns(of: entity).map { "  " + $0.definition }.joined(separator: ",\n")
        return "CREATE TABLE \(quote(entity.table)) (\n\(body)\n)"
    }

    private func indexes(_ entity: EntitySpec) -> [String] {
        var result: [String] = []
        let table = entity.table
        if !entity.isOwned && entity.rowIDColumn == "_id" {
            let keys = entity.primaryKey.map(quote).joined(separator: ", ")
            result.append("CREATE UNIQUE INDEX \(quote("\(table)_key")) ON \(quote(table))(\(keys))")
        }
        for attribute in entity.attributes where attribute.isIndexed || attribute.isUnique {
            guard !entity.primaryKey.contains(attribute.name) || entity.primaryKey.count > 1 else { continue }
            let kind = attribute.isUnique ? "UNIQUE INDEX" : "INDEX"
            result.append(
                "CREATE \(kind) \(quote("\(table)_\(attribute.name)")) ON \(quote(table))(\(quote(attribute.name)))")
        }
        for (link, _) in foreignKeys(heldBy: entity) {
            guard case .foreignKey(_, let column, _, let isUnique) = link.storage else { continue }
            let kind = isUnique ? "UNIQUE INDEX" : "INDEX"
            result.append("CREATE \(kind) \(quote("\(table)_\(column)")) ON \(quote(table))(\(quote(column)))")
        }
        return result
    }

    private func linkTable(_ name: String, _ link: Link) -> [String] {
        let source = spec[entity: link.source]
        let target = spec[entity: link.target]
        let create = """
            CREATE TABLE \(quote(name)) (
              "source" INTEGER NOT NULL REFERENCES \(quote(source.table))(\(quote(source.rowIDColumn))) ON DELETE CASCADE,
              "target" INTEGER NOT NULL REFERENCES \(quote(target.table))(\(quote(target.rowIDColumn))) ON DELETE CASCADE,
              "position" INTEGER NOT NULL,
              PRIMARY KEY ("source", "target")
            ) WITHOUT ROWID
            """
        return [create, Self.targetIndex(ofLinkTable: name).create]
    }

    /// The index on a link table's `target` column: reads from the back side and deletions of
    /// targets go through it.
    static func targetIndex(ofLinkTable table: String, ifNotExists: Bool = false) -> (name: String, create: String) {
        let name = quote("\(table)_target")
        return (name, "CREATE INDEX \(ifNotExists ? "IF NOT EXISTS " : "")\(name) ON \(quote(table))(\"target\")")
    }
}

/// Quotes an SQL identifier.
func quote(_ identifier: String) -> String {
    var result = "\""
    for character in identifier {
        result.append(character)
        if character == "\"" { result.append(character) }
    }
    return result + "\""
}
