/// What the samples showed at one place of the payload: the objects found there (the root
/// records, the objects under `repos` of the root records, …) and, per key, the values.
///
/// Shapes hold counts only, never values, so memory grows with the number of distinct places
/// and keys, not with the samples.
struct ObjectShape: Sendable {
    /// The JSON key the objects sat under; empty for the root records.
    let key: String
    /// The objects were elements of lists (a `many`), rather than values of the key (a `one`).
    let isListElement: Bool
    /// The shape whose objects held ``key``; `nil` for the root records.
    let parent: Int?
    /// Objects seen.
    var count = 0
    /// Keys in the order first seen.
    var fields: [FieldShape] = []
    var fieldIndex: [String: Int] = [:]
    /// The field matched at each member position of the last object: objects of one place
    /// usually list their keys in the same order, so most lookups are one comparison.
    var lastOrder: [Int] = []
    /// More distinct keys than ``maximumFields``: a map keyed by data rather than a record,
    /// kept as JSON.
    var isOverfull = false

    /// Distinct keys from which objects are taken as maps rather than records.
    static let maximumFields = 500

    init(key: String, isListElement: Bool, parent: Int?) {
        self.key = key
        self.isListElement = isListElement
        self.parent = parent
    }

    /// The objects are maps keyed by data rather than records: more than ``maximumFields``
    /// distinct keys, or most keys starting with a digit (dates, ids, versions).
    var isMap: Bool {
        guard !isOverfull else { return true }
        let numbered = fields.filter { $0.keyBytes.first.map { (48...57).contains($0) } ?? false }.count
        return fields.count >= 2 && numbered * 2 > fields.count
    }

    /// Every key, for comparing shapes.
    var keys: Set<String> { Set(fields.map(\.key)) }
}

/// The values one key held in the objects of one shape.
struct FieldShape: Sendable {
    let key: String
    let keyBytes: [UInt8]
    var values = ValueCounts()
    /// The shape of the objects found as values, if any.
    var objectShape: Int?
    /// The shape of the objects found as elements of lists, if any.
    var elementShape: Int?

    init(key: String, keyBytes: [UInt8]) {
        self.key = key
        self.keyBytes = keyBytes
    }
}

/// How often each kind of value appeared at one key.
struct ValueCounts: Sendable, Hashable {
    /// Objects that had the key.
    var present = 0
    var nulls = 0
    var scalars = ScalarKinds()
    var objects = 0
    var arrays = 0
    var emptyArrays = 0
    /// Scalar elements of the arrays.
    var elements = ScalarKinds()
    var elementNulls = 0
    var elementObjects = 0
    var elementArrays = 0

    /// Adds the counts of `other`.
    mutating func formUnion(_ other: ValueCounts) {
        present += other.present
        nulls += other.nulls
        scalars.formUnion(other.scalars)
        objects += other.objects
        arrays += other.arrays
        emptyArrays += other.emptyArrays
        elements.formUnion(other.elements)
        elementNulls += other.elementNulls
        elementObjects += other.elementObjects
        elementArrays += other.elementArrays
    }

    /// What the values were, as far as the mapping cares.
    var structure: Structure {
        let hasScalars = !scalars.isEmpty
        let hasObjects = objects > 0
        if arrays > 0 {
            if hasScalars || hasObjects { return .mixed("lists and other values") }
            if elementArrays > 0 { return .mixed("lists of lists") }
            let hasScalarElements = !elements.isEmpty
            let hasObjectElements = elementObjects > 0
            switch (hasObjectElements, hasScalarElements) {
            case (false, false): return elementNulls > 0 ? .mixed("lists of nulls") : .emptyLists
            case (true, _) where elementNulls > 0: return .mixed("null in lists of objects")
            case (true, false): return .objectList
            case (false, true): return .scalarList
            case (true, true): return .objectOrKeyList
            }
        }
        switch (hasObjects, hasScalars) {
        case (false, false): return .nullOnly
        case (true, false): return .object
        case (false, true): return .scalar
        case (true, true): return .objectOrKey
        }
    }

    /// The kinds of value a key held, as the draft maps them.
    enum Structure: Hashable {
        /// Scalars (and nulls): an attribute.
        case scalar
        /// Objects (and nulls): a `one` relationship, or JSON.
        case object
        /// Objects and scalars: a `one` relationship by `auto` when the scalars are keys.
        case objectOrKey
        /// Lists of objects: a `many` relationship, or JSON.
        case objectList
        /// Lists of objects and scalars: a `many` relationship when the scalars are keys.
        case objectOrKeyList
        /// Lists of scalars: `[T]`.
        case scalarList
        /// Only empty lists (and nulls).
        case emptyLists
        /// Only `null`.
        case nullOnly
        /// Kinds no attribute or relationship takes together: kept as JSON.
        case mixed(String)

        /// The key may hold objects that become records of an entity.
        var holdsRecords: Bool {
            switch self {
            case .object, .objectOrKey, .objectList, .objectOrKeyList: return true
            default: return false
            }
        }
    }
}
