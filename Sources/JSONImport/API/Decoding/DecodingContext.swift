/// One decode from the store: reads each row it needs once, and knows which rows are being
/// decoded along the current path, so that cycles in the data end.
///
/// The cycle rule: when a nested value reaches a row that is already being decoded further up
/// the same path (`user.repos[0].owner` is `user` again), that row decodes once more, with its
/// attributes and keys, but its relationships do not nest again: read as nested values there
/// they are empty (`[]`, or `nil` for a to-one). So a type that nests itself stops where its
/// data stops, or at the first repeated row.
final class DecodingContext {
    let store: Store
    private let reader: RecordReader
    private var attributes: [RowRef: [StoredValue]] = [:]
    private var path: [RowRef: Int] = [:]

    struct RowRef: Hashable {
        let entity: Int
        let row: Int64
    }

    init(store: Store) {
        self.store = store
        self.reader = RecordReader(connection: store.connection, plan: store.plan)
    }

    var plan: ImportPlan { store.plan }

    /// Decodes row `row` of `entity` as a `T`.
    func decode<T: Decodable>(_ type: T.Type, entity: EntityPlan, row: Int64, codingPath: [any CodingKey] = []) throws -> T {
        try RowDecoder.decode(type, from: RowDecoder(context: self, entity: entity, row: row, codingPath: codingPath))
    }

    /// Decodes one property of row `row` of `entity` as a `T`.
    func decode<T: Decodable>(_ type: T.Type, property: String, entity: EntityPlan, row: Int64) throws -> T {
        let decoder = RowDecoder(context: self, entity: entity, row: row, codingPath: [])
        return try decoder.container(keyedBy: IndexKey.self).decode(type, forKey: IndexKey(property))
    }

    /// The stored attribute values of a row, in attribute order.
    func values(_ entity: EntityPlan, row: Int64, codingPath: [any CodingKey]) throws -> [StoredValue] {
        let ref = RowRef(entity: entity.index, row: row)
        if let known = attributes[ref] { return known }
        let columns = entity.spec.attributes.map { quote($0.name) }.joined(separator: ", ")
        let rows = try store.connection.rows(
            "SELECT \(columns) FROM \(entity.table) WHERE \(entity.rowID) = ?", [.integer(row)])
        guard let values = rows.first else {
            throw DecodingError.valueNotFound(Any.self, .init(
                codingPath: codingPath, debugDescription: "\(entity.spec.name) row \(row) no longer exists"))
        }
        attributes[ref] = values
        return values
    }

    /// The rows a relationship of a row links to, in link order.
    func linkedRows(_ relationship: RelationshipPlan, of entity: EntityPlan, row: Int64) throws -> [Int64] {
        try reader.linkedRows(relationship, of: entity, row: row)
    }

    /// `true` when the row is being decoded further up the current path.
    func isOnPath(_ entity: EntityPlan, _ row: Int64) -> Bool {
        path[RowRef(entity: entity.index, row: row)] != nil
    }

    /// Runs `body` with the row on the path: what it decodes is nested below the row.
    func nesting<T>(_ entity: EntityPlan, _ row: Int64, _ body: () throws -> T) rethrows -> T {
        let ref = RowRef(entity: entity.index, row: row)
        path[ref, default: 0] += 1
        defer {
            path[ref]! -= 1
            if path[ref] == 0 { path[ref] = nil }
        }
        return try body()
    }
}
