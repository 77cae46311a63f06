/// Routing the objects of a union to its concrete entities (SPEC 1.4).
extension Importer {
    /// The concrete entity (its index) an object of `union` is a record of, by the value at the
    /// discriminator key, through nested unions.
    ///
    /// - Throws: a record error for a value that is not an object, a missing discriminator, or
    ///   a value `map` does not list; its path is the discriminator's.
    func routedEntity(_ json: JSONValue, _ union: UnionPlan) throws(RecordError) -> Int {
        guard json.kind == .object else {
            throw fail("expected object for \(union.spec.name) (routed by '\(union.spec.key)'), found \(json.summary)")
        }
        var union = union
        while true {
            let value: JSONValue
            switch lookup(json, union.path) {
            case .missing, .null:
                throw failAtDiscriminator(union, "missing '\(union.spec.key)': it says which entity of \(union.spec.name) the object is")
            case .value(let found):
                value = found
            }
            guard let text = Self.discriminatorText(value) else {
                throw failAtDiscriminator(union, "'\(union.spec.key)' of \(union.spec.name) must be a string, number or boolean, found \(value.summary)")
            }
            switch union.routes[text] {
            case .entity(let index)?:
                return index
            case .union(let nested)?:
                union = nested
            case nil:
                let known = union.spec.routes.map { "'\($0.value)'" }.joined(separator: ", ")
                throw failAtDiscriminator(union, "\(union.spec.name) has no entity for '\(union.spec.key)' value '\(text)' (map lists \(known))")
            }
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

    private func failAtDiscriminator(_ union: UnionPlan, _ message: String) -> RecordError {
        var error = fail(message)
        error.path += union.spec.key.segments.map(PathComponent.key)
        return error
    }
}
