/// The names a store declares, held to what PostgreSQL keeps apart.
extension StorageSchema {
    /// The longest name of a table, column or index, in bytes: PostgreSQL's (`NAMEDATALEN` − 1).
    /// It cuts longer names short, silently, so that two names could become one (a table and
    /// its `__seen` table). The mappings keep to it whatever the store, so that mappings valid
    /// on one store are valid on every store (SPEC 6).
    public static let longestName = 63

    /// Column names PostgreSQL keeps for itself in every table.
    static let systemColumns: Set<String> = ["tableoid", "xmin", "cmin", "xmax", "cmax", "ctid", "oid"]

    /// What in the mappings makes a name the store declares.
    enum NameSource: Hashable {
        /// The entity's table name (its `table`, else its name).
        case table(entity: Int)
        case attribute(entity: Int, attribute: Int)
        /// A link's column, link table or index: its forward relationship.
        case link(Int)
    }

    /// A name the store declares: the name, what in the mappings makes it, what it names (`the
    /// table of when rows of entity 'User' were seen`), and its kind (tables and indexes share
    /// one namespace, a table's columns have their own).
    struct DeclaredName {
        enum Kind { case table, index, column }
        let name: String
        let source: NameSource
        let role: String
        let kind: Kind
    }

    /// Every table, column and index name the storage declares (in the PostgreSQL layout, which
    /// has the most: seen tables). The bookkeeping names, all short, are left out.
    func declaredNames() -> [DeclaredName] {
        var names: [DeclaredName] = []
        for (e, entity) in spec.entities.enumerated() {
            names.append(DeclaredName(name: entity.table, source: .table(entity: e), role: "the table of entity '\(entity.name)'", kind: .table))
            if entity.hasTimestamps {
                names.append(DeclaredName(
                    name: Self.seenTable(of: entity.table), source: .table(entity: e),
                    role: "the table of when rows of entity '\(entity.name)' were seen", kind: .table))
            }
            for (a, attribute) in entity.attributes.enumerated() {
                names.append(DeclaredName(
                    name: attribute.name, source: .attribute(entity: e, attribute: a),
                    role: "the column of '\(entity.name).\(attribute.name)'", kind: .column))
            }
            for (link, l) in foreignKeys(heldBy: entity) {
                guard case .foreignKey(_, let column, _, _) = link.storage else { continue }
                names.append(DeclaredName(name: column, source: .link(l), role: "the column of '\(link.source).\(link.forward)'", kind: .column))
            }
            names += indexList(entity, at: e).map { DeclaredName(name: $0.name, source: $0.source, role: "an index of table '\(entity.table)'", kind: .index) }
        }
        for (l, link) in spec.links.enumerated() {
            guard case .linkTable(let name) = link.storage else { continue }
            let role = "'\(link.source).\(link.forward)'"
            names.append(DeclaredName(name: name, source: .link(l), role: "the link table of \(role)", kind: .table))
            names.append(DeclaredName(name: "\(name)_target", source: .link(l), role: "the target index of the link table of \(role)", kind: .index))
        }
        return names
    }

    /// The names PostgreSQL gives the primary keys of the tables among `names` (`TABLE_pkey`),
    /// which no table or index of the mappings may take.
    static func primaryKeyNames(of names: [DeclaredName]) -> [(name: String, role: String)] {
        names.filter { $0.kind == .table }.map { ("\($0.name)_pkey", "the primary key of \($0.role)") }
    }
}
