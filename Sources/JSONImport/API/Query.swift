/// Records of one entity, read back as Swift values: filtered, ordered and paged.
///
/// A query is a value: each modifier returns a new query, and nothing runs until one of
/// ``all()-6ni5f``, ``first()-3fl2p``, ``last()-1pt5z``, ``count()-7pcxt``, ``exists()-1ddc3``, ``find(_:)-(Encodable)`` or
/// ``pluck(_:as:)-6pjit`` is called. Every run reads the last committed state (or, inside
/// ``Mapper/write(_:)-5hg6g`` on the same thread, the block's own work) and is safe to call from
/// any thread.
///
/// ```swift
/// let top = try mapper.query(User.self)
///     .where("score", .greaterThan, 50)
///     .where("address.city = 'Oslo'")
///     .order(by: "login")
///     .limit(10)
///     .all()
/// ```
///
/// That runs one `SELECT` of row ids, with `50` and `'Oslo'` bound as parameters:
///
/// ```sql
/// SELECT r."id" FROM "User" r
/// WHERE (r."score" > ? AND EXISTS (SELECT 1 FROM "Address" t1 WHERE t1."_id" = r."address" AND t1."city" IS ?))
///   AND r."_stub" = 0
/// ORDER BY r."login", r."id" LIMIT 10 OFFSET 0
/// ```
///
/// then decodes each row (see ``Mapper/find(_:id:)-(_,Encodable)`` for
/// the decoding rules). Stubs (rows only known by key, SPEC 1.3) are left out unless
/// ``includingStubs()`` is used.
public struct Query<Record: Decodable>: Sendable {
    let mapper: Mapper
    /// The entity the query reads.
    public let entity: String
    var filters: [Filter] = []
    /// Lists of primary keys to narrow to, each given by one ``keys(_:)`` call; a record must
    /// be in all of them.
    var keyLists: [[KeyInput]] = []
    var ordering: [SortKey] = []
    var limitCount: Int?
    var offsetCount: Int?
    var includesStubs = false

    init(mapper: Mapper, entity: String) {
        self.mapper = mapper
        self.entity = entity
    }

    // MARK: Building

    /// Only records for which `expression` (SPEC 4.3) holds; several `where`s must all hold.
    ///
    /// ```swift
    /// mapper.query(User.self).where("score > 50 AND address.city = 'Oslo'")
    /// ```
    ///
    /// - Parameter expression: a filter expression; names are checked and values bound when the
    ///   query runs.
    /// - Returns: the narrowed query.
    public func `where`(_ expression: String) -> Query { self.where(Filter(expression)) }

    /// Only records whose `path` compares with `value` as asked.
    ///
    /// ```swift
    /// mapper.query(Repo.self).where("owner.login", .equals, "octocat")
    /// ```
    ///
    /// - Parameters:
    ///   - path: a property name, or a dotted path through relationships.
    ///   - comparison: how to compare.
    ///   - value: a single value (string, number, Boolean, date, …, or `nil`), bound as a
    ///     parameter.
    /// - Returns: the narrowed query.
    public func `where`(_ path: String, _ comparison: Comparison, _ value: some Encodable) -> Query {
        self.where(.field(path, comparison, value))
    }

    /// Only records whose `path` equals one of `values`.
    ///
    /// ```swift
    /// mapper.query(User.self).where("login", in: ["octocat", "hubot"])
    /// ```
    ///
    /// - Parameters:
    ///   - path: a property name, or a dotted path through relationships.
    ///   - values: the allowed values, bound as parameters; an empty list matches nothing.
    /// - Returns: the narrowed query.
    public func `where`(_ path: String, in values: [some Encodable]) -> Query {
        self.where(.field(path, in: values))
    }

    /// Only records for which `filter` holds.
    ///
    /// ```swift
    /// mapper.query(User.self).where(.field("login", in: ["octocat", "hubot"]) || .isNull("bio"))
    /// ```
    ///
    /// - Parameter filter: the condition.
    /// - Returns: the narrowed query.
    public func `where`(_ filter: Filter) -> Query {
        var copy = self
        copy.filters.append(filter)
        return copy
    }

    /// Sorts by an attribute; later calls break ties of earlier ones, and the primary key breaks
    /// the remaining ties.
    ///
    /// - Parameters:
    ///   - field: an attribute name of the entity.
    ///   - descending: largest first.
    /// - Returns: the ordered query.
    public func order(by field: String, descending: Bool = false) -> Query {
        var copy = self
        copy.ordering.append(SortKey(field: field, isDescending: descending))
        return copy
    }

    /// Only the records whose primary key is one of `keys`; they still come in the query's
    /// order. Calling it again narrows to the keys in both lists.
    ///
    /// ```swift
    /// let some = try mapper.query(User.self).keys([3, 1]).order(by: "login").all()
    /// let reactions = try mapper.query(Reaction.self).keys([[101, 13], [101, 14]]).all()   // composite
    /// ```
    ///
    /// - Parameter keys: single values, or arrays of values in key order for a composite key;
    ///   an empty list matches nothing.
    /// - Returns: the narrowed query.
    public func keys(_ keys: [some Encodable]) -> Query {
        narrowed(to: keys.map { key in .value(Result { try PropertyEncoder.encode(key) }) })
    }

    /// Only the records whose primary key is one of `keys`, written as text the way the command
    /// line takes them (`jsonimport query Reaction --id 101,13`): a composite key as its values
    /// joined by commas in key order, each converted to its attribute's type.
    ///
    /// ```swift
    /// let reactions = try mapper.query("Reaction").keys(text: ["101,13"]).records()
    /// ```
    ///
    /// - Parameter keys: the keys as text; an empty list matches nothing.
    /// - Returns: the narrowed query.
    public func keys(text keys: [String]) -> Query { narrowed(to: keys.map { .text($0) }) }

    private func narrowed(to keys: [KeyInput]) -> Query {
        var copy = self
        copy.keyLists.append(keys)
        return copy
    }

    /// At most `count` records.
    ///
    /// - Parameter count: the limit, 0 or more: a negative one is a ``QueryError``
    ///   (``QueryError/Code/invalidRequest``) when the query runs.
    /// - Returns: the limited query.
    public func limit(_ count: Int) -> Query {
        var copy = self
        copy.limitCount = count
        return copy
    }

    /// Skips the first `count` records.
    ///
    /// - Parameter count: how many to skip, 0 or more: a negative count is a ``QueryError``
    ///   (``QueryError/Code/invalidRequest``) when the query runs.
    /// - Returns: the offset query.
    public func offset(_ count: Int) -> Query {
        var copy = self
        copy.offsetCount = count
        return copy
    }

    /// Includes stubs: rows created from a reference by key that no record has filled yet.
    ///
    /// - Returns: the widened query.
    public func includingStubs() -> Query {
        var copy = self
        copy.includesStubs = true
        return copy
    }

    // MARK: Running

    /// Every matching record, in order.
    ///
    /// - Returns: the records, decoded.
    /// - Throws: ``QueryError`` for an unknown entity or name, a malformed filter or a value
    ///   that does not convert; `DecodingError` when a row does not decode as `Record`;
    ///   ``StoreError`` for store failures.
    public func all() throws -> [Record] {
        try mapper.store.withReader { store in
            let (entity, rows) = try rowIDs(in: store)
            return try DecodingContext(store: store).decodeAll(Record.self, entity: entity, rows: rows)
        }
    }

    /// The first matching record (by the query's order, else by primary key).
    ///
    /// - Returns: the record, or `nil` when none matches.
    /// - Throws: as ``all()-6ni5f``.
    public func first() throws -> Record? { try limit(1).all().first }

    /// The last matching record (by the query's order, else by primary key).
    ///
    /// - Returns: the record, or `nil` when none matches.
    /// - Throws: as ``all()-6ni5f``.
    public func last() throws -> Record? {
        try mapper.store.withReader { store in
            let (entity, rows) = try rowIDs(in: store, reversed: true, limit: 1)
            return try rows.first.map { try DecodingContext(store: store).decode(Record.self, entity: entity, row: $0) }
        }
    }

    /// How many records match (within the limit and offset, when given).
    ///
    /// - Returns: the count.
    /// - Throws: ``QueryError`` for an unknown entity or name, a malformed filter or a value
    ///   that does not convert; ``StoreError`` for store failures.
    public func count() throws -> Int {
        try mapper.store.withReader { store in
            try count(in: store)
        }
    }

    /// Whether any record matches.
    ///
    /// - Returns: `true` when at least one does.
    /// - Throws: as ``count()-7pcxt``.
    public func exists() throws -> Bool { try limit(1).count() > 0 }

    /// The matching record with primary key `id`.
    ///
    /// ```swift
    /// let repo = try mapper.query(Repo.self).where("stars > 100").find(1296269)
    /// ```
    ///
    /// - Parameter id: the key: a single value, or an array of values in key order for a
    ///   composite key.
    /// - Returns: the record, or `nil` when there is none (or it does not match).
    /// - Throws: ``QueryError`` when the key does not convert to the key's type, and as
    ///   ``all()-6ni5f``.
    public func find(_ id: some Encodable) throws -> Record? {
        try mapper.store.withReader { store in
            let entity = try store.entityPlan(self.entity)
            let key = try store.storedKey(of: entity, from: PropertyEncoder.encode(id))
            let (_, rows) = try rowIDs(in: store, ids: [key])
            return try rows.first.map { try DecodingContext(store: store).decode(Record.self, entity: entity, row: $0) }
        }
    }

    /// One property of every matching record, decoded as `V` by the same rules as whole
    /// records (a relationship as nested values or keys, as `V` asks).
    ///
    /// ```swift
    /// let logins: [String] = try mapper.query(User.self).order(by: "login").pluck("login")
    /// let owners = try mapper.query(Repo.self).pluck("owner", as: Int?.self)
    /// ```
    ///
    /// - Parameters:
    ///   - property: an attribute or relationship name.
    ///   - type: the Swift type to decode each value as.
    /// - Returns: one value per record, in order.
    /// - Throws: ``QueryError`` for an unknown property, and as ``all()-6ni5f``.
    public func pluck<V: Decodable>(_ property: String, as type: V.Type = V.self) throws -> [V] {
        try mapper.store.withReader { store in
            let (entity, rows) = try rowIDs(in: store)
            try Self.check([property], of: entity)
            return try DecodingContext(store: store).decodeAll(type, property: property, entity: entity, rows: rows)
        }
    }

    /// Several properties of every matching record, in their JSON form; the same as
    /// ``records(fields:includingMeta:)-3xlvi`` with `fields`.
    ///
    /// ```swift
    /// for row in try mapper.query(User.self).pluck(["id", "login", "repos"]) {
    ///     print(RecordValue.object(row).jsonText)   // {"id":1,"login":"octocat","repos":[1296269]}
    /// }
    /// ```
    ///
    /// - Parameter properties: attribute and relationship names, in the order wanted.
    /// - Returns: one object per record, keyed by property name.
    /// - Throws: as ``records(fields:includingMeta:)-3xlvi``.
    public func pluck(_ properties: [String]) throws -> [RecordObject] {
        try records(fields: properties)
    }

    /// Every matching record in its JSON form, as `jsonimport query --format json` prints it
    /// (SPEC 4.2): attributes as JSON values (dates as ISO 8601 text), a relationship as the
    /// target's key (an array of keys for `many`), an owned target as the nested object.
    ///
    /// ```swift
    /// let rows = try mapper.query("User").where("score > 50").order(by: "login").records(fields: ["id", "login"])
    /// print(rows.map { RecordValue.object($0).jsonText })   // [{"id":1,"login":"octocat"}, …]
    /// ```
    ///
    /// - Parameters:
    ///   - fields: the properties to include, in this order; every attribute and relationship
    ///     when `nil`.
    ///   - includingMeta: add `_createdAt`, `_updatedAt`, `_seenAt` and `_stub` after them.
    /// - Returns: one object per record, in order.
    /// - Throws: ``QueryError`` for an unknown entity or field, a malformed filter or a key
    ///   that does not convert; ``StoreError`` for store failures.
    public func records(fields: [String]? = nil, includingMeta: Bool = false) throws -> [RecordObject] {
        try mapper.store.withReader { store in
            let entity = try store.entityPlan(self.entity)
            // Checked before the rows are read: a wrong field is reported even with no rows.
            if let fields { try Self.check(fields, of: entity, noun: "field") }
            // One read transaction: the rows and their links come from one committed state.
            return try store.transaction(.read) {
                let (_, rows) = try rowIDs(in: store)
                return try store.reader.records(entity, rows: rows, fields: fields, meta: includingMeta)
            }
        }
    }
}
