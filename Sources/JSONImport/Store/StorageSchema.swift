/// The storage a mapping spec produces: tables, columns, link tables and indexes, as DDL of
/// one SQL dialect (SQLite, the embedded default, or PostgreSQL).
///
/// Both dialects lay the store out alike: one table per entity with a column per attribute,
/// the row id (a single `int` key, else `_id`), link columns and bookkeeping columns, a link
/// table per link stored as one, and the same indexes, under the same names. Column types
/// follow each dialect (SPEC 5, 6).
///
/// ```swift
/// let schema = StorageSchema(spec: try MappingSpec.load(from: "Mappings"), dialect: .postgres)
/// for statement in schema.statements { print(statement + ";") }
/// ```
public struct StorageSchema: Sendable, Hashable {
    /// The mappings the storage is derived from.
    public let spec: MappingSpec
    /// The SQL the statements are written in.
    public let dialect: SQLDialect

    /// Creates the storage description of a spec.
    ///
    /// - Parameters:
    ///   - spec: validated mappings.
    ///   - dialect: the SQL to write; SQLite by default.
    public init(spec: MappingSpec, dialect: SQLDialect = .sqlite) {
        self.spec = spec
        self.dialect = dialect
    }

    /// Name of the table that records the schema a store was created from.
    public static let metadataTable = "_jsonimport_meta"

    /// Every statement that creates the storage, in dependency order, without trailing `;`.
    public var statements: [String] {
        let text = dialect.typeName(of: .scalar(.string))
        var result = ["CREATE TABLE \(quote(Self.metadataTable)) (\"key\" \(text) PRIMARY KEY, \"value\" \(text) NOT NULL)"]
        for (e, entity) in spec.entities.enumerated() {
            result.append(createTable(entity))
            result += indexes(entity, at: e)
            if dialect == .postgres && entity.hasTimestamps {
                let key = seenTenantColumn(of: entity).map { "\(quote($0.name)) \($0.typeName) NOT NULL, \"_id\" int8, " } ?? "\"_id\" int8 PRIMARY KEY, "
                let tenantKey = seenTenantColumn(of: entity).map { ", PRIMARY KEY (\(quote($0.name)), \"_id\")" } ?? ""
                result.append(
                    "CREATE TABLE \(quote(Self.seenTable(of: entity.table))) (\(key)\"_seen_at\" timestamptz NOT NULL\(tenantKey)) "
                        + "WITH (fillfactor = 50)")
            }
        }
        for link in spec.links {
            guard case .linkTable(let name) = link.storage else { continue }
            result += linkTable(name, link)
        }
        return result
    }

    /// The tables of `statements` an import may fill first and index after, on PostgreSQL:
    /// the tables of entities with no distribution, no `unique` attribute and no one ↔ one
    /// link column (whose unique indexes an import relies on as it writes), and the link
    /// tables between such entities. Their indexes are the same once built.
    var tablesIndexedAfterLoading: [String] {
        guard dialect == .postgres else { return [] }
        func qualifies(_ entity: EntitySpec) -> Bool {
            entity.distribution == nil && !entity.attributes.contains(where: \.isUnique)
                && !foreignKeys(heldBy: entity).contains { link, _ in
                    if case .foreignKey(_, _, _, let isUnique) = link.storage { return isUnique }
                    return false
                }
        }
        var tables = spec.entities.filter(qualifies).map(\.table)
        for link in spec.links {
            guard case .linkTable(let name) = link.storage, qualifies(spec[entity: link.source]), qualifies(spec[entity: link.target])
            else { continue }
            tables.append(name)
        }
        return tables
    }

    /// The calls of a distributed PostgreSQL (Citus) that spread the tables of `statements`
    /// (SPEC 6): each table of a distributed entity, its seen table and its link tables by its
    /// tenant column, co-located with the first distributed table of the same tenant type; each
    /// table of a reference entity (and its link tables), and the bookkeeping table, on every
    /// node.
    public var distributionStatements: [String] {
        // The bookkeeping table is read and written with every table: every node holds it.
        var result = ["SELECT create_reference_table('\(literal(quote(Self.metadataTable)))')"]
        var firstOfType: [String: String] = [:]
        func distribute(_ table: String, by column: Column) {
            let group = firstOfType[column.typeName].map { "'\(literal(quote($0)))'" } ?? "'none'"
            if firstOfType[column.typeName] == nil { firstOfType[column.typeName] = table }
            result.append(
                "SELECT create_distributed_table('\(literal(quote(table)))', '\(literal(column.name))', colocate_with => \(group))")
        }
        for entity in spec.entities {
            if entity.distribution == .reference {
                result.append("SELECT create_reference_table('\(literal(quote(entity.table)))')")
                if entity.hasTimestamps && dialect == .postgres {
                    result.append("SELECT create_reference_table('\(literal(quote(Self.seenTable(of: entity.table))))')")
                }
            } else if let tenant = tenantColumn(of: entity) {
                distribute(entity.table, by: tenant)
                if entity.hasTimestamps && dialect == .postgres {
                    // The seen table of an entity whose key is its tenant is keyed by that row id.
                    let column = seenTenantColumn(of: entity) ?? Column(name: "_id", kind: .integer, typeName: "int8", constraint: nil)
                    distribute(Self.seenTable(of: entity.table), by: column)
                }
            }
        }
        for link in spec.links {
            guard case .linkTable(let name) = link.storage else { continue }
            let source = spec[entity: link.source]
            if let tenant = tenantColumn(of: source) {
                distribute(name, by: tenant)
            } else if source.distribution == .reference {
                result.append("SELECT create_reference_table('\(literal(quote(name)))')")
            }
        }
        return result
    }

    /// The tenant column of a distributed entity's tables, on PostgreSQL (SPEC 6): SQLite, one
    /// node, keeps the tenant only in the entity's keys.
    func tenantColumn(of entity: EntitySpec) -> Column? {
        guard dialect == .postgres, let name = entity.tenantAttribute, let attribute = entity.attribute(named: name) else {
            return nil
        }
        return Column(name: name, kind: Column.Kind(attribute.type), typeName: dialect.typeName(of: attribute.type), constraint: "NOT NULL")
    }

    /// The tenant column of a distributed entity's seen table: none when the entity's key is
    /// its tenant, which the table's `_id` then holds.
    func seenTenantColumn(of entity: EntitySpec) -> Column? {
        entity.rowIDColumn == entity.tenantAttribute ? nil : tenantColumn(of: entity)
    }

    /// The table where PostgreSQL keeps when rows of the entity table `table` were last seen
    /// unchanged: `_seen_at` of a row is the later of its column and its row here. An import
    /// that sees a row without changing it writes this narrow row, not the whole row again
    /// (MVCC copies a row on every update).
    static func seenTable(of table: String) -> String { table + "__seen" }

    /// Whether `table` is the seen table of an entity table among `tables`.
    static func isSeenTable(_ table: String, among tables: some Collection<String>) -> Bool {
        table.hasSuffix("__seen") && tables.contains(String(table.dropLast("__seen".count)))
    }

    /// The columns of `entity`'s table, in table order.
    public func columns(of entity: EntitySpec) -> [Column] {
        var columns: [Column] = []
        let rowID = dialect.typeName(of: .scalar(.int))
        if entity.rowIDColumn == "_id" {
            // A distributed table's primary key holds its tenant (see `createTable`).
            let constraint = tenantColumn(of: entity) == nil ? "PRIMARY KEY" : "NOT NULL"
            columns.append(Column(name: "_id", kind: .integer, typeName: rowID, constraint: constraint))
        }
        for attribute in entity.attributes {
            let isRowID = attribute.name == entity.rowIDColumn
            columns.append(Column(
                name: attribute.name, kind: Column.Kind(attribute.type), typeName: dialect.typeName(of: attribute.type),
                constraint: isRowID ? "PRIMARY KEY" : (entity.primaryKey.contains(attribute.name) ? "NOT NULL" : nil)))
        }
        for (link, _) in foreignKeys(heldBy: entity) {
            guard case .foreignKey(_, let column, let onSource, _) = link.storage else { continue }
            let pointsTo = spec[entity: onSource ? link.target : link.source]
            columns.append(Column(
                name: column, kind: .integer, typeName: rowID,
                constraint: dialect.declaresForeignKeys
                    ? "REFERENCES \(quote(pointsTo.table))(\(quote(pointsTo.rowIDColumn))) ON DELETE SET NULL" : nil))
        }
        if entity.hasTimestamps {
            for name in ["_created_at", "_updated_at", "_seen_at"] {
                columns.append(Column(name: name, kind: .real, typeName: dialect.typeName(of: .scalar(.date)), constraint: nil))
            }
        }
        if !entity.isOwned {
            let isBool = dialect == .postgres
            columns.append(Column(
                name: "_stub", kind: .integer, typeName: dialect.typeName(of: .scalar(.bool)),
                constraint: "NOT NULL DEFAULT \(isBool ? "false" : "0")"))
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
        /// The column's type in the schema's dialect: `INTEGER`, `REAL` or `TEXT` for SQLite;
        /// `int8`, `float8`, `bool`, `timestamptz`, `uuid` or `text COLLATE "C"` for PostgreSQL.
        public let typeName: String
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
            [quote(name), typeName, constraint].compactMap { $0 }.joined(separator: " ")
        }
    }

    private func createTable(_ entity: EntitySpec) -> String {
        var lines = columns(of: entity).map { "  " + $0.definition }
        if let tenant = tenantColumn(of: entity), entity.rowIDColumn == "_id" {
            lines.append("  PRIMARY KEY (\(quote(tenant.name)), \"_id\")")
        }
        return "CREATE TABLE \(quote(entity.table)) (\n\(lines.joined(separator: ",\n"))\n)"
    }

    private func indexes(_ entity: EntitySpec, at e: Int) -> [String] {
        indexList(entity, at: e).map { index in
            "CREATE \(index.isUnique ? "UNIQUE INDEX" : "INDEX") \(quote(index.name)) ON \(quote(entity.table))"
                + "(\(index.columns.joined(separator: ", ")))"
        }
    }

    /// An index of an entity's table: its name, whether it is unique, its columns (quoted), and
    /// what in the mappings makes it.
    struct Index {
        let name: String
        let isUnique: Bool
        let columns: [String]
        let source: NameSource
    }

    /// The indexes of `entity`'s table (the `e`th entity of the spec): its key's (where the row
    /// id is `_id`), its indexed and `unique` attributes', and its link columns'.
    func indexList(_ entity: EntitySpec, at e: Int) -> [Index] {
        var result: [Index] = []
        let table = entity.table
        if !entity.isOwned && entity.rowIDColumn == "_id" {
            result.append(Index(name: "\(table)_key", isUnique: true, columns: entity.primaryKey.map(quote), source: .table(entity: e)))
        }
        for (a, attribute) in entity.attributes.enumerated() where attribute.isIndexed || attribute.isUnique {
            guard !entity.primaryKey.contains(attribute.name) || entity.primaryKey.count > 1 else { continue }
            result.append(Index(
                name: "\(table)_\(attribute.name)", isUnique: attribute.isUnique, columns: [quote(attribute.name)],
                source: .attribute(entity: e, attribute: a)))
        }
        for (link, l) in foreignKeys(heldBy: entity) {
            guard case .foreignKey(_, let column, _, let isUnique) = link.storage else { continue }
            let columns = (tenantColumn(of: entity).map { [quote($0.name)] } ?? []) + [quote(column)]
            result.append(Index(name: "\(table)_\(column)", isUnique: isUnique, columns: columns, source: .link(l)))
        }
        return result
    }

    private func linkTable(_ name: String, _ link: Link) -> [String] {
        let source = spec[entity: link.source]
        let target = spec[entity: link.target]
        let integer = dialect.typeName(of: .scalar(.int))
        func references(_ entity: EntitySpec) -> String {
            dialect.declaresForeignKeys
                ? " REFERENCES \(quote(entity.table))(\(quote(entity.rowIDColumn))) ON DELETE CASCADE" : ""
        }
        // A distributed source's links carry its tenant, first in their key and index.
        let tenant = tenantColumn(of: source)
        let lead = tenant.map { [quote($0.name)] } ?? []
        let create = """
            CREATE TABLE \(quote(name)) (
            \(tenant.map { "  \($0.definition),\n" } ?? "")  "source" \(integer) NOT NULL\(references(source)),
              "target" \(integer) NOT NULL\(references(target)),
              "position" \(integer) NOT NULL,
              PRIMARY KEY (\((lead + ["\"source\"", "\"target\""]).joined(separator: ", ")))
            )\(dialect == .sqlite ? " WITHOUT ROWID" : "")
            """
        guard tenant != nil else { return [create, Self.targetIndex(ofLinkTable: name).create] }
        return [create, "CREATE INDEX \(quote("\(name)_target")) ON \(quote(name))(\((lead + ["\"target\""]).joined(separator: ", ")))"]
    }

    /// The index on a link table's `target` column: reads from the back side and deletions of
    /// targets go through it.
    static func targetIndex(ofLinkTable table: String, ifNotExists: Bool = false) -> (name: String, create: String) {
        let name = quote("\(table)_target")
        return (name, "CREATE INDEX \(ifNotExists ? "IF NOT EXISTS " : "")\(name) ON \(quote(table))(\"target\")")
    }
}

/// Quotes an SQL string literal's text: `'` doubled.
func literal(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "''") }

/// Quotes an SQL identifier.
func quote(_ identifier: String) -> String {
    var result = "\""
    for character in identifier {
        result.append(character)
        if character == "\"" { result.append(character) }
    }
    return result + "\""
}

/// The SQL a store speaks: its column types, and what its engine's statements are written in.
public enum SQLDialect: String, Sendable, Hashable, CaseIterable {
    /// SQLite: the embedded default store (SPEC 5).
    case sqlite
    /// PostgreSQL 15 or later (SPEC 6).
    case postgres

    /// The column type an attribute of `type` is stored in. PostgreSQL text compares and
    /// sorts bytewise (`COLLATE "C"`), as SQLite's does; `decimal`, `json` and arrays keep
    /// their exact text.
    public func typeName(of type: AttributeType) -> String {
        switch self {
        case .sqlite:
            switch StorageSchema.Column.Kind(type) {
            case .integer: return "INTEGER"
            case .real: return "REAL"
            case .text: return "TEXT"
            }
        case .postgres:
            switch type {
            case .scalar(.int): return "int8"
            case .scalar(.double): return "float8"
            case .scalar(.bool): return "bool"
            case .scalar(.date): return "timestamptz"
            case .scalar(.uuid): return "uuid"
            default: return "text COLLATE \"C\""
            }
        }
    }

    /// Whether the DDL declares foreign keys. SQLite's are enforced; on PostgreSQL the engine
    /// keeps links whole itself and declares none, since checking each row written would
    /// double the cost of an import.
    var declaresForeignKeys: Bool { self == .sqlite }
}
