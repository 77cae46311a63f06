/// One relationship of an entity (SPEC 1.3), with its side resolved.
public struct RelationshipSpec: Sendable, Hashable {
    /// The property name.
    public let name: String
    /// Target entity name.
    public let target: String
    /// Whether it links to one target row or to many.
    public let kind: Kind
    /// Where the related objects or keys are read in a record.
    public let key: JSONKeyPath
    /// How the JSON refers to targets: nested objects, primary-key values, or either (`auto`).
    public let by: Reference
    /// For a back side: the forward relationship on the target that this one reads.
    public let inverse: String?
    /// For `many`: whether the payload's list replaces the links or is added to them.
    public let policy: Policy
    /// What deleting the source row does to the linked rows; `nullify` by default.
    public let onDelete: DeleteRule
    /// What a reference to a target row that does not exist does; `stub` by default.
    public let missing: MissingRule
    /// Index into ``MappingSpec/links`` of the link this relationship reads and writes.
    public let linkIndex: Int
    /// The `unique` attribute of the target that references match instead of its primary key
    /// (`targetKey`); `nil` for the primary key.
    public let targetKey: String?
    /// For a relationship declared `to:` a union (SPEC 1.4), the union's name: the entity then
    /// holds one such relationship per concrete entity of the union (`target`), all of one name,
    /// each with its own link. `nil` otherwise.
    public let union: String?
    /// Where the relationship's name is written in its mapping file.
    public let location: SourceLocation

    package init(
        name: String, target: String, kind: Kind, key: JSONKeyPath, by: Reference = .auto,
        inverse: String? = nil, policy: Policy = .replace, onDelete: DeleteRule = .nullify,
        missing: MissingRule = .stub, linkIndex: Int, targetKey: String? = nil, union: String? = nil,
        location: SourceLocation
    ) {
        self.union = union
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
        self.targetKey = targetKey
        self.location = location
    }

    /// `true` for a forward relationship, which owns its link's storage.
    public var isForward: Bool { inverse == nil }

    /// `one`: a single target row (an object, a key or `null`); `many`: a list of them.
    public enum Kind: String, Sendable, Hashable { case one, many }
    /// How the JSON refers to targets: `object`, nested objects imported as records; `id`,
    /// primary-key values (an array of values for a composite key); `keyObject`, objects of which
    /// only the target's key is read (the target row is never written); `auto`, an object is
    /// nested and anything else is a key.
    public enum Reference: String, Sendable, Hashable {
        case object, id, keyObject, auto

        /// The JSON names targets without being records of them: a key, or an object read for
        /// its key only.
        public var isReference: Bool { self == .id || self == .keyObject }
    }
    /// For `many`: `replace` makes the payload's list the whole set of links; `append` adds links
    /// and removes none.
    public enum Policy: String, Sendable, Hashable { case replace, append }
    /// When the source row is deleted: `nullify` drops the links, `cascade` deletes the targets
    /// too, `deny` refuses while links exist.
    public enum DeleteRule: String, Sendable, Hashable { case nullify, cascade, deny }
    /// For a reference to a missing target row: `stub` inserts a row holding only its key and
    /// defaults, `skip` drops the link and counts it in the report, `error` is a record error.
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
    /// Where the link is stored: a row-id column or a link table.
    public let storage: Storage

    package init(source: String, forward: String, target: String, back: String?, storage: Storage) {
        self.source = source
        self.forward = forward
        self.target = target
        self.back = back
        self.storage = storage
    }

    /// How a link is stored, decided when the mappings are loaded (SPEC 1.3).
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
