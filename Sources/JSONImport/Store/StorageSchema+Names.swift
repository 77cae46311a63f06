/// The names a store declares, held to the length PostgreSQL keeps apart.
extension StorageSchema {
    /// The longest name of a table, column or index, in bytes: PostgreSQL's (`NAMEDATALEN` − 1).
    /// It cuts longer names short, silently, so that two names could become one (a table and
    /// its `__seen` table). The mappings keep to it whatever the store, so that mappings valid
    /// on one store are valid on every store (SPEC 6).
    public static let longestName = 63

    /// What in the mappings makes a name the store declares.
    enum NameSource: Hashable {
        /// The entity's table name (its `table`, else its name).
        case table(entity: Int)
        case attribute(entity: Int, attribute: Int)
        /// A link's column, link table or index: its forward relationship.
        case link(Int)
    }

    /// Every table, column and index name the storage declares (in the PostgreSQL layout, which
    /// has the most: seen tables), with what in the mappings makes it. The bookkeeping names,
    /// all short, are left out.
    func declaredNames() -> [(name: String, source: NameSource)] {
        var names: [(name: String, source: NameSource)] = []
        for (e, entity) in spec.entities.enumerated() {
            names.append((entity.table, .table(entity: e)))
            if entity.hasTimestamps { names.append((Self.seenTable(of: entity.table), .table(entity: e))) }
            for (a, attribute) in entity.attributes.enumerated() { names.append((attribute.name, .attribute(entity: e, attribute: a))) }
            for (link, l) in foreignKeys(heldBy: entity) {
                if case .foreignKey(_, let column, _, _) = link.storage { names.append((column, .link(l))) }
            }
            names += indexList(entity).map { ($0.name, $0.source) }
        }
        for (l, link) in spec.links.enumerated() {
            guard case .linkTable(let name) = link.storage else { continue }
            names += [(name, .link(l)), ("\(name)_target", .link(l))]
        }
        return names
    }
}
