/// Decides a draft mapping from the shapes of the samples: which shapes are one entity, what
/// each key becomes (an attribute of which type, a relationship to which entity, or JSON), the
/// names, and the key styles.
///
/// Every decision keeps the draft able to import the samples it came from: a type accepts
/// every value seen, a primary key was in every object and never `null`, a relationship's
/// target holds every object met under it, and a key whose values no attribute or relationship
/// takes together is `json`.
struct DraftBuilder {
    let shapes: [ObjectShape]
    let rootEntity: String
    var entities: [DraftEntity] = []
    /// The file's `keyStyle`: the one that fits the keys of the most entities.
    var keyStyle = KeyStyle.asIs
    private let clusters: ShapeClusters
    /// The entity index of each cluster's representative shape.
    private var entityOfCluster: [Int: Int] = [:]

    init(shapes: [ObjectShape], rootEntity: String) throws(InferenceError) {
        self.shapes = shapes
        self.rootEntity = rootEntity
        clusters = ShapeClusters(shapes: shapes, rootEntity: rootEntity)
        merge()
        for index in entities.indices { decideKey(of: index) }
        for index in entities.indices { decideRoles(of: index) }
        try keepRootMappable()
        let reached = reachable()
        entities = Self.keeping(reached, of: entities)
        nameEntities()
        nameProperties()
        chooseKeyStyles()
    }

    // MARK: Merging shapes

    private mutating func merge() {
        for (representative, members) in clusters.clusters {
            entityOfCluster[representative] = entities.count
            entities.append(DraftEntity(shapes: members))
        }
        for index in entities.indices {
            var entity = entities[index]
            var fieldIndex: [String: Int] = [:]
            for shape in entity.shapes {
                let value = shapes[shape]
                entity.count += value.count
                entity.isMap = entity.isMap || value.isMap
                // An empty key cannot be written as a key path.
                for field in value.fields where !field.key.isEmpty {
                    let position = fieldIndex[field.key] ?? entity.fields.count
                    if position == entity.fields.count {
                        fieldIndex[field.key] = position
                        entity.fields.append(DraftField(key: field.key))
                    }
                    entity.fields[position].values.formUnion(field.values)
                    entity.fields[position].objectEntity = entity.fields[position].objectEntity ?? self.entity(holding: field.objectShape)
                    entity.fields[position].elementEntity = entity.fields[position].elementEntity ?? self.entity(holding: field.elementShape)
                }
            }
            // The name of the key the objects were first met under.
            let first = shapes[entity.shapes[0]]
            entity.suggestedName = first.parent == nil ? rootEntity : DraftNames.entityName(for: first.key, isList: first.isListElement)
            entities[index] = entity
        }
    }

    private func entity(holding shape: Int?) -> Int? {
        guard let shape, clusters.holdsRecords(shape) else { return nil }
        return entityOfCluster[clusters.cluster(of: shape)]
    }

    private mutating func decideKey(of index: Int) {
        let entity = entities[index]
        let fields = entity.fields.map { (key: $0.key, values: $0.values) }
        let name = index == 0 ? rootEntity : entity.suggestedName
        guard let key = KeyCandidates.key(of: fields, count: entity.count, entity: name) else { return }
        entities[index].keyField = entity.fields.firstIndex { $0.key == key }
    }

    // MARK: Roles

    /// `true` when `index` becomes an entity of the draft where objects are met: it has a key,
    /// or a key that is no relationship (so it gets an attribute), and is not a map.
    private func isEntity(_ index: Int) -> Bool {
        let entity = entities[index]
        guard !entity.isMap else { return false }
        return entity.isKeyed || entity.fields.contains { !$0.values.structure.holdsRecords }
    }

    private mutating func decideRoles(of index: Int) {
        for position in entities[index].fields.indices {
            entities[index].fields[position].role = role(of: entities[index].fields[position], isKey: position == entities[index].keyField)
        }
    }

    private func role(of field: DraftField, isKey: Bool) -> DraftField.Role {
        let values = field.values
        switch values.structure {
        case .scalar:
            if isKey, let type = values.scalars.keyType { return .attribute(InferredScalar(type: type)) }
            return .attribute(values.scalars.inferredType(isTimeName: DraftNames.isTimeName(field.key)) ?? InferredScalar(type: .json))
        case .nullOnly:
            return .attribute(InferredScalar(type: .json, note: "only null in the samples"))
        case .emptyLists:
            return .attribute(InferredScalar(type: .json, note: "only empty lists in the samples"))
        case .mixed(let what):
            return .attribute(InferredScalar(type: .json, note: what))
        case .scalarList:
            var element = values.elements.inferredType(isTimeName: false) ?? InferredScalar(type: .string)
            // `nullIf` does not reach into lists: "" beside dates makes a list of strings.
            if element.readsEmptyAsNull { element = InferredScalar(type: .string) }
            return .list(element)
        case .object:
            return relationship(.one, to: field.objectEntity, references: nil)
        case .objectOrKey:
            return relationship(.one, to: field.objectEntity, references: values.scalars)
        case .objectList:
            return relationship(.many, to: field.elementEntity, references: nil)
        case .objectOrKeyList:
            return relationship(.many, to: field.elementEntity, references: values.elements)
        }
    }

    /// A relationship to `target`, or JSON when the target is no entity or the scalars beside
    /// its objects (`references`) are not its keys.
    private func relationship(_ kind: RelationshipSpec.Kind, to target: Int?, references: ScalarKinds?) -> DraftField.Role {
        guard let target else { return .attribute(InferredScalar(type: .json)) }
        guard isEntity(target) else {
            let note = entities[target].isMap
                ? "a map: keys that are data (most start with a digit, or more than \(ObjectShape.maximumFields))"
                : "objects with no key and nothing but objects in them"
            return .attribute(InferredScalar(type: .json, note: note))
        }
        if let references {
            guard let keyType = entities[target].keyType, references.areKeys(of: keyType) else {
                let what = kind == .one ? "objects" : "lists of objects"
                return .attribute(InferredScalar(type: .json, note: "\(what) and values that are not their keys"))
            }
        }
        return kind == .one ? .one(target) : .many(target)
    }

    /// The root entity needs an attribute: records holding nothing but objects keep the first
    /// as JSON.
    private mutating func keepRootMappable() throws(InferenceError) {
        guard !entities[0].fields.isEmpty else {
            throw InferenceError(.notARecord, "the records hold no keys: every one is an empty object")
        }
        let hasAttribute = entities[0].fields.contains { $0.role.target == nil }
        if !hasAttribute {
            entities[0].fields[0].role = .attribute(InferredScalar(type: .json, note: "kept as JSON: the records hold nothing but objects"))
        }
    }

    // MARK: Reachability

    /// The entities a root record reaches through relationships, root first, in order.
    private func reachable() -> [Int] {
        var seen: Set<Int> = [0]
        var pending = [0]
        while let index = pending.popLast() {
            for field in entities[index].fields {
                if let target = field.role.target, seen.insert(target).inserted { pending.append(target) }
            }
        }
        return seen.sorted()
    }

    /// `entities` reduced to `kept`, with relationship targets renumbered.
    private static func keeping(_ kept: [Int], of entities: [DraftEntity]) -> [DraftEntity] {
        var renumbered: [Int: Int] = [:]
        for (new, old) in kept.enumerated() { renumbered[old] = new }
        return kept.map { old in
            var entity = entities[old]
            for position in entity.fields.indices {
                switch entity.fields[position].role {
                case .one(let target): entity.fields[position].role = .one(renumbered[target]!)
                case .many(let target): entity.fields[position].role = .many(renumbered[target]!)
                case .attribute, .list: break
                }
            }
            return entity
        }
    }
}
