/// Reads stored rows back as JSON-shaped records (SPEC 4.2): attributes in their JSON form,
/// relationships as primary keys in link order, owned targets nested.
struct RecordReader {
    let store: Store
    var plan: ImportPlan { store.plan }

    /// Options of one read.
    struct Selection {
        /// Primary keys to narrow to; every row when `nil`.
        var ids: [[StoredValue]]?
        var filter: FilterExpression?
        var order: [(field: String, descending: Bool)] = []
        var limit: Int?
        var offset: Int?
        var fields: [String]?
        var meta = false
        /// Leave out stub rows (the Swift API reads records, and a stub is only a key).
        var excludesStubs = false
    }

    /// The row ids matching `selection`, in order.
    func rowIDs(_ entity: EntityPlan, _ selection: Selection) throws -> [Int64] {
        try store.engine.rowIDs(entity, selection, plan: plan)
    }

    /// How many rows match `selection` (within its limit and offset).
    func count(_ entity: EntityPlan, _ selection: Selection) throws -> Int {
        try store.engine.count(entity, selection, plan: plan)
    }

    /// A row's attribute values in declaration order, and its stub mark.
    struct StoredRow {
        let values: [StoredValue]
        let isStub: Bool
    }

    /// The attribute values and stub mark of those of `rows` that exist, by row: one statement
    /// per 500 rows.
    func storedRows(_ entity: EntityPlan, rows: [Int64]) throws -> [Int64: StoredRow] {
        try store.engine.storedRows(entity, rows: rows)
    }

    /// The attribute values and stub mark of `row`, which something links to.
    /// - Throws: ``StoreError`` (`corrupt`) when the row does not exist.
    func storedRow(_ entity: EntityPlan, row: Int64) throws -> StoredRow {
        guard let stored = try store.engine.storedRows(entity, rows: [row])[row] else {
            throw StoreError(.corrupt, "row \(row) of \(entity.spec.name) is linked to but does not exist")
        }
        return stored
    }

    /// The row ids matching `selection`, in order, as a query a later stage hands back to the
    /// store (a deletion marks them).
    func compiledQuery(_ entity: EntityPlan, _ selection: Selection) throws -> CompiledQuery {
        try store.engine.compiledQuery(entity, selection, plan: plan)
    }

    /// A stored value in its JSON form for `attribute`.
    static func jsonValue(_ value: StoredValue, of attribute: AttributeSpec) -> RecordValue {
        jsonValue(value, of: attribute.type)
    }

    /// A stored value in its JSON form for an attribute of `type`.
    static func jsonValue(_ value: StoredValue, of type: AttributeType) -> RecordValue {
        if case .null = value { return .null }
        switch (type, value) {
        case (.scalar(.bool), .integer(let v)): return .bool(v != 0)
        case (.scalar(.date), .real(let s)): return .string(DateCoding.format(s, format: .iso8601))
        case (.scalar(.date), .integer(let s)): return .string(DateCoding.format(Double(s), format: .iso8601))
        case (.scalar(.json), .text(let text)): return RecordValue(jsonText: text)
        case (.array(let element), .text(let text)):
            guard case .array(let items) = RecordValue(jsonText: text) else { return .string(text) }
            return .array(items.map { element == .date ? Self.isoDate($0) : $0 })
        case (_, .integer(let v)): return .int(v)
        case (_, .real(let v)): return .double(v)
        case (_, .text(let s)): return .string(s)
        case (_, .null): return .null
        }
    }

    private static func isoDate(_ value: RecordValue) -> RecordValue {
        switch value {
        case .number(let text): return Double(text).map { .string(DateCoding.format($0, format: .iso8601)) } ?? value
        case .int(let v): return .string(DateCoding.format(Double(v), format: .iso8601))
        case .double(let v): return .string(DateCoding.format(v, format: .iso8601))
        default: return value
        }
    }
}

extension Store {
    /// A reader of this store's records.
    var reader: RecordReader { RecordReader(store: self) }
}
