/// One entity of a draft mapping: the shapes of one cluster merged, with what each key becomes.
struct DraftEntity {
    /// The cluster's shapes, in the order they were made.
    let shapes: [Int]
    /// Objects (root records, for the root entity) seen in all its shapes.
    var count = 0
    /// Every key of its shapes, in the order first seen.
    var fields: [DraftField] = []
    /// The field that is the primary key, if one qualifies.
    var keyField: Int?
    /// The name of the key its objects were first met under, before names are made unique.
    var suggestedName = ""
    /// The entity name in the draft.
    var name = ""
    /// The objects are maps keyed by data (see ``ObjectShape/isMap``), kept as JSON.
    var isMap = false
    /// `Parent.property` for each relationship that reaches the entity.
    var places: [String] = []
    /// The entity's own `keyStyle`, when the file's default does not fit its keys.
    var keyStyle: KeyStyle?

    init(shapes: [Int]) {
        self.shapes = shapes
    }

    /// `true` when a key qualifies as the primary key.
    var isKeyed: Bool { keyField != nil }

    /// The type of the primary key.
    var keyType: ScalarType? { keyField.flatMap { fields[$0].values.scalars.keyType } }
}

/// One key of a draft entity.
struct DraftField {
    /// The JSON key.
    let key: String
    /// What it held, over every shape of the entity.
    var values = ValueCounts()
    /// The entity of the objects it held as values, and of those it held in lists.
    var objectEntity: Int?
    var elementEntity: Int?
    /// What the draft makes of it.
    var role = Role.attribute(InferredScalar(type: .json))
    /// The property name in the draft.
    var property = ""

    init(key: String) {
        self.key = key
    }

    /// An attribute or a relationship, and to which entity.
    enum Role {
        case attribute(InferredScalar)
        case list(InferredScalar)
        case one(Int)
        case many(Int)

        /// The target entity of a relationship.
        var target: Int? {
            switch self {
            case .one(let target), .many(let target): return target
            case .attribute, .list: return nil
            }
        }
    }
}
