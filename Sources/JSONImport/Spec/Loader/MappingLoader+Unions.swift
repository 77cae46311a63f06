/// Unions (SPEC 1.4) and documents (SPEC 1.5): reading them, checking what they name, and
/// turning each relationship to a union into one relationship per concrete entity.
extension MappingLoader {
    static let unionKeys = ["key", "map"]

    /// `oneOf: { key: KEYPATH, map: { VALUE: ENTITY, … } }`; besides it, only `root`.
    mutating func readUnion(_ name: String, at location: SourceLocation, oneOf node: YAMLNode, fields: Fields) {
        var union = UnionDraft(name: name, location: location)
        for key in Self.entityKeys where key != "oneOf" && key != "root" {
            guard let keyNode = fields.keyNode(key) else { continue }
            report(
                .invalidValue,
                "union '\(name)' cannot have '\(key)': a union ('oneOf') only routes objects to its entities, which hold the attributes and relationships",
                at: keyNode)
        }
        if let root = fields["root"] { union.root = keyPath(root, for: "root") }
        defer { unionDrafts.append(union) }
        guard let oneOf = self.fields(node, allowed: Self.unionKeys, place: "in 'oneOf' of '\(name)'") else { return }
        if let key = oneOf["key"] {
            union.key = keyPath(key, for: "key")
        } else {
            report(.missingKey, "'oneOf' of '\(name)' needs 'key': where the discriminator is read", at: node)
        }
        guard let map = oneOf["map"] else {
            report(.missingKey, "'oneOf' of '\(name)' needs 'map': which entity each discriminator value is", at: node)
            return
        }
        for pair in pairs(map, place: "for 'map' of '\(name)'") ?? [] {
            guard let value = pair.key.scalar?.value, let target = text(pair.value, for: "map") else { continue }
            union.routes.append((value, target, self.location(of: pair.value)))
        }
        if union.routes.isEmpty, map.mapping?.isEmpty ?? (map.resolved == .null) {
            report(.missingKey, "'map' of '\(name)' lists no entity", at: map)
        }
    }

    /// `DOCUMENT: { roots: { KEYPATH: ENTITY, … } }`.
    mutating func readDocument(_ name: String, key: YAMLNode, body: YAMLNode) {
        var document = DocumentDraft(name: name, location: location(of: key))
        checkName(name, kind: "document", at: document.location)
        defer { documentDrafts.append(document) }
        guard let fields = fields(body, allowed: ["roots"], place: "in document '\(name)'") else { return }
        guard let roots = fields["roots"] else {
            report(.missingKey, "document '\(name)' has no 'roots'", at: key)
            return
        }
        for pair in pairs(roots, place: "for 'roots' of '\(name)'") ?? [] {
            guard let path = keyPath(pair.key, for: "roots"), let entity = text(pair.value, for: "roots") else { continue }
            document.roots.append((path, entity, location(of: pair.value)))
        }
        if document.roots.isEmpty, roots.mapping?.isEmpty ?? (roots.resolved == .null) {
            report(.missingKey, "'roots' of document '\(name)' lists no entity", at: roots)
        }
    }

    // MARK: Resolving

    /// Checks the unions' and documents' names and targets, and replaces each relationship to
    /// a union by one per concrete entity. Returns the resolved unions and documents.
    mutating func resolveUnions(_ index: [String: Int]) -> (unions: [UnionSpec], documents: [DocumentSpec]) {
        var names = index.mapValues { drafts[$0].location }
        for union in unionDrafts { claim(union.name, kind: "union", at: union.location, names: &names) }
        for document in documentDrafts { claim(document.name, kind: "document", at: document.location, names: &names) }
        let unionIndex = Dictionary(unionDrafts.enumerated().map { ($1.name, $0) }) { first, _ in first }
        let known = Array(index.keys) + unionDrafts.map(\.name)
        var unions: [UnionSpec] = []
        for union in unionDrafts {
            for route in union.routes where index[route.target] == nil && unionIndex[route.target] == nil {
                let hint = Suggestion.hint(for: route.target, among: known)
                report(.unknownEntity, "union '\(union.name)' maps '\(route.value)' to unknown entity '\(route.target)'\(hint)", at: route.location)
            }
            guard let entities = concreteEntities(of: union.name, unionIndex: unionIndex, index: index, path: []),
                let key = union.key
            else { continue }
            unions.append(
                UnionSpec(
                    name: union.name, key: key, routes: union.routes.map { UnionSpec.Route(value: $0.value, target: $0.target) },
                    entities: entities, root: union.root, location: union.location))
        }
        var documents: [DocumentSpec] = []
        for document in documentDrafts {
            for root in document.roots where index[root.entity] == nil && unionIndex[root.entity] == nil {
                let hint = Suggestion.hint(for: root.entity, among: known)
                report(.unknownEntity, "document '\(document.name)' names unknown entity '\(root.entity)'\(hint)", at: root.location)
            }
            documents.append(
                DocumentSpec(
                    name: document.name, roots: document.roots.map { DocumentSpec.Root(path: $0.path, entity: $0.entity) },
                    location: document.location))
        }
        let concrete = Dictionary(unions.map { ($0.name, $0.entities) }) { first, _ in first }
        expandUnionTargets(concrete, unionIndex: unionIndex)
        return (unions, documents)
    }

    /// Records `name` in the namespace entities, unions and documents share.
    private mutating func claim(_ name: String, kind: String, at location: SourceLocation, names: inout [String: SourceLocation]) {
        if let first = names[name] {
            report(.duplicateName, "duplicate entity '\(name)' (a \(kind) shares the entities' names), first declared at \(first)", at: location)
        } else {
            names[name] = location
        }
    }

    /// The concrete entities `union` routes to, through nested unions, each once in route
    /// order; `nil` when a route is unknown or the union reaches itself (reported once, at the
    /// route that closes the loop).
    private mutating func concreteEntities(
        of union: String, unionIndex: [String: Int], index: [String: Int], path: [String]
    ) -> [String]? {
        guard let u = unionIndex[union] else { return nil }
        var result: [String] = []
        var isComplete = true
        for route in unionDrafts[u].routes {
            if index[route.target] != nil {
                if !result.contains(route.target) { result.append(route.target) }
            } else if route.target == union || path.contains(route.target) {
                // Each union on a loop reports it once, at the route that leads back to it.
                if route.target == (path.first ?? union) {
                    let loop = (path + [union, route.target]).joined(separator: " → ")
                    report(.invalidValue, "union '\(route.target)' reaches itself (\(loop)): a union routes to entities", at: route.location)
                }
                isComplete = false
            } else if unionIndex[route.target] != nil {
                guard let nested = concreteEntities(of: route.target, unionIndex: unionIndex, index: index, path: path + [union]) else {
                    isComplete = false
                    continue
                }
                for entity in nested where !result.contains(entity) { result.append(entity) }
            } else {
                isComplete = false
            }
        }
        return isComplete ? result : nil
    }

    /// Each relationship to a union becomes one relationship per concrete entity, of one name,
    /// in place; a reference by bare key to a union is reported (which entity would it be?).
    private mutating func expandUnionTargets(_ concrete: [String: [String]], unionIndex: [String: Int]) {
        for i in drafts.indices {
            var expanded: [RelationshipDraft] = []
            for relationship in drafts[i].relationships {
                guard let target = relationship.target, unionIndex[target] != nil else {
                    expanded.append(relationship)
                    continue
                }
                if relationship.by == .id, let location = relationship.byLocation {
                    report(
                        .invalidReference,
                        "'by: id' cannot reference union '\(target)': a bare key does not say which entity it is; use 'by: object' or 'by: keyObject'",
                        at: location)
                }
                if let location = relationship.targetKeyLocation {
                    report(.invalidReference, "'targetKey' cannot go with union '\(target)': its entities have attributes of their own", at: location)
                }
                if relationship.inverse != nil, let location = relationship.inverseLocation {
                    report(.invalidInverse, "a relationship to union '\(target)' cannot be a back side; declare 'inverse' on its entities", at: location)
                }
                // A union with problems of its own is reported already.
                guard let entities = concrete[target] else { continue }
                for entity in entities {
                    var variant = relationship
                    variant.target = entity
                    variant.union = target
                    expanded.append(variant)
                }
            }
            drafts[i].relationships = expanded
        }
    }
}
