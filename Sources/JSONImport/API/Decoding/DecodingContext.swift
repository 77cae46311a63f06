/// One decode from the store: reads each row it needs once, a page at a time, and knows which
/// rows are being decoded along the current path, so that cycles in the data end.
///
/// Reads are batched: decoding a page of root rows (``decodeAll(_:entity:rows:)``), the first
/// row whose attributes are needed reads those of the whole page in one statement; the first
/// relationship read reads the links of every row read so far that lacks them, in one
/// statement, and the rows it reaches are read together when the first of them is needed. A
/// page of records with nested values costs a few statements per entity and relationship
/// rather than a few per row. What a page read is forgotten before the next page.
///
/// The cycle rule: when a nested value reaches a row that is already being decoded further up
/// the same path (`user.repos[0].owner` is `user` again), that row decodes once more, with its
/// attributes and keys, but its relationships do not nest again: read as nested values there
/// they are empty (`[]`, or `nil` for a to-one). So a type that nests itself stops where its
/// data stops, or at the first repeated row.
final class DecodingContext {
    let store: Store
    /// The rows being decoded along the current path, outermost first (a few at most).
    @exclusivity(unchecked) private var path: [RowRef] = []
    /// What the page read, per entity (by index).
    @exclusivity(unchecked) private var pages: [EntityPage]

    /// What a page read of one entity's rows.
    private struct EntityPage {
        var attributes: [Int64: [StoredValue]] = [:]
        /// Rows expected to be decoded soon (the page, the rows links reached), read with the
        /// next row of the entity that is needed.
        var pending: Set<Int64> = []
        /// The rows whose attributes were read, in reading order.
        var read: [Int64] = []
        /// Per relationship (by index among the entity's): links read, by row.
        var links: [[Int64: [Int64]]]
        /// Per relationship: how many of the `read` rows have their links read.
        var linksRead: [Int]

        init(relationships: Int) {
            links = Array(repeating: [:], count: relationships)
            linksRead = Array(repeating: 0, count: relationships)
        }
    }

    /// Root rows decoded per page, and rows read per statement.
    static let pageSize = 500

    struct RowRef: Hashable {
        let entity: Int
        let row: Int64
    }

    init(store: Store) {
        self.store = store
        self.pages = store.plan.entities.map { EntityPage(relationships: $0.relationships.count) }
    }

    var plan: ImportPlan { store.plan }

    /// Decodes `rows` of `entity` as `T`s, in order, a page at a time.
    func decodeAll<T: Decodable>(_ type: T.Type, entity: EntityPlan, rows: [Int64]) throws -> [T] {
        try paged(entity, rows) { try decode(type, entity: entity, row: $0) }
    }

    /// Decodes one property of each of `rows` of `entity` as a `T`, in order, a page at a time.
    func decodeAll<T: Decodable>(_ type: T.Type, property: String, entity: EntityPlan, rows: [Int64]) throws -> [T] {
        try paged(entity, rows) { try decode(type, property: property, entity: entity, row: $0) }
    }

    private func paged<T>(_ entity: EntityPlan, _ rows: [Int64], _ body: (Int64) throws -> T) throws -> [T] {
        var result: [T] = []
        result.reserveCapacity(rows.count)
        var start = 0
        while start < rows.count {
            let page = rows[start..<min(start + Self.pageSize, rows.count)]
            forgetPage()
            pages[entity.index].pending = Set(page)
            for row in page { result.append(try body(row)) }
            start += page.count
        }
        forgetPage()
        return result
    }

    private func forgetPage() {
        pages = plan.entities.map { EntityPage(relationships: $0.relationships.count) }
    }

    /// Decodes row `row` of `entity` as a `T`.
    func decode<T: Decodable>(_ type: T.Type, entity: EntityPlan, row: Int64) throws -> T {
        try RowDecoder.decode(type, from: RowDecoder(context: self, entity: entity, row: row, parent: .root, key: nil))
    }

    /// Decodes one property of row `row` of `entity` as a `T`.
    func decode<T: Decodable>(_ type: T.Type, property: String, entity: EntityPlan, row: Int64) throws -> T {
        let decoder = RowDecoder(context: self, entity: entity, row: row, parent: .root, key: nil)
        return try decoder.container(keyedBy: IndexKey.self).decode(type, forKey: IndexKey(property))
    }

    /// The stored attribute values of a row, in attribute order.
    func values(_ entity: EntityPlan, row: Int64, path: CodingPath) throws -> [StoredValue] {
        let e = entity.index
        if let known = pages[e].attributes[row] { return known }
        var batch = [row]
        pages[e].pending.remove(row)
        while batch.count < Self.pageSize, let next = pages[e].pending.popFirst() {
            if pages[e].attributes[next] == nil { batch.append(next) }
        }
        for (found, values) in try store.attributeValues(of: entity, rows: batch) {
            pages[e].attributes[found] = values
            pages[e].read.append(found)
        }
        guard let values = pages[e].attributes[row] else {
            throw DecodingError.valueNotFound(Any.self, .init(
                codingPath: path.keys, debugDescription: "\(entity.spec.name) row \(row) no longer exists"))
        }
        return values
    }

    /// The rows a relationship of a row links to, in link order.
    func linkedRows(_ relationship: RelationshipPlan, of entity: EntityPlan, row: Int64) throws -> [Int64] {
        let e = entity.index
        let r = entity.relationships.firstIndex { $0 === relationship }!
        if let known = pages[e].links[r][row] { return known }
        let start = pages[e].linksRead[r]
        var batch = [row]
        for other in pages[e].read[start...].prefix(Self.pageSize - 1) where other != row { batch.append(other) }
        pages[e].linksRead[r] = min(pages[e].read.count, start + Self.pageSize - 1)
        let found = try store.linkedRows(relationship, of: entity, rows: batch)
        let t = relationship.target
        for source in batch {
            let targets = found[source] ?? []
            pages[e].links[r][source] = targets
            for target in targets where pages[t].attributes[target] == nil { pages[t].pending.insert(target) }
        }
        return pages[e].links[r][row]!
    }

    /// `true` when the row is being decoded further up the current path.
    func isOnPath(_ entity: EntityPlan, _ row: Int64) -> Bool {
        path.contains(RowRef(entity: entity.index, row: row))
    }

    /// Runs `body` with the row on the path: what it decodes is nested below the row.
    func nesting<T>(_ entity: EntityPlan, _ row: Int64, _ body: () throws -> T) rethrows -> T {
        path.append(RowRef(entity: entity.index, row: row))
        defer { path.removeLast() }
        return try body()
    }
}
