/// The SQL of every statement the importer runs on one entity's table, built on first use.
final class EntityStatements {
    private let entity: EntityPlan

    init(_ entity: EntityPlan) { self.entity = entity }

    private var table: String { entity.table }
    private var rowID: String { entity.rowID }
    private var spec: EntitySpec { entity.spec }
    private var attributeColumns: [String] { spec.attributes.map { quote($0.name) } }
    private var selfColumnNames: [String] { entity.selfColumns.map { entity.relationships[$0].columnName! } }

    /// `SELECT rowid, attributes…, self columns…, _stub FROM T WHERE key…` (owned: by row id).
    lazy var select = CachedSQL("SELECT \(selectColumns) FROM \(table) WHERE \(keyCondition)")

    /// The same columns as `select`, by row id.
    lazy var selectByRow = CachedSQL("SELECT \(selectColumns) FROM \(table) WHERE \(rowID) = ?")

    /// `SELECT rowid FROM T WHERE key…`.
    lazy var lookup = CachedSQL(Self.lookupText(of: entity))

    /// The text of `lookup`.
    static func lookupText(of entity: EntityPlan) -> String {
        "SELECT \(entity.rowID) FROM \(entity.table) WHERE \(keyCondition(of: entity))"
    }

    private var selectColumns: String {
        ([rowID] + attributeColumns + selfColumnNames.map(quote) + [spec.isOwned ? "0" : "\"_stub\""])
            .joined(separator: ", ")
    }

    private var keyCondition: String { Self.keyCondition(of: entity) }

    private static func keyCondition(of entity: EntityPlan) -> String {
        if entity.spec.isOwned { return "\(entity.rowID) = ?" }
        return entity.spec.primaryKey.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
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
    private var updates: [[Bool]: CachedSQL] = [:]

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

    private var holders: [Int: CachedSQL] = [:]
    private var setters: [Int: CachedSQL] = [:]

    /// `SELECT rowid FROM T WHERE attribute = ?`, per unique attribute (by position).
    func holder(of slot: Int) -> CachedSQL {
        Self.cached(&holders, slot) { "SELECT \(rowID) FROM \(table) WHERE \(quote(spec.attributes[slot].name)) = ? LIMIT 1" }
    }

    /// `UPDATE T SET attribute = ? WHERE rowid = ?`, per attribute (by position).
    func setter(of slot: Int) -> CachedSQL {
        Self.cached(&setters, slot) { "UPDATE \(table) SET \(quote(spec.attributes[slot].name)) = ? WHERE \(rowID) = ?" }
    }

    private static func cached(_ cache: inout [Int: CachedSQL], _ slot: Int, _ text: () -> String) -> CachedSQL {
        if let cached = cache[slot] { return cached }
        let cached = CachedSQL(text())
        cache[slot] = cached
        return cached
    }
}

/// The statements of one relationship, by storage (unused ones stay unprepared).
final class LinkStatements {
    /// Linked row ids (not for `selfColumn`): in link order, or for a link table's source side
    /// in key order with each link's position beside it (SQLite would sort them with a sorter
    /// per run, dearer than putting the few links of a row in order afterwards).
    let current: CachedSQL
    /// `current` reads positions beside the rows.
    let currentHasPositions: Bool
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

    init(_ relationship: RelationshipPlan) {
        let entity = relationship.entity
        let target = relationship.targetPlan
        var current = "", clearOther = "", setOther = "", readOther = "", steal = ""
        var currentHasPositions = false
        var link = ""
        switch relationship.storage {
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
                ? "SELECT \"target\", \"position\" FROM \(link) WHERE \"source\" = ?"
                : "SELECT \"source\" FROM \(link) WHERE \"target\" = ? ORDER BY \"source\""
            currentHasPositions = selfIsSource
        }
        self.current = CachedSQL(current)
        self.currentHasPositions = currentHasPositions
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
