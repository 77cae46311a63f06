import Foundation

/// Everything the importer needs about one entity, resolved once per store: JSON keys as bytes,
/// converters, validation, and the SQL of every statement it runs.
final class EntityPlan {
    let spec: EntitySpec
    let index: Int
    /// Quoted table name and row-id column.
    let table: String
    let rowID: String
    /// Attribute positions of the primary key, in key order.
    let keySlots: [Int]
    let attributes: [AttributePlan]
    /// Relationships in declaration order; `selfColumnRelationships` index into it.
    @exclusivity(unchecked) var relationships: [RelationshipPlan] = []
    /// Relationships stored in a column of this table, in column order.
    @exclusivity(unchecked) var selfColumns: [Int] = []

    /// Keyed, with no link column that points at an owned row (which a record updates in place)
    /// or that is unique (one ↔ one: other rows release the target first): such rows need not
    /// be read before they are written, so they may be inserted first.
    var allowsInsertFirst: Bool {
        !spec.isOwned && !selfColumns.contains { column in
            if case .selfColumn(_, true) = relationships[column].storage { return true }
            return relationships[column].isTargetOwned
        }
    }

    /// Keyed rows holding nothing but attributes: a repeated identical record changes nothing.
    var skipsRepeats: Bool { !spec.isOwned && selfColumns.isEmpty }

    /// Attribute positions of the `unique` attributes.
    lazy var uniqueSlots: [Int] = spec.attributes.indices.filter { spec.attributes[$0].isUnique && !keySlots.contains($0) }

    /// `SELECT rowid FROM T WHERE attribute = ?`, per unique attribute (by position).
    func holderOf(_ slot: Int) -> CachedSQL {
        cachedBySlot(&holders, slot) { "SELECT \(rowID) FROM \(table) WHERE \(quote(spec.attributes[slot].name)) = ? LIMIT 1" }
    }

    /// `UPDATE T SET attribute = ? WHERE rowid = ?`, per attribute (by position).
    func setAttribute(_ slot: Int) -> CachedSQL {
        cachedBySlot(&setters, slot) { "UPDATE \(table) SET \(quote(spec.attributes[slot].name)) = ? WHERE \(rowID) = ?" }
    }

    @exclusivity(unchecked) private var holders: [Int: CachedSQL] = [:]
    @exclusivity(unchecked) private var setters: [Int: CachedSQL] = [:]

    private func cachedBySlot(_ cache: inout [Int: CachedSQL], _ slot: Int, _ text: () -> String) -> CachedSQL {
        if let cached = cache[slot] { return cached }
        let cached = CachedSQL(text())
        cache[slot] = cached
        return cached
    }

    /// `true` when the single `int` key is the row id itself.
    var keyIsRowID: Bool { spec.rowIDColumn != "_id" }

    init(spec: EntitySpec, index: Int) {
        self.spec = spec
        self.index = index
        self.table = quote(spec.table)
        self.rowID = quote(spec.rowIDColumn)
        self.attributes = spec.attributes.map(AttributePlan.init)
        self.keySlots = spec.primaryKey.compactMap { name in spec.attributes.firstIndex { $0.name == name } }
    }

    // MARK: SQL

    private var attributeColumns: [String] { spec.attributes.map { quote($0.name) } }
    private var selfColumnNames: [String] {
        selfColumns.map { relationships[$0].columnName! }
    }

    /// `SELECT rowid, attributes…, self columns…, _stub FROM T WHERE key…` (owned: by row id).
    lazy var select = CachedSQL("SELECT \(selectColumns) FROM \(table) WHERE \(keyCondition)")

    /// The same columns as `select`, by row id.
    lazy var selectByRow = CachedSQL("SELECT \(selectColumns) FROM \(table) WHERE \(rowID) = ?")

    /// `SELECT rowid FROM T WHERE key…`.
    lazy var lookup = CachedSQL("SELECT \(rowID) FROM \(table) WHERE \(keyCondition)")

    private var selectColumns: String {
        ([rowID] + attributeColumns + selfColumnNames.map(quote) + [spec.isOwned ? "0" : "\"_stub\""])
            .joined(separator: ", ")
    }

    private var keyCondition: String {
        if spec.isOwned { return "\(rowID) = ?" }
        return spec.primaryKey.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
    }

    /// `INSERT` of every attribute and self column, plus bookkeeping; `?` for all of them.
    lazy var insert: CachedSQL = {
        var columns = attributeColumns + selfColumnNames.map(quote)
        var values = Array(repeating: "?", count: columns.count)
        if spec.hasTimestamps {
            columns += ["\"_created_at\"", "\"_updated_at\"", "\"_seen_at\""]
            values += ["?", "?", "?"]
        }
        if !spec.isOwned {
            columns.append("\"_stub\"")
            values.append("?")
        }
        return CachedSQL("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))")
    }()

    /// `insert`, doing nothing when a row with the key exists.
    lazy var insertIfAbsent = CachedSQL(
        insert.text + " ON CONFLICT(\(spec.primaryKey.map(quote).joined(separator: ", "))) DO NOTHING")

    /// `UPDATE` statements by the columns they set (see `update(setting:)`), at most 64 kept.
    @exclusivity(unchecked) private var updates: [[Bool]: CachedSQL] = [:]

    /// `UPDATE` of the attributes and link columns marked in `shape` (attributes, then
    /// `selfColumns`), clearing the stub mark; the row id is the last parameter. An update writes
    /// only what changes hands: one that leaves key and link columns alone costs SQLite no
    /// foreign-key checks and no statement journal.
    func update(setting shape: [Bool]) -> CachedSQL {
        if let cached = updates[shape] { return cached }
        if updates.count >= 64 { updates.removeAll() }
        var sets: [String] = []
        for (i, column) in attributeColumns.enumerated() where shape[i] { sets.append("\(column) = ?") }
        for (j, name) in selfColumnNames.enumerated() where shape[attributeColumns.count + j] {
            sets.append("\(quote(name)) = ?")
        }
        sets.append(spec.isOwned ? "\(rowID) = \(rowID)" : "\"_stub\" = 0")
        let cached = CachedSQL("UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE \(rowID) = ?")
        updates[shape] = cached
        return cached
    }
}

/// One attribute, ready to read from JSON.
final class AttributePlan {
    let spec: AttributeSpec
    /// Key path segments as UTF-8, compared against JSON member keys without allocating.
    let path: [[UInt8]]
    let regex: NSRegularExpression?
    let defaultValue: Value

    init(_ spec: AttributeSpec) {
        self.spec = spec
        self.path = spec.key.segments.map { Array($0.utf8) }
        self.regex = spec.pattern.flatMap { try? NSRegularExpression(pattern: "^(?:\($0))$") }
        self.defaultValue = spec.defaultValue.map(Value.init) ?? .null
    }
}

/// One relationship, ready to import.
final class RelationshipPlan {
    let spec: RelationshipSpec
    let target: Int
    let path: [[UInt8]]
    /// The key path as JSON paths in errors show it.
    let pathLabel: String
    let storage: Storage
    /// Whether rows at the other end read this link (so a change touches them).
    let otherSideReads: Bool
    let isTargetOwned: Bool

    enum Storage {
        /// A column of this entity's table pointing at the target row.
        case selfColumn(column: String, isUnique: Bool)
        /// A column of the target's table pointing at this row.
        case otherColumn(column: String)
        /// A link table; `selfIsSource` on the forward side.
        case linkTable(name: String, selfIsSource: Bool)
    }

    /// The statements that read and write this relationship's links.
    let sql: LinkSQL

    init(
        spec: RelationshipSpec, target: Int, path: [[UInt8]], storage: Storage, otherSideReads: Bool,
        isTargetOwned: Bool, sql: LinkSQL
    ) {
        self.spec = spec
        self.target = target
        self.path = path
        self.pathLabel = spec.key.description
        self.storage = storage
        self.otherSideReads = otherSideReads
        self.isTargetOwned = isTargetOwned
        self.sql = sql
    }

    var columnName: String? {
        if case .selfColumn(let column, _) = storage { return column }
        return nil
    }
}

/// The statements of one relationship, by storage (unused ones stay unprepared).
struct LinkSQL {
    /// Linked row ids in link order (not for `selfColumn`).
    let current: CachedSQL
    // otherColumn
    let clearOther: CachedSQL
    let setOther: CachedSQL
    let readOther: CachedSQL
    // linkTable
    let insertLink: CachedSQL
    let deleteLinksOfSource: CachedSQL
    let deleteLink: CachedSQL
    let nextPosition: CachedSQL
    // selfColumn, one ↔ one: other rows pointing at the same target lose the link
    let steal: CachedSQL

    init(storage: RelationshipPlan.Storage, entity: EntityPlan, target: EntityPlan) {
        var current = "", clearOther = "", setOther = "", readOther = "", steal = ""
        var link = ""
        switch storage {
        case .selfColumn(let column, _):
            steal = "UPDATE \(entity.table) SET \(quote(column)) = NULL WHERE \(quote(column)) = ? AND \(entity.rowID) IS NOT ? RETURNING \(entity.rowID)"
        case .otherColumn(let column):
            current = "SELECT \(target.rowID) FROM \(target.table) WHERE \(quote(column)) = ? ORDER BY \(target.rowID)"
            clearOther = "UPDATE \(target.table) SET \(quote(column)) = NULL WHERE \(target.rowID) = ?"
            setOther = "UPDATE \(target.table) SET \(quote(column)) = ? WHERE \(target.rowID) = ?"
            readOther = "SELECT \(quote(column)) FROM \(target.table) WHERE \(target.rowID) = ?"
        case .linkTable(let name, let selfIsSource):
            link = quote(name)
            current = selfIsSource
                ? "SELECT \"target\" FROM \(link) WHERE \"source\" = ? ORDER BY \"position\""
                : "SELECT \"source\" FROM \(link) WHERE \"target\" = ? ORDER BY \"source\""
        }
        self.current = CachedSQL(current)
        self.clearOther = CachedSQL(clearOther)
        self.setOther = CachedSQL(setOther)
        self.readOther = CachedSQL(readOther)
        self.steal = CachedSQL(steal)
        self.insertLink = CachedSQL("INSERT INTO \(link) (\"source\", \"target\", \"position\") VALUES (?, ?, ?)")
        self.deleteLinksOfSource = CachedSQL("DELETE FROM \(link) WHERE \"source\" = ?")
        self.deleteLink = CachedSQL("DELETE FROM \(link) WHERE \"source\" = ? AND \"target\" = ?")
        self.nextPosition = CachedSQL("SELECT coalesce(max(\"position\") + 1, 0) FROM \(link) WHERE \"source\" = ?")
    }
}

/// SQL text and, once used, the statement prepared from it: plans keep these so the import
/// loop never looks statements up by their text.
final class CachedSQL {
    let text: String
    @exclusivity(unchecked) var statement: SQLiteStatement?

    init(_ text: String) { self.text = text }
}

/// The plans for every entity of a spec.
final class ImportPlan {
    let spec: MappingSpec
    let entities: [EntityPlan]

    init(spec: MappingSpec) {
        self.spec = spec
        let plans = spec.entities.enumerated().map { EntityPlan(spec: $1, index: $0) }
        var byName: [String: Int] = [:]
        for plan in plans { byName[plan.spec.name] = plan.index }
        for plan in plans {
            for relationship in plan.spec.relationships {
                let link = spec.links[relationship.linkIndex]
                let target = plans[byName[relationship.target]!]
                let storage: RelationshipPlan.Storage
                switch link.storage {
                case .foreignKey(let table, let column, _, let isUnique):
                    storage = table == plan.spec.table
                        && (relationship.isForward ? link.storage.isOnSource : !link.storage.isOnSource)
                        ? .selfColumn(column: column, isUnique: isUnique) : .otherColumn(column: column)
                case .linkTable(let name):
                    storage = .linkTable(name: name, selfIsSource: relationship.isForward)
                }
                let entry = RelationshipPlan(
                    spec: relationship, target: target.index,
                    path: relationship.key.segments.map { Array($0.utf8) }, storage: storage,
                    otherSideReads: !relationship.isForward || link.back != nil,
                    isTargetOwned: target.spec.isOwned,
                    sql: LinkSQL(storage: storage, entity: plan, target: target))
                if entry.columnName != nil { plan.selfColumns.append(plan.relationships.count) }
                plan.relationships.append(entry)
            }
        }
        self.entities = plans
    }

    /// Whether any entity has a `unique` attribute besides its key.
    var hasUniqueAttributes: Bool { entities.contains { !$0.uniqueSlots.isEmpty } }

    func entity(named name: String) -> EntityPlan? {
        entities.first { $0.spec.name == name }
    }
}

extension Link.Storage {
    var isOnSource: Bool {
        if case .foreignKey(_, _, let onSource, _) = self { return onSource }
        return false
    }
}
