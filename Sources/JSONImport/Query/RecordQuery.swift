/// What to read from the store: an entity's records, filtered, ordered and paged (SPEC 4.1
/// `query`, 4.3).
///
/// ```swift
/// var query = RecordQuery(entity: "User")
/// query.filter = "score > 50 AND address.city = 'Oslo'"
/// query.order = [.init("login")]
/// let users = try mapper.records(query)
/// ```
public struct RecordQuery: Sendable, Hashable {
    /// The entity whose records to read.
    public var entity: String
    /// Primary keys to select; a composite key as its values joined by commas in key order.
    /// Any number of keys is bound as one value (a JSON array read with `json_each`).
    public var ids: [String]
    /// A filter expression (SPEC 4.3).
    public var filter: String?
    /// Sort keys, applied in order; the primary key (the row id for an owned entity) breaks ties.
    /// A field named again changes nothing and is left out of the SQL.
    public var order: [Order]
    /// The most records to return; all when `nil`.
    public var limit: Int?
    /// How many records to skip before the first one returned; none when `nil`.
    public var offset: Int?
    /// Properties to include, in this order; all when `nil`.
    public var fields: [String]?
    /// Add `_createdAt`, `_updatedAt`, `_seenAt` and `_stub` after the other keys.
    public var includesMeta: Bool

    /// Creates a query; by default it reads every record of `entity`, in primary-key order.
    ///
    /// - Parameters:
    ///   - entity: the entity whose records to read.
    ///   - ids: primary keys to select (composite keys joined by commas); empty selects all.
    ///   - filter: a filter expression (SPEC 4.3); `nil` for none.
    ///   - order: sort keys, applied in order before the primary key.
    ///   - limit: the most records to return; `nil` for no limit.
    ///   - offset: records to skip first; `nil` for none.
    ///   - fields: properties to include, in this order; `nil` for all.
    ///   - includesMeta: add the bookkeeping keys `_createdAt`, `_updatedAt`, `_seenAt`, `_stub`.
    public init(
        entity: String, ids: [String] = [], filter: String? = nil, order: [Order] = [], limit: Int? = nil,
        offset: Int? = nil, fields: [String]? = nil, includesMeta: Bool = false
    ) {
        self.entity = entity
        self.ids = ids
        self.filter = filter
        self.order = order
        self.limit = limit
        self.offset = offset
        self.fields = fields
        self.includesMeta = includesMeta
    }

    /// One sort key.
    public struct Order: Sendable, Hashable {
        /// The attribute to sort by.
        public var field: String
        /// `true` sorts from largest to smallest.
        public var isDescending: Bool

        /// Creates a sort key.
        ///
        /// - Parameters:
        ///   - field: the attribute to sort by.
        ///   - descending: sort from largest to smallest; `false` by default.
        public init(_ field: String, descending: Bool = false) {
            self.field = field
            self.isDescending = descending
        }
    }
}

/// A request the mappings cannot serve: an unknown entity or field, a malformed filter, a key
/// that does not convert. The command line reports it as a usage error (exit 2).
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake it is.
    public let code: Code
    /// What is wrong with the request, ready to print.
    public let message: String
    /// For a filter that is wrong, the 1-based column in its expression, when known.
    public let column: Int?

    /// Stable error codes; callers can `catch` a specific one.
    public enum Code: String, Sendable, Hashable {
        /// No entity of that name.
        case unknownEntity
        /// The entity has no attribute, relationship or field of that name.
        case unknownField
        /// The filter expression is malformed, or compares what it cannot.
        case invalidFilter
        /// A primary key that does not convert to the key's type, has the wrong number of
        /// values, or an entity without a key (an owned one) asked for by key.
        case invalidKey
        /// Anything else the request gets wrong: a negative depth or age, nothing named to
        /// delete, a value that cannot be created or compared.
        case invalidRequest
    }

    /// Creates an error with code ``Code/invalidRequest``.
    ///
    /// - Parameter message: what is wrong with the request.
    public init(_ message: String) { self.init(.invalidRequest, message) }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what kind of mistake it is.
    ///   - message: what is wrong with the request.
    ///   - column: for a filter, the column in the expression.
    public init(_ code: Code, _ message: String, column: Int? = nil) {
        self.code = code
        self.message = message
        self.column = column
    }

    /// The error for a filter that does not parse or apply, with its column.
    init(_ filter: FilterError) { self.init(.invalidFilter, filter.description, column: filter.column) }

    /// The message (the same as ``message``).
    public var description: String { message }
}

/// What a store holds (SPEC 4.2 `stats --format json`).
public struct StoreStatistics: Sendable, Hashable {
    /// Row count per entity, stubs included, in declaration order.
    public var entities: [(name: String, rows: Int)] = []
    /// Stub rows per entity, in declaration order (0 for owned entities).
    public var stubs: [(name: String, rows: Int)] = []
    /// Stored links per forward relationship, named `Entity.relationship`, in declaration order.
    public var links: [(name: String, count: Int)] = []

    /// Whether two statistics have the same JSON form.
    ///
    /// - Parameters:
    ///   - a: statistics.
    ///   - b: other statistics.
    /// - Returns: `true` when their ``json`` texts are equal.
    public static func == (a: Self, b: Self) -> Bool { a.json == b.json }
    /// Hashes the JSON form, consistently with `==`.
    ///
    /// - Parameter hasher: the hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }

    /// `{"entities": {...}, "stubs": {...}, "links": {...}}`, every entity and forward
    /// relationship listed.
    public var json: String {
        func object(_ pairs: [(String, Int)]) -> RecordValue {
            .object(RecordObject(pairs.map { ($0.0, RecordValue.int(Int64($0.1))) }))
        }
        return RecordValue.object(RecordObject([
            ("entities", object(entities.map { ($0.name, $0.rows) })),
            ("stubs", object(stubs.map { ($0.name, $0.rows) })),
            ("links", object(links.map { ($0.name, $0.count) })),
        ])).jsonText
    }
}

extension StoredValue {
    var integer: Int? {
        if case .integer(let v) = self { return Int(v) }
        return nil
    }
}

extension Store {
    func entityPlan(_ name: String) throws -> EntityPlan {
        guard let entity = plan.entity(named: name) else {
            throw QueryError(.unknownEntity, "unknown entity '\(name)'\(Suggestion.hint(for: name, among: spec.entities.map(\.name)))")
        }
        return entity
    }

    /// A primary key from its command-line form: values joined by commas, in key order.
    func key(of entity: EntityPlan, from text: String) throws -> [StoredValue] {
        guard !entity.spec.isOwned else { throw QueryError(.invalidKey, "\(entity.spec.name) has no primary key") }
        let keys = entity.spec.keyAttributes
        let parts = keys.count == 1 ? [Substring(text)] : text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == keys.count else {
            throw QueryError(.invalidKey, "the key of \(entity.spec.name) has \(keys.count) values (\(entity.spec.primaryKey.joined(separator: ","))); got '\(text)'")
        }
        var values: [StoredValue] = []
        for (part, attribute) in zip(parts, keys) {
            guard case .scalar(let type) = attribute.type,
                case .success(let value) = ValueConversion.convert(.string(String(part)), to: type, format: attribute.dateFormat)
            else {
                throw QueryError(.invalidKey, "'\(part)' is not a valid \(attribute.type) for \(entity.spec.name).\(attribute.name)")
            }
            values.append(ValueConversion.applying(attribute.transforms, to: value))
        }
        return values
    }
}
