/// An entity as read from one file, before names across files are resolved.
struct EntityDraft {
    let name: String
    /// The entity's key in `entities`.
    let location: SourceLocation
    var table: String
    /// The `table` value, or the entity's key when the table is derived.
    var tableLocation: SourceLocation
    var primaryKey: [(name: String, location: SourceLocation)] = []
    /// `true` when `primaryKey` was written, even if it is invalid (avoids follow-on errors).
    var declaresPrimaryKey = false
    var attributes: [AttributeDraft] = []
    var relationships: [RelationshipDraft] = []
    var root: JSONKeyPath?
    var cleanup: CleanupPolicy?
    var hasTimestamps = true
    var distribution: DistributionDraft?
    var tombstones: [Tombstone] = []
    /// The `deleteWhen` key, for problems with it.
    var tombstonesLocation: SourceLocation?
    var version: (name: String, location: SourceLocation)?

    init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
        self.table = name
        self.tableLocation = location
    }

    var isOwned: Bool { !declaresPrimaryKey }
}

/// A union as read (SPEC 1.4); its routes are checked once every file is read.
struct UnionDraft {
    let name: String
    let location: SourceLocation
    var key: JSONKeyPath?
    var routes: [(value: String, target: String, location: SourceLocation)] = []
    var root: JSONKeyPath?
}

/// A document as read (SPEC 1.5); its roots' entities are checked once every file is read.
struct DocumentDraft {
    let name: String
    let location: SourceLocation
    var roots: [(path: JSONKeyPath, entity: String, location: SourceLocation)] = []
}

/// A `distribution` as read (SPEC 6), with where it is written.
enum DistributionDraft {
    /// `{ key: NAME }`: the tenant attribute's name, and where that name is written.
    case key(String, SourceLocation)
    /// `reference`: a table every node holds whole.
    case reference(SourceLocation)
}

/// An attribute as read, with what later checks need to know about how it was written.
struct AttributeDraft {
    let spec: AttributeSpec
    /// `false` when the type was invalid: `spec.type` is then a placeholder.
    let isTypeKnown: Bool
    /// The `export` value, when written.
    let exportLocation: SourceLocation?
}

/// A relationship as read; its target and inverse are checked once every file is read.
struct RelationshipDraft {
    let name: String
    let location: SourceLocation
    var target: String?
    var targetLocation: SourceLocation
    var kind: RelationshipSpec.Kind?
    var key: JSONKeyPath
    var by: RelationshipSpec.Reference = .auto
    var byLocation: SourceLocation?
    var inverse: String?
    var inverseLocation: SourceLocation?
    var policy: RelationshipSpec.Policy = .replace
    var onDelete: RelationshipSpec.DeleteRule = .nullify
    var missing: RelationshipSpec.MissingRule = .stub
    var missingLocation: SourceLocation?
    var targetKey: String?
    var targetKeyLocation: SourceLocation?
    /// For one concrete entity of a union target: the union's name (``RelationshipSpec/union``).
    var union: String?
    /// The name its storage (link column or table) is derived from: the relationship's name,
    /// and for a union, the name and the concrete entity's.
    var storageName: String { union == nil ? name : "\(name)__\(target ?? "")" }

    init(name: String, location: SourceLocation, key: JSONKeyPath) {
        self.name = name
        self.location = location
        self.targetLocation = location
        self.key = key
    }
}
