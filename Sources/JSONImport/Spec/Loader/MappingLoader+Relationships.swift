/// Reading relationships (SPEC 1.3); targets and inverses are checked in ``MappingLoader/resolve()``.
extension MappingLoader {
    static let relationshipKeys = ["to", "kind", "key", "by", "inverse", "policy", "onDelete", "missing", "targetKey"]
    static let kinds: [(String, RelationshipSpec.Kind)] = [("one", .one), ("many", .many)]
    static let references: [(String, RelationshipSpec.Reference)] = [("object", .object), ("id", .id), ("keyObject", .keyObject), ("auto", .auto)]
    static let policies: [(String, RelationshipSpec.Policy)] = [("replace", .replace), ("append", .append)]
    static let deleteRules: [(String, RelationshipSpec.DeleteRule)] = [
        ("nullify", .nullify), ("cascade", .cascade), ("deny", .deny),
    ]
    static let missingRules: [(String, RelationshipSpec.MissingRule)] = [
        ("stub", .stub), ("skip", .skip), ("error", .error),
    ]

    mutating func readRelationship(
        _ name: String, of entity: String, key: YAMLNode, body: YAMLNode, keyStyle: KeyStyle
    ) -> RelationshipDraft {
        let location = location(of: key)
        checkName(name, kind: "property", at: location)
        let qualified = "'\(entity).\(name)'"
        guard body.mapping != nil else {
            report(
                .invalidValue,
                "expected a mapping for relationship \(qualified) (with 'to' and 'kind'), found \(body.summary)",
                at: body)
            return RelationshipDraft(name: name, location: location, key: JSONKeyPath(segments: [name]))
        }
        var draft = RelationshipDraft(
            name: name, location: location, key: JSONKeyPath(segments: [keyStyle.key(for: name)]))
        guard let fields = fields(body, allowed: Self.relationshipKeys, place: "in relationship \(qualified)") else {
            return draft
        }
        if let node = fields["to"] {
            draft.target = text(node, for: "to")
            draft.targetLocation = self.location(of: node)
        } else {
            report(.missingKey, "relationship \(qualified) has no 'to'", at: key)
        }
        if let node = fields["kind"] {
            draft.kind = option(node, for: "kind", Self.kinds)
        } else {
            report(.missingKey, "relationship \(qualified) has no 'kind' (one or many)", at: key)
        }
        if let node = fields["key"], let path = keyPath(node, for: "key") { draft.key = path }
        if let node = fields["by"] {
            draft.by = option(node, for: "by", Self.references) ?? .auto
            draft.byLocation = self.location(of: node)
        }
        if let node = fields["inverse"] {
            draft.inverse = text(node, for: "inverse")
            draft.inverseLocation = self.location(of: node)
        }
        if let node = fields["policy"] {
            draft.policy = option(node, for: "policy", Self.policies) ?? .replace
            if draft.kind == .one, let keyNode = fields.keyNode("policy") {
                report(
                    .invalidValue, "'policy' applies only to 'many' relationships (\(qualified) is 'one')", at: keyNode)
            }
        }
        if let node = fields["onDelete"] {
            draft.onDelete = option(node, for: "onDelete", Self.deleteRules) ?? .nullify
        }
        if let node = fields["missing"] {
            draft.missing = option(node, for: "missing", Self.missingRules) ?? .stub
            draft.missingLocation = self.location(of: node)
        }
        if let node = fields["targetKey"] {
            draft.targetKey = text(node, for: "targetKey")
            draft.targetKeyLocation = self.location(of: node)
            // A stub needs a primary key: a reference by another key skips what it cannot find.
            if draft.missingLocation == nil { draft.missing = .skip }
        }
        return draft
    }
}
