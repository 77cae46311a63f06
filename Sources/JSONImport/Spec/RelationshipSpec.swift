/// One relationship of an entity (SPEC 1.3), with its side resolved.
public struct RelationshipSpec: Sendable, Hashable {
    public let name: String
    /// Target entity name.
    public let target: String
    public let kind: Kind
    public let key: JSONKeyPath
    public let by: Reference
    /// For a back side: the forward relationship on the target that this one reads.
    public let inverse: String?
    public let policy: Policy
    public let onDelete: DeleteRule
    public let missing: MissingRule
    /// Index into ``MappingSpec/links`` of the link this relationship reads and writes.
    public let linkIndex: Int
    public let location: SourceLocation

    package init(
        name: String, target: String, kind: Kind, key: JSONKeyPath, by: Reference = .auto,
        inverse: String? = nil, policy: Policy = .replace, onDelete: DeleteRule = .nullify,
        missing: MissingRule = .stub, linkIndex: Int, location: SourceLocation
    ) {
        self.name = name
        self.target = target
        self.kind = kind
        self.key = key
        self.by = by
        self.inverse = inverse
        self.policy = policy
        self.onDelete = onDelete
        self.missing = missing
        self.linkIndex = linkIndex
        self.location = location
    }

    /// `true` for a forward relationship, which owns its link's storage.
    public var isForward: Bool { inverse == nil }

    public enum Kind: String, Sendable, Hashable { case one, many }
    public enum Reference: String, Sendable, Hashable { case object, id, auto }
    public enum Policy: String, Sendable, Hashable { case replace, append }
    public enum DeleteRule: String, Sendable, Hashable { case nullify, cascade, deny }
    public enum MissingRule: String, Sendable, Hashable { case stub, skip, error }
}

/// The stored connection made by one forward relationship, shared with its back side.
///
/// A link connects a *source* row (of the forward relationship's entity) to a *target* row.
public struct Link: Sendable, Hashable {
    /// Entity of the forward relationship.
    public let source: String
    /// Name of the forward relationship.
    public let forward: String
    /// Target entity of the forward relationship.
    public let target: String
    /// Name of the back side on the target, if one is declared.
    public let back: String?
    public let storage: Storage

    package init(source: String, forward: String, target: String, back: String?, storage: Storage) {
        self.source = source
        self.forward = forward
        self.target = target
        self.back = back
        self.storage = storage
    }

    public enum Storage: Sendable, Hashable {
        /// A column holding a row id. `onSource`: the column sits on the source table and points
        /// at the target (forward `one`); otherwise it sits on the target table and points at the
        /// source (forward `many` with a back `one`). `isUnique` for one ↔ one.
        case foreignKey(table: String, column: String, onSource: Bool, isUnique: Bool)
        /// A link table with `source`, `target` and `position` columns.
        case linkTable(name: String)
    }

    /// `Entity.relationship` of the forward side, as reports and `stats` name it.
    public var qualifiedName: String { "\(source).\(forward)" }
}
