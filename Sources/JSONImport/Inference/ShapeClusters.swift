/// Groups the shapes that hold records of one entity: the same objects met in several places
/// (a user as a repository's `owner`, an issue's `user` and a milestone's `creator`).
///
/// Rules, in order:
/// 1. shapes of one name (the entity name their key gives: `author` and `authors` are both
///    `Author`) with the same key attribute, or both without one, whose key sets are close
///    (one holds the other, or they share half their keys) are one entity;
/// 2. shapes of different names keyed by the same attribute, sharing at least
///    ``minimumSharedKeys`` keys and 60% of them, are one entity;
/// 3. the objects under one key of one entity are one entity, wherever the entity was met.
///
/// Only shapes reached from the root records through keys that hold objects take part; a
/// shape under a key mapped as JSON is not an entity.
struct ShapeClusters {
    let shapes: [ObjectShape]
    /// The shapes that hold records, in the order they were made.
    private(set) var included: [Int] = []
    private var isIncluded: [Bool]
    private var parents: [Int]
    /// The groups of ``clusterByName(rootEntity:)``, for ``clusterByKey()``.
    private var signatures: [(representative: Int, signature: Signature)] = []

    /// Keys two differently named shapes must share at least to be one entity.
    static let minimumSharedKeys = 4

    init(shapes: [ObjectShape], rootEntity: String) {
        self.shapes = shapes
        self.parents = Array(shapes.indices)
        self.isIncluded = Array(repeating: false, count: shapes.count)
        include()
        clusterByName(rootEntity: rootEntity)
        clusterByKey()
        mergeChildren()
    }

    /// The representative of `shape`'s entity: its first shape.
    func cluster(of shape: Int) -> Int {
        var shape = shape
        while parents[shape] != shape { shape = parents[shape] }
        return shape
    }

    /// `true` when `shape` holds records of an entity.
    func holdsRecords(_ shape: Int) -> Bool { isIncluded[shape] }

    /// Every entity's representative, in order, with its shapes in order.
    var clusters: [(representative: Int, shapes: [Int])] {
        var members: [Int: [Int]] = [:]
        var order: [Int] = []
        for shape in included {
            let representative = cluster(of: shape)
            if members[representative] == nil { order.append(representative) }
            members[representative, default: []].append(shape)
        }
        return order.map { ($0, members[$0]!) }
    }

    // MARK: Steps

    private mutating func include() {
        var pending = [0]
        isIncluded[0] = true
        while let shape = pending.popLast() {
            included.append(shape)
            guard !shapes[shape].isMap else { continue }
            for field in shapes[shape].fields where field.values.structure.holdsRecords {
                for child in [field.objectShape, field.elementShape].compactMap({ $0 }) where !isIncluded[child] {
                    isIncluded[child] = true
                    pending.append(child)
                }
            }
        }
        included.sort()
    }

    /// What a group compares: its name, key attribute and keys.
    private struct Signature {
        let name: String
        var idKey: String?
        var keys: Set<String>
    }

    private func signature(of shape: Int, rootEntity: String) -> Signature {
        let value = shapes[shape]
        let name = value.parent == nil ? rootEntity : DraftNames.entityName(for: value.key, isList: value.isListElement)
        let fields = value.fields.map { (key: $0.key, values: $0.values) }
        return Signature(name: name.lowercased(), idKey: KeyCandidates.key(of: fields, count: value.count, entity: name), keys: value.keys)
    }

    private mutating func clusterByName(rootEntity: String) {
        var groups: [String: [(representative: Int, signature: Signature)]] = [:]
        for shape in included where !shapes[shape].isMap {
            let signature = signature(of: shape, rootEntity: rootEntity)
            var group = groups[signature.name, default: []]
            if let index = group.firstIndex(where: { $0.signature.idKey == signature.idKey && Self.areClose($0.signature.keys, signature.keys) }) {
                union(group[index].representative, shape)
                group[index].signature.keys.formUnion(signature.keys)
            } else {
                group.append((shape, signature))
            }
            groups[signature.name] = group
        }
        signatures = groups.values.flatMap { $0 }.sorted { $0.representative < $1.representative }
    }

    private mutating func clusterByKey() {
        var keyed: [(representative: Int, signature: Signature)] = []
        for (shape, signature) in signatures where signature.idKey != nil {
            if let index = keyed.firstIndex(where: { $0.signature.idKey == signature.idKey && Self.areAlike($0.signature.keys, signature.keys) }) {
                union(keyed[index].representative, shape)
                keyed[index].signature.keys.formUnion(signature.keys)
            } else {
                keyed.append((shape, signature))
            }
        }
        signatures = []
    }

    /// Makes the objects under one key of one entity one entity, until nothing changes.
    private mutating func mergeChildren() {
        var changed = true
        while changed {
            changed = false
            var firstChild: [Int: [String: (object: Int?, element: Int?)]] = [:]
            for shape in included where !shapes[shape].isMap {
                let representative = cluster(of: shape)
                for field in shapes[shape].fields where field.values.structure.holdsRecords {
                    var children = firstChild[representative, default: [:]][field.key] ?? (nil, nil)
                    changed = merge(field.objectShape, into: &children.object) || changed
                    changed = merge(field.elementShape, into: &children.element) || changed
                    firstChild[representative, default: [:]][field.key] = children
                }
            }
        }
    }

    private mutating func merge(_ child: Int?, into first: inout Int?) -> Bool {
        guard let child, isIncluded[child] else { return false }
        guard let existing = first else {
            first = child
            return false
        }
        return union(existing, child)
    }

    /// Joins two entities; the one made first represents both. Returns whether they were apart.
    @discardableResult
    private mutating func union(_ a: Int, _ b: Int) -> Bool {
        let (ra, rb) = (cluster(of: a), cluster(of: b))
        guard ra != rb else { return false }
        parents[max(ra, rb)] = min(ra, rb)
        return true
    }

    /// One key set holds the other, or they share at least half of all their keys.
    private static func areClose(_ a: Set<String>, _ b: Set<String>) -> Bool {
        if a.isSubset(of: b) || b.isSubset(of: a) { return true }
        return similarity(a, b) >= 0.5
    }

    /// Enough shared keys to be the same kind of record under another name.
    private static func areAlike(_ a: Set<String>, _ b: Set<String>) -> Bool {
        a.intersection(b).count >= minimumSharedKeys && similarity(a, b) >= 0.6
    }

    private static func similarity(_ a: Set<String>, _ b: Set<String>) -> Double {
        let union = a.union(b).count
        return union == 0 ? 1 : Double(a.intersection(b).count) / Double(union)
    }
}
