/// Reading stored records as Swift values (SPEC 3), Active Record style.
///
/// A type is read as the entity of its name (or its ``ImportableEntity/entityName``), property
/// by property:
///
/// - an attribute decodes by its type: `Date` for dates, `Decimal` (or `String`) for decimals,
///   `UUID`, `URL`, any `Decodable` for `json`, arrays for `[T]`;
/// - a relationship decodes as the target type, read on demand and only as deep as the type
///   asks (`var address: Address?`, `var repos: [Repo]`), or as primary keys when the property
///   has a scalar type (`var followers: [Int]`, `var owner: Int?`); owned targets decode as
///   nested values;
/// - a to-one relationship without a link decodes as `nil`, a to-many one as `[]`; a property
///   the entity does not have decodes as `nil` when optional;
/// - cycles in the data end: a row reached again below itself decodes without nesting its
///   relationships again (the cycle rule).
///
/// ```swift
/// struct User: Codable {
///     var id: Int
///     var login: String
///     var address: Address?
///     var repos: [Repo]
///     var followers: [Int]
/// }
/// let user = try mapper.find(User.self, id: 1)
/// let count = try mapper.count(User.self)
/// let oslo = try mapper.query(User.self).where("address.city", .equals, "Oslo").all()
/// ```
extension Mapper {
    /// A query over the records of `type`'s entity; see ``Query``.
    ///
    /// ```swift
    /// let names = try mapper.query(Repo.self).where("stars > 100").order(by: "name").pluck("name", as: String.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type records decode as.
    ///   - entity: the entity to read; by default the type's entity name.
    /// - Returns: a query that reads every record until narrowed.
    public func query<T: Decodable>(_ type: T.Type, entity: String? = nil) -> Query<T> {
        Query(mapper: self, entity: entity ?? entityName(of: type))
    }

    /// The record with primary key `id`.
    ///
    /// Runs `SELECT r."id" FROM "User" r WHERE r."id" IN (SELECT value FROM json_each(?)) AND
    /// r."_stub" = 0 ORDER BY r."id"` with the key bound as a JSON array (`[1]`), then decodes
    /// the row.
    ///
    /// ```swift
    /// let user = try mapper.find(User.self, id: 1)
    /// let reaction = try mapper.find(Reaction.self, id: [101, 14])   // composite key
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type to decode.
    ///   - id: the key: a single value, or an array of values in key order for a composite key.
    /// - Returns: the record, or `nil` when there is none (a stub counts as none).
    /// - Throws: ``QueryError`` for an unknown entity or a key that does not convert;
    ///   `DecodingError` when the row does not decode as `T`; ``StoreError`` for store failures.
    public func find<T: Decodable>(_ type: T.Type, id: some Encodable) throws -> T? {
        try query(type).find(id)
    }

    /// The records with the given primary keys, in the order of `ids` (keys without a record
    /// are left out). Any number of keys is one bound value, as for ``find(_:id:)-(_,Encodable)``.
    ///
    /// ```swift
    /// let users = try mapper.find(User.self, ids: [3, 1])
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type to decode.
    ///   - ids: the keys.
    /// - Returns: the records found.
    /// - Throws: as ``find(_:id:)-(_,Encodable)``.
    public func find<T: Decodable, ID: Encodable>(_ type: T.Type, ids: [ID]) throws -> [T] {
        let query = self.query(type)
        return try store.withReader { store in
            let entity = try store.entityPlan(query.entity)
            let keys = try ids.map { try store.storedKey(of: entity, from: PropertyEncoder.encode($0)) }
            guard !keys.isEmpty else { return [] }
            let rows = try query.rowIDs(in: store, ids: keys).rows
            let byKey = Dictionary(try store.keys(of: entity, rows: rows).map { ($1, $0) }) { first, _ in first }
            let found = keys.compactMap { byKey[Store.keyValue($0, of: entity.spec)] }
            return try DecodingContext(store: store).decodeAll(type, entity: entity, rows: found)
        }
    }

    /// Every record of `type`'s entity, by primary key.
    ///
    /// - Parameter type: the Swift type to decode.
    /// - Returns: the records.
    /// - Throws: as ``Query/all()-6ni5f``.
    public func all<T: Decodable>(_ type: T.Type) throws -> [T] { try query(type).all() }

    /// The record with the smallest primary key.
    ///
    /// - Parameter type: the Swift type to decode.
    /// - Returns: the record, or `nil` when there are none.
    /// - Throws: as ``Query/all()-6ni5f``.
    public func first<T: Decodable>(_ type: T.Type) throws -> T? { try query(type).first() }

    /// The record with the largest primary key.
    ///
    /// - Parameter type: the Swift type to decode.
    /// - Returns: the record, or `nil` when there are none.
    /// - Throws: as ``Query/all()-6ni5f``.
    public func last<T: Decodable>(_ type: T.Type) throws -> T? { try query(type).last() }

    /// How many records `type`'s entity holds (stubs left out).
    ///
    /// - Parameter type: the Swift type whose entity to count.
    /// - Returns: the count.
    /// - Throws: ``QueryError`` for an unknown entity, ``StoreError`` for store failures.
    public func count<T: Decodable>(_ type: T.Type) throws -> Int { try query(type).count() }
}
