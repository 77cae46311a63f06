/// The `target` index of a link table an import fills from empty is dropped once the import has
/// inserted many links into it, and built again in one sorted pass before anything reads links
/// by target: before the back side of the relationship is read, and at the end of the records,
/// before prune, clean-up and deletions. Keeping the index up to date link by link costs more
/// than the whole rest of a link insert when links arrive in random target order. Dropping and
/// building happen inside the import's transaction, so a failed or interrupted import leaves the
/// index as it was.
struct LinkIndexes {
    /// Links inserted into a table before its index is set aside: below this, keeping it up to
    /// date costs less than the schema change (every cached statement is prepared again). Kept
    /// low on purpose: dropping the index journals its pages, and a statement journal past
    /// 64 KB moves to a temporary file that every later journaled statement of the import
    /// (each update of a link column) would then write to.
    static let setAsideAfter = 1_000

    /// Per link (by `linkIndex`): the link table's name, `nil` for links held in a column.
    let tables: [String?]
    var startedEmpty: [Bool]
    var inserted: [Int]
    var isSetAside: [Bool]
    /// Read by target during this import: its index stays.
    var isKept: [Bool]
    /// A table passed the threshold: set aside at the next record boundary.
    var isDue = false
    /// Tables whose index was built again inside the current skippable record.
    var builtInRecord: [Int] = []

    init(spec: MappingSpec) {
        tables = spec.links.map { link in
            if case .linkTable(let name) = link.storage { return name }
            return nil
        }
        let none = Array(repeating: false, count: tables.count)
        startedEmpty = none
        inserted = Array(repeating: 0, count: tables.count)
        isSetAside = none
        isKept = none
    }

    /// Whether the index of `link` should be dropped now.
    func isDue(_ link: Int) -> Bool {
        tables[link] != nil && startedEmpty[link] && !isSetAside[link] && !isKept[link] && inserted[link] >= Self.setAsideAfter
    }

    /// A skippable record begins.
    mutating func recordBegan() { builtInRecord.removeAll() }

    /// A skipped record's savepoint rolled back the indexes built within it.
    mutating func recordRolledBack() {
        for link in builtInRecord { isSetAside[link] = true }
        builtInRecord.removeAll()
    }
}

extension Importer {
    /// Notes which link tables are empty; called once the import's transaction has begun.
    func noteEmptyLinkTables() throws(StoreError) {
        for (link, table) in linkIndexes.tables.enumerated() {
            guard let table else { continue }
            linkIndexes.startedEmpty[link] = try rows.isEmpty(linkTable: table)
        }
    }

    /// Counts links inserted into the table of `relationship`.
    func countInsertedLinks(_ relationship: RelationshipPlan, _ count: Int) {
        let link = relationship.spec.linkIndex
        linkIndexes.inserted[link] &+= count
        if linkIndexes.isDue(link) { linkIndexes.isDue = true }
    }

    /// Drops the target indexes that became due; called between root records, where no
    /// statement is running and no savepoint is open.
    ///
    /// - Throws: the store's error when SQLite rolled the import's transaction back (a full
    ///   disk, say): the records after it must not run outside of it.
    func setAsideDueLinkIndexes() throws(StoreError) {
        guard linkIndexes.isDue else { return }
        linkIndexes.isDue = false
        for link in linkIndexes.tables.indices where linkIndexes.isDue(link) {
            if try rows.setAsideTargetIndex(ofLinkTable: linkIndexes.tables[link]!) {
                linkIndexes.isSetAside[link] = true
            } else {
                // A statement of the caller's is running on this connection: keep the index.
                linkIndexes.isKept[link] = true
            }
        }
    }

    /// Builds the target index of the table of `relationship` again before links are read by target.
    func restoreLinkIndex(before relationship: RelationshipPlan) throws(RecordError) {
        let link = relationship.spec.linkIndex
        linkIndexes.isKept[link] = true
        guard linkIndexes.isSetAside[link] else { return }
        do {
            try restore(link)
        } catch {
            throw fail(error)
        }
        linkIndexes.builtInRecord.append(link)
    }

    /// Builds every target index set aside; called after the last record.
    func restoreLinkIndexes() throws(StoreError) {
        for link in linkIndexes.tables.indices where linkIndexes.isSetAside[link] {
            try restore(link)
        }
    }

    private func restore(_ link: Int) throws(StoreError) {
        try rows.restoreTargetIndex(ofLinkTable: linkIndexes.tables[link]!)
        linkIndexes.isSetAside[link] = false
    }
}
