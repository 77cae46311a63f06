/// What to export: an entity's records, selected by key or filter, shaped like the API payload
/// they came from (SPEC 4.4).
///
/// Records are written with their JSON keys (key paths rebuilt as nested objects) and values in
/// their JSON form. Forward relationships are nested as objects down to ``depth`` levels and
/// written as primary keys below it; back sides and `by: id` relationships are always keys;
/// owned targets are always nested. Stubs never appear as root records.
///
/// ```swift
/// var request = ExportRequest(entity: "User", depth: 2)
/// request.filter = "address.city = 'Oslo'"
/// request.fields = .excepted(["meta"])
/// let payload = try mapper.exportData(request)
/// ```
public struct ExportRequest: Sendable, Hashable {
    /// The root entity.
    public var entity: String
    /// Primary keys to select; a composite key as its values joined by commas in key order.
    /// Every record when empty (and no ``filter`` is given).
    public var ids: [String]
    /// A filter expression (SPEC 4.3) the root records must match.
    public var filter: String?
    /// How many levels of forward relationships are nested as objects: `0` writes every
    /// relationship as keys, `1` nests the root records' relationships and writes theirs as keys.
    public var depth: Int
    /// A JSON document (an array, wrapped under the entity's `root`), or JSON Lines.
    public var format: ExportFormat
    /// Which properties of the root records are written.
    public var fields: FieldSelection

    /// A request for the records of `entity`; every record, nested one level, as JSON, unless
    /// told otherwise.
    ///
    /// ```swift
    /// ExportRequest(entity: "Reaction", ids: ["101,13"], depth: 0, format: .jsonl)
    /// ```
    public init(
        entity: String, ids: [String] = [], filter: String? = nil, depth: Int = 1, format: ExportFormat = .json,
        fields: FieldSelection = .all
    ) {
        self.entity = entity
        self.ids = ids
        self.filter = filter
        self.depth = depth
        self.format = format
        self.fields = fields
    }
}

/// How exported records are laid out.
public enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// One JSON array of records, wrapped under the entity's `root` key path when it has one.
    case json
    /// One record per line, never wrapped (import does not unwrap JSON Lines).
    case jsonl
}

/// The properties of each root record to write, by property name (attributes and
/// relationships), as Active Record's `as_json(only:)` and `as_json(except:)` choose them.
///
/// ```swift
/// ExportRequest(entity: "User", fields: .included(["id", "login", "repos"]))
/// ExportRequest(entity: "User", fields: .excepted(["meta", "followers"]))
/// ```
///
/// Leaving out a primary-key attribute gives records that cannot be imported back.
public enum FieldSelection: Sendable, Hashable {
    /// Every exported property (attributes with `export: false` are never written).
    case all
    /// Only these properties, in the mapping's order.
    case included([String])
    /// Every exported property but these.
    case excepted([String])

    /// The names the selection lists.
    var names: [String] {
        switch self {
        case .all: return []
        case .included(let names), .excepted(let names): return names
        }
    }

    /// Whether the property called `name` is written.
    func includes(_ name: String) -> Bool {
        switch self {
        case .all: return true
        case .included(let names): return names.contains(name)
        case .excepted(let names): return !names.contains(name)
        }
    }
}
