/// The validated, immutable model of a mappings location: every entity with its attributes,
/// relationships and resolved link storage.
///
/// A `MappingSpec` is produced once by ``MappingSpec/load(from:)`` and never re-reads YAML.
/// Forward and back sides of each relationship are paired and share one ``Link``.
///
/// ```swift
/// let spec = try MappingSpec.load(from: "Mappings")
/// print(spec.entities.map(\.name))
/// ```
public struct MappingSpec: Sendable, Hashable {
    /// Entities in declaration order (files sorted by name, then order within each file).
    public let entities: [EntitySpec]
    /// Every stored link, one per forward relationship, in declaration order.
    public let links: [Link]
    /// The mapping files that were read, in the order they were read.
    public let files: [String]
    /// Unions (SPEC 1.4) in declaration order.
    public let unions: [UnionSpec]
    /// Documents with several roots (SPEC 1.5) in declaration order.
    public let documents: [DocumentSpec]

    private let entityIndex: [String: Int]

    package init(entities: [EntitySpec], links: [Link], files: [String], unions: [UnionSpec] = [], documents: [DocumentSpec] = []) {
        self.entities = entities
        self.links = links
        self.files = files
        self.unions = unions
        self.documents = documents
        var index: [String: Int] = [:]
        for (i, entity) in entities.enumerated() { index[entity.name] = i }
        self.entityIndex = index
    }

    /// The entity named `name`, or `nil`.
    public func entity(named name: String) -> EntitySpec? {
        entityIndex[name].map { entities[$0] }
    }

    /// The union named `name`, or `nil`.
    public func union(named name: String) -> UnionSpec? {
        unions.first { $0.name == name }
    }

    /// The document named `name`, or `nil`.
    public func document(named name: String) -> DocumentSpec? {
        documents.first { $0.name == name }
    }

    /// The entity named `name`, which a validated spec guarantees to exist.
    package subscript(entity name: String) -> EntitySpec {
        guard let index = entityIndex[name] else { preconditionFailure("no entity '\(name)' in the spec") }
        return entities[index]
    }

    /// The link that stores relationship `name` of `entity` (forward or back side).
    public func link(of entity: String, _ name: String) -> Link? {
        guard let relationship = self.entity(named: entity)?.relationship(named: name) else { return nil }
        return links[relationship.linkIndex]
    }
}

/// One entity of the mappings (SPEC 1.1).
public struct EntitySpec: Sendable, Hashable {
    /// The entity name, as declared in the mappings.
    public let name: String
    /// Storage table name.
    public let table: String
    /// Primary-key attribute names in key order; empty for an owned entity.
    public let primaryKey: [String]
    /// Attributes in declaration order.
    public let attributes: [AttributeSpec]
    /// Relationships, forward and back sides, in declaration order; a relationship to a union
    /// is there once per concrete entity of the union, with one name (``RelationshipSpec/union``).
    public let relationships: [RelationshipSpec]
    /// Key path of the record list when imported as the root entity.
    public let root: JSONKeyPath?
    /// What the clean-up pass does with its rows; `orphans` by default for an owned entity,
    /// else `none`.
    public let cleanup: CleanupPolicy
    /// The table keeps the `_created_at`, `_updated_at` and `_seen_at` columns; without them
    /// rows are never evicted.
    public let hasTimestamps: Bool
    /// How a distributed PostgreSQL spreads the rows (SPEC 6); `nil` when the mappings
    /// distribute nothing the entity links to.
    public let distribution: Distribution?
    /// The key attributes a reference by key gives, as the mapping declares `primaryKey`: for a
    /// distributed entity, ``primaryKey`` without the tenant attribute the store puts first in it
    /// (a reference takes the tenant of the record it is in).
    public let referenceKey: [String]
    /// Tombstone rules (`deleteWhen`): a record matching any of them deletes its row.
    public let tombstones: [Tombstone]
    /// The attribute (`int` or `date`) that orders versions of a record (`version`): a record
    /// whose value is lower than the stored row's is stale and changes nothing.
    public let versionAttribute: String?
    /// Where the entity's name is written in its mapping file.
    public let location: SourceLocation

    package init(
        name: String, table: String, primaryKey: [String], attributes: [AttributeSpec],
        relationships: [RelationshipSpec], root: JSONKeyPath?, cleanup: CleanupPolicy,
        hasTimestamps: Bool, distribution: Distribution? = nil, referenceKey: [String]? = nil,
        tombstones: [Tombstone] = [], versionAttribute: String? = nil, location: SourceLocation
    ) {
        self.tombstones = tombstones
        self.versionAttribute = versionAttribute
        self.name = name
        self.table = table
        self.primaryKey = primaryKey
        self.attributes = attributes
        self.relationships = relationships
        self.root = root
        self.cleanup = cleanup
        self.hasTimestamps = hasTimestamps
        self.distribution = distribution
        self.referenceKey = referenceKey ?? primaryKey
        self.location = location
    }

    /// The attribute that names a distributed entity's tenant, or `nil`.
    public var tenantAttribute: String? {
        if case .key(let name) = distribution { return name }
        return nil
    }

    /// `true` when the entity has no primary key and lives inside whatever links to it (SPEC 2.4).
    public var isOwned: Bool { primaryKey.isEmpty }

    /// The attribute named `name`.
    ///
    /// - Parameter name: an attribute name.
    /// - Returns: the attribute, or `nil` when the entity has none of that name.
    public func attribute(named name: String) -> AttributeSpec? {
        attributes.first { $0.name == name }
    }

    /// The relationship (forward or back side) named `name`; for a relationship to a union, the
    /// one to its first concrete entity (``relationships(named:)`` gives them all).
    ///
    /// - Parameter name: a relationship name.
    /// - Returns: the relationship, or `nil` when the entity has none of that name.
    public func relationship(named name: String) -> RelationshipSpec? {
        relationships.first { $0.name == name }
    }

    /// Every relationship named `name`: one, or one per concrete entity of a union it links to.
    public func relationships(named name: String) -> [RelationshipSpec] {
        relationships.filter { $0.name == name }
    }

    /// The primary-key attributes in key order.
    public var keyAttributes: [AttributeSpec] {
        primaryKey.compactMap { attribute(named: $0) }
    }

    /// The column that holds the SQLite row id: the key attribute itself for a single `int`
    /// key, else the bookkeeping column `_id`.
    public var rowIDColumn: String {
        if primaryKey.count == 1, let key = attribute(named: primaryKey[0]), key.type == .int {
            return key.name
        }
        return "_id"
    }

    /// How many columns the entity's table has: the row id column `_id` when the key is not a
    /// single `int`, the attributes, the foreign-key columns of `links` held in this table, the
    /// three timestamps unless `timestamps: false`, and `_stub` unless the entity is owned.
    ///
    /// - Parameter links: every link of the mappings.
    /// - Returns: the column count; SQLite allows at most ``maximumColumns``.
    func columnCount(links: [Link]) -> Int {
        let foreignKeys = links.filter { link in
            if case .foreignKey(let table, _, _, _) = link.storage { return table == self.table }
            return false
        }.count
        return (rowIDColumn == "_id" ? 1 : 0) + attributes.count + foreignKeys + (hasTimestamps ? 3 : 0)
            + (isOwned ? 0 : 1)
    }

    /// The most columns a SQLite table has (SQLITE_MAX_COLUMN): an entity whose table would
    /// need more is refused when the mappings load.
    static let maximumColumns = 2000
}

/// How a distributed PostgreSQL (Citus) spreads an entity's rows over its nodes (SPEC 6).
public enum Distribution: Sendable, Hashable {
    /// By the value of this attribute, the tenant: a tenant's rows sit together, its primary
    /// keys, link tables and references carry the tenant, and rows link only within a tenant.
    case key(String)
    /// A small table every node holds whole, shared by every tenant.
    case reference
}

/// What the clean-up pass does with an entity's rows (SPEC 2.5).
public enum CleanupPolicy: String, Sendable, Hashable {
    /// Rows that no longer hang from a root by links are deleted.
    case orphans
    /// Rows are roots: never removed by clean-up.
    case none
}

/// A dot-separated JSON key path, or literal segments.
public struct JSONKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys to follow from the record, outermost first; a segment may contain dots.
    public let segments: [String]

    /// Creates a path from literal segments, taken as written (no splitting at dots).
    ///
    /// - Parameter segments: the keys to follow, outermost first.
    public init(segments: [String]) { self.segments = segments }

    /// Splits `path` at dots: `contact.email` → `["contact", "email"]`.
    public init(dotted path: String) {
        self.segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The segments joined by dots: `contact.email`.
    public var description: String { segments.joined(separator: ".") }
}

/// Where something was written in a mapping file; line and column are 1-based.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The mapping file's path, as it was read.
    public let file: String
    /// 1-based line.
    public let line: Int
    /// 1-based column.
    public let column: Int

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - file: the mapping file's path.
    ///   - line: 1-based line.
    ///   - column: 1-based column.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, as diagnostics print it.
    public var description: String { "\(file):\(line):\(column)" }
}
