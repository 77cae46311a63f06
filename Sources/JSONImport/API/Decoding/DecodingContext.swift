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
    let plan: ImportPlan
    /// The rows being decoded along the current path, outermost first (a few at most).
    @exclusivity(unchecked) private var path: [RowRef] = []
    /// What the page read, per entity (by index).
    @exclusivity(unchecked) private var pages: [EntityPage] = []

    /// Root rows decoded per page, and rows read per statement.
    static let pageSize = 1000

    struct RowRef: Hashable {
        let entity: Int
        let row: Int64
    }

    init(store: Store) {
        self.store = store
        self.plan = store.plan
        forgetPage()
    }

    /// Decodes `rows` of `entity` as `T`s, in order, a page at a time.
    func decodeAll<T: Decodable>(_ type: T.Type, entity: EntityPlan, rows: [Int64]) throws -> [T] {
        if let whole = try decodedWhole(type, entity: entity, rows: rows) { return whole }
        return try paged(entity, rows) { try decode(type, entity: entity, row: $0) }
    }

    /// Decodes those of `rows` of `entity` that exist as `T`s, in order (repeats kept), a page
    /// at a time.
    func decodeExisting<T: Decodable>(_ type: T.Type, entity: EntityPlan, rows: [Int64]) throws -> [T] {
        if let whole = try decodedWhole(type, entity: entity, rows: rows) { return whole }
        let decoded = try paged(entity, rows) { row -> T? in
            guard try exists(entity, row: row) else { return nil }
            return try decode(type, entity: entity, row: row)
        }
        return decoded.compactMap { $0 }
    }

    /// Calls `body` with each of `rows` of `entity` decoded as a `T`, in order, a page at a
    /// time: only one page of values is held.
    func forEach<T: Decodable>(_ type: T.Type, entity: EntityPlan, rows: [Int64], _ body: (T) throws -> Void) throws {
        var start = 0
        while start < rows.count {
            let page = Array(rows[start..<min(start + Self.pageSize, rows.count)])
            for value in try decodeAll(type, entity: entity, rows: page) { try body(value) }
            start += page.count
        }
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
            for row in page { pages[entity.index].expect(row) }
            for row in page { result.append(try body(row)) }
            start += page.count
        }
        forgetPage()
        return result
    }

    private func forgetPage() {
        pages = plan.entities.map(EntityPage.init)
    }

    /// Decodes row `row` of `entity` as a `T`.
    func decode<T: Decodable>(_ type: T.Type, entity: EntityPlan, row: Int64) throws -> T {
        if let value = try decodedWhole(type, entity: entity, rows: [row])?.first { return value }
        return try RowDecoder.decode(type, from: RowDecoder(context: self, entity: entity, row: row, parent: .root, key: nil))
    }

    /// `T`s read whole rather than property by property, `nil` for other types: payload types
    /// through their exported JSON, and ``RecordObject`` as the object `query --format json`
    /// prints. Rows that no longer exist are left out.
    private func decodedWhole<T: Decodable>(_ type: T.Type, entity: EntityPlan, rows: [Int64]) throws -> [T]? {
        if T.self is any PayloadCodable.Type { return try decodePayloads(type, entity: entity, rows: rows) }
        guard T.self == RecordObject.self else { return nil }
        let existing = Set(try store.keys(of: entity, rows: Array(Set(rows))).map(\.0))
        return try store.reader.records(entity, rows: rows.filter(existing.contains)) as? [T]
    }

    /// Decodes one property of row `row` of `entity` as a `T`.
    func decode<T: Decodable>(_ type: T.Type, property: String, entity: EntityPlan, row: Int64) throws -> T {
        let decoder = RowDecoder(context: self, entity: entity, row: row, parent: .root, key: nil)
        return try decoder.container(keyedBy: IndexKey.self).decode(type, forKey: IndexKey(property))
    }

    /// The page of `entity`'s rows and the slot of `row` in it, reading the row with the rows
    /// expected next when it is not read yet.
    func slot(_ entity: EntityPlan, row: Int64, path: CodingPath) throws -> (page: EntityPage, slot: Int) {
        let page = pages[entity.index]
        if let slot = page.slots[row] { return (page, slot) }
        try page.read(row, from: store)
        guard let slot = page.slots[row] else {
            throw DecodingError.valueNotFound(Any.self, .init(
                codingPath: path.keys, debugDescription: "\(entity.spec.name) row \(row) no longer exists"))
        }
        return (page, slot)
    }

    /// `true` when `row` of `entity` exists (read with the rows expected next).
    private func exists(_ entity: EntityPlan, row: Int64) throws -> Bool {
        let page = pages[entity.index]
        if page.slots[row] == nil { try page.read(row, from: store) }
        return page.slots[row] != nil
    }

    /// The rows relationship number `index` of `entity` links `row` to, in link order.
    ///
    /// The first time a row's links are needed, those of every row of the entity read so far
    /// that lacks them are read too (a page at a time), and the rows they reach are expected.
    func linkedRows(_ index: Int, of entity: EntityPlan, row: Int64, path: CodingPath) throws -> ArraySlice<Int64> {
        let (page, slot) = try slot(entity, row: row, path: path)
        while true {
            if let known = page.links[index].targets(of: slot) { return known }
            try page.readLinks(index, from: store, reaching: pages[entity.relationships[index].target])
        }
    }

    /// `true` when the row is being decoded further up the current path.
    func isOnPath(_ entity: EntityPlan, _ row: Int64) -> Bool {
        path.contains(RowRef(entity: entity.index, row: row))
    }

    /// Runs `body` with the row on the path: what it decodes is nested below the row.
    func nesting<T>(_ entity: EntityPlan, _ row: Int64, _ body: () throws -> T) rethrows -> T {
        nestings += 1
        path.append(RowRef(entity: entity.index, row: row))
        defer { path.removeLast() }
        return try body()
    }

    /// How many times a relationship's value was decoded below a row.
    @exclusivity(unchecked) private var nestings = 0

    /// Decodes a relationship's value (a linked row, or one of them) as a `T`.
    ///
    /// A row many others link to in one page (an owner, a label) is decoded once per value
    /// type: a value that read no relationship is the same wherever it nests, so later links
    /// to the row get a copy of it. Classes are decoded anew each time, keeping one instance
    /// per link.
    func decodeNested<T: Decodable>(_ type: T.Type, from row: RowDecoder) throws -> T {
        guard !(T.self is AnyObject.Type) else { return try RowDecoder.decode(type, from: row) }
        let (page, slot) = try slot(row.entity, row: row.row, path: row.path)
        if let known = page.decoded(ObjectIdentifier(type), slot: slot) { return known as! T }
        let before = nestings
        let value = try RowDecoder.decode(type, from: row)
        if nestings == before { page.remember(value, slot: slot) }
        return value
    }
}

/// A property of a stored row.
enum RowProperty {
    /// An attribute, by index among the entity's.
    case attribute(Int)
    /// A relationship, by index among the entity's.
    case relationship(Int)
}

/// What a page read of one entity's rows: their values side by side, and their links.
final class EntityPage {
    let entity: EntityPlan
    /// Values per row: the attributes, then the link of each relationship stored in the row.
    let width: Int
    /// Row → its slot: its position in `read`, and `values` from `slot * width`.
    @exclusivity(unchecked) private(set) var slots = RowSlots()
    /// The rows read, in reading order.
    @exclusivity(unchecked) private var read: [Int64] = []
    @exclusivity(unchecked) private(set) var values: [StoredValue] = []
    /// Rows expected to be decoded soon (the page, the rows links reached), read with the next
    /// row of the entity that is needed; `expected` holds them all once.
    @exclusivity(unchecked) private var pending: [Int64] = []
    @exclusivity(unchecked) private var expected = RowSlots()
    /// Per relationship (by index among the entity's): the links read.
    @exclusivity(unchecked) private(set) var links: [Links]

    /// The attributes' types, and the names of the attributes, then of the relationships.
    let types: [AttributeType]
    private let propertyNames: [String]

    init(_ entity: EntityPlan) {
        self.entity = entity
        self.width = entity.spec.attributes.count + entity.selfColumns.count
        self.links = Array(repeating: Links(), count: entity.relationships.count)
        self.types = entity.spec.attributes.map(\.type)
        self.propertyNames = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
    }

    /// The attribute or relationship named `name`. `last` is the position of the property
    /// found last for the same row: properties are usually asked for in declaration order, so
    /// the one after it is tried first.
    func property(named name: String, after last: inout Int) -> RowProperty? {
        let next = last + 1
        let found = next < propertyNames.count && propertyNames[next] == name ? next : propertyNames.firstIndex(of: name)
        guard let found else { return nil }
        last = found
        let attributes = types.count
        return found < attributes ? .attribute(found) : .relationship(found - attributes)
    }

    /// Values decoded from rows of the page that read no relationship, by type, by slot.
    @exclusivity(unchecked) private var decoded: [(type: ObjectIdentifier, values: [Any?])] = []

    /// The value of the type `type` identifies decoded from the row in `slot` before, if any.
    /// (Not generic: an optional of a type known only at run time costs a metadata lookup.)
    func decoded(_ type: ObjectIdentifier, slot: Int) -> Any? {
        guard let entry = decoded.firstIndex(where: { $0.type == type }), slot < decoded[entry].values.count else { return nil }
        return decoded[entry].values[slot]
    }

    func remember<T>(_ value: T, slot: Int) {
        let id = ObjectIdentifier(T.self)
        let entry = decoded.firstIndex { $0.type == id } ?? {
            decoded.append((id, []))
            return decoded.count - 1
        }()
        if decoded[entry].values.count <= slot {
            decoded[entry].values += repeatElement(nil, count: max(slot + 1, read.count) - decoded[entry].values.count)
        }
        decoded[entry].values[slot] = value
    }

    /// Notes that `row` will probably be decoded soon.
    func expect(_ row: Int64) {
        guard slots[row] == nil, expected[row] == nil else { return }
        expected.insert(row, slot: 0)
        pending.append(row)
    }

    /// Reads `row`, with the expected rows not read yet (up to a page).
    func read(_ row: Int64, from store: Store) throws {
        var batch = [row]
        while batch.count < DecodingContext.pageSize, let next = pending.popLast() {
            if next != row && slots[next] == nil { batch.append(next) }
        }
        for found in try store.readRows(of: entity, batch, into: &values) {
            slots.insert(found, slot: read.count)
            read.append(found)
        }
    }

    /// Reads the links of relationship `index` of the next rows read that lack them (up to a
    /// page), and expects the rows they reach on `target`.
    func readLinks(_ index: Int, from store: Store, reaching target: EntityPage) throws {
        let first = links[index].read
        var batch = LinkBatch(first: first, count: min(read.count - first, DecodingContext.pageSize))
        if let column = entity.selfColumns.firstIndex(of: index) {
            let offset = entity.spec.attributes.count + column
            for slot in batch.slots {
                if case .integer(let linked) = values[slot * width + offset] { batch.add(linked, to: slot) }
            }
        } else {
            try store.forEachLink(entity.relationships[index], of: entity, rows: Array(read[batch.slots])) { source, linked in
                if let slot = slots[source] { batch.add(linked, to: slot) }
            }
        }
        for linked in batch.targets { target.expect(linked) }
        links[index].append(batch)
    }
}

/// The links of one relationship read so far, by slot of the source row.
struct Links {
    /// Rows whose links are read: the slots below this.
    private(set) var read = 0
    /// The targets, one array per batch read.
    private var chunks: [[Int64]] = []
    /// Per slot: its batch, and where its targets start in it and how many there are.
    private var chunk: [Int32] = []
    private var start: [Int32] = []
    private var count: [Int32] = []

    /// The rows the row in `slot` links to, in link order; `nil` when its links are not read.
    func targets(of slot: Int) -> ArraySlice<Int64>? {
        guard slot < read else { return nil }
        let first = Int(start[slot])
        return chunks[Int(chunk[slot])][first..<first + Int(count[slot])]
    }

    mutating func append(_ batch: LinkBatch) {
        chunk += repeatElement(Int32(chunks.count), count: batch.slots.count)
        chunks.append(batch.targets)
        start += batch.start
        count += batch.count
        read = batch.slots.upperBound
    }
}

/// The links of a run of slots, read together. Links must arrive grouped by source row.
struct LinkBatch {
    let slots: Range<Int>
    private(set) var targets: [Int64] = []
    fileprivate var start: [Int32]
    fileprivate var count: [Int32]

    init(first: Int, count: Int) {
        slots = first..<first + count
        start = Array(repeating: 0, count: count)
        self.count = Array(repeating: 0, count: count)
    }

    mutating func add(_ target: Int64, to slot: Int) {
        guard slots.contains(slot) else { return }
        let i = slot - slots.lowerBound
        if count[i] == 0 { start[i] = Int32(targets.count) }
        count[i] += 1
        targets.append(target)
    }
}
