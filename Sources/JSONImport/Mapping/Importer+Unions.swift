/// Routing the objects of a union to its concrete entities (SPEC 1.4).
extension Importer {
    /// The concrete entity (its index) an object of `union` is a record of (see
    /// ``UnionPlan/route(_:cursor:)``).
    ///
    /// - Throws: a record error for a value that is not an object, a missing discriminator, or
    ///   a value `map` does not list; its path is the discriminator's.
    func routedEntity(_ json: JSONValue, _ union: UnionPlan) throws(RecordError) -> Int {
        switch union.route(json, cursor: &memberCursor) {
        case .success(let index):
            return index
        case .failure(let issue):
            var error = fail(issue.message)
            error.path += issue.discriminatorPath
            throw error
        }
    }

    /// The entity a root record of `root` is, or `nil` when it cannot be routed (importing it
    /// reports why).
    func rootEntity(of json: JSONValue, _ root: ImportTarget.Root) -> EntityPlan? {
        if let entity = root.entity { return entity }
        return (try? routedEntity(json, root.union!)).map { plan.entities[$0] }
    }

    /// Whether `json` belongs to `relationship`: always, unless the relationship is one
    /// concrete entity's of a union and the object routes to another.
    func routesHere(_ json: JSONValue, _ relationship: RelationshipPlan) throws(RecordError) -> Bool {
        guard let union = relationship.union else { return true }
        return try routedEntity(json, union) == relationship.target
    }

    /// The discriminator value as `map` lists it: a string's text, a number's or a boolean's.
    static func discriminatorText(_ value: JSONValue) -> String? {
        switch value.kind {
        case .string: return value.string
        case .number: return value.numberText.map { String(decoding: $0, as: UTF8.self) }
        case .bool: return value.bool.map(String.init)
        default: return nil
        }
    }
}

/// Why an object of a union routes to no entity: the message, and the key path of the
/// discriminator it is about (empty: the value is not an object).
struct RoutingIssue: Error {
    let message: String
    var discriminatorPath: [PathComponent] = []

    init(_ message: String, discriminator union: UnionPlan? = nil) {
        self.message = message
        discriminatorPath = union.map { $0.spec.key.segments.map(PathComponent.key) } ?? []
    }
}

extension UnionPlan {
    /// The concrete entity (its index) an object of the union is a record of, by the value at
    /// the discriminator key, through nested unions; member lookups start where `cursor` says.
    /// It reads only the plan and the value (see ``AttributePlan/converting(_:)``).
    func route(_ json: JSONValue, cursor: inout JSONValue.MemberCursor) -> Result<Int, RoutingIssue> {
        guard json.kind == .object else {
            return .failure(RoutingIssue("expected object for \(spec.name) (routed by '\(spec.key)'), found \(json.summary)"))
        }
        var union = self
        while true {
            let value: JSONValue
            switch json.lookup(union.path, cursor: &cursor) {
            case .missing, .null:
                return .failure(RoutingIssue(
                    "missing '\(union.spec.key)': it says which entity of \(union.spec.name) the object is", discriminator: union))
            case .value(let found):
                value = found
            }
            guard let text = Importer.discriminatorText(value) else {
                return .failure(RoutingIssue(
                    "'\(union.spec.key)' of \(union.spec.name) must be a string, number or boolean, found \(value.summary)",
                    discriminator: union))
            }
            switch union.routes[text] {
            case .entity(let index)?:
                return .success(index)
            case .union(let nested)?:
                union = nested
            case nil:
                let known = union.spec.routes.map { "'\($0.value)'" }.joined(separator: ", ")
                return .failure(RoutingIssue(
                    "\(union.spec.name) has no entity for '\(union.spec.key)' value '\(text)' (map lists \(known))", discriminator: union))
            }
        }
    }
}
