/// Turns Swift values, encoded by property name, into the JSON an API would have sent for
/// them: each attribute under its JSON key path and in its JSON form (dates in the attribute's
/// `format`), each relationship under its key as nested objects or keys. The payload is then
/// imported through the normal engine, so every rule of the mapping applies to it.
///
/// Properties the entity does not have are left out. A nested value of a keyed entity that is
/// already being written further up (a value that nests its own owner) is written as its key,
/// so a value read back from the store saves without importing its parent again.
struct PayloadBuilder {
    let spec: MappingSpec
    private var ancestors: [(entity: String, key: [RecordValue])] = []

    init(spec: MappingSpec) { self.spec = spec }

    /// The record for `value` as a record of `entity`.
    mutating func record(_ value: PropertyValue, of entity: EntitySpec, path: String = "$") throws -> RecordValue {
        guard case .object(let properties) = value else {
            throw PayloadError(path: path, message: "expected a \(entity.name) value with properties, found \(value.summary)")
        }
        let key = entity.isOwned ? nil : try keyValues(properties, of: entity, path: path, required: false)
        if let key { ancestors.append((entity.name, key)) }
        defer { if key != nil { ancestors.removeLast() } }
        var object = RecordObject()
        for (name, property) in properties {
            let at = "\(path).\(name)"
            if let attribute = entity.attribute(named: name) {
                set(&object, attribute.key.segments, try Self.json(property, for: attribute, path: at))
            } else if let relationship = entity.relationship(named: name) {
                set(&object, relationship.key.segments, try links(property, relationship, path: at))
            }
        }
        return .object(object)
    }

    /// A relationship's JSON: `null`, one target, or an array of targets.
    private mutating func links(_ value: PropertyValue, _ relationship: RelationshipSpec, path: String) throws -> RecordValue {
        let target = spec[entity: relationship.target]
        guard relationship.kind == .many else {
            return value == .null ? .null : try link(value, relationship, target, path: path)
        }
        switch value {
        case .null: return .null
        case .array(let items):
            var result: [RecordValue] = []
            for (i, item) in items.enumerated() { result.append(try link(item, relationship, target, path: "\(path)[\(i)]")) }
            return .array(result)
        default:
            throw PayloadError(path: path, message: "'\(relationship.name)' is to-many: expected an array, found \(value.summary)")
        }
    }

    /// One target: a nested object, or a reference by key, as the relationship's `by` allows.
    private mutating func link(_ value: PropertyValue, _ relationship: RelationshipSpec, _ target: EntitySpec, path: String) throws -> RecordValue {
        if case .object(let properties) = value {
            if target.isOwned { return try record(value, of: target, path: path) }
            let key = try keyValues(properties, of: target, path: path, required: true)!
            let isAncestor = ancestors.contains { $0.entity == target.name && $0.key == key }
            if !relationship.by.isReference && !isAncestor { return try record(value, of: target, path: path) }
            return reference(key, of: target.keyAttributes, relationship, target)
        }
        guard !target.isOwned else {
            throw PayloadError(path: path, message: "\(target.name) has no primary key: expected a nested value, found \(value.summary)")
        }
        // A reference gives the key as the mapping declares it: a distributed target takes the
        // tenant of the record it is in.
        let attributes = target.referenceKey.compactMap(target.attribute(named:))
        let parts: [PropertyValue]
        if attributes.count == 1 {
            parts = [value]
        } else if case .array(let items) = value, items.count == attributes.count {
            parts = items
        } else {
            throw PayloadError(path: path, message: "the key of \(target.name) has \(attributes.count) values: expected an array of them, found \(value.summary)")
        }
        var key: [RecordValue] = []
        for (part, attribute) in zip(parts, attributes) { key.append(try Self.json(part, for: attribute, path: path)) }
        return reference(key, of: attributes, relationship, target)
    }

    /// A reference by key: the values of the key a reference gives, or for `by: object` an
    /// object holding `key`, the values of `attributes`.
    private func reference(
        _ key: [RecordValue], of attributes: [AttributeSpec], _ relationship: RelationshipSpec, _ target: EntitySpec
    ) -> RecordValue {
        guard relationship.by.writesKeyObjects else {
            let values = zip(attributes, key).filter { target.referenceKey.contains($0.0.name) }.map(\.1)
            return values.count == 1 ? values[0] : .array(values)
        }
        var object = RecordObject()
        for (value, attribute) in zip(key, attributes) { set(&object, attribute.key.segments, value) }
        return .object(object)
    }

    /// The JSON form of a value's primary key; `nil` when it has none and `required` is false.
    private func keyValues(_ properties: [(String, PropertyValue)], of entity: EntitySpec, path: String, required: Bool) throws -> [RecordValue]? {
        var key: [RecordValue] = []
        for attribute in entity.keyAttributes {
            guard let value = properties.first(where: { $0.0 == attribute.name })?.1, value != .null else {
                if !required { return nil }
                throw PayloadError(path: path, message: "a \(entity.name) value needs its primary key '\(attribute.name)' to be linked")
            }
            key.append(try Self.json(value, for: attribute, path: "\(path).\(attribute.name)"))
        }
        return key
    }

    /// Sets `value` at a key path in `object`, creating the objects on the way.
    private func set(_ object: inout RecordObject, _ segments: [String], _ value: RecordValue) {
        guard let first = segments.first else { return }
        if segments.count == 1 {
            object[first] = value
            return
        }
        var inner = RecordObject()
        if case .object(let existing)? = object[first] { inner = existing }
        set(&inner, Array(segments.dropFirst()), value)
        object[first] = .object(inner)
    }

    // MARK: Attribute values

    /// An attribute value in the JSON form an import reads: dates in the attribute's `format`,
    /// `[T]` as arrays of those, `json` as the value's generic JSON.
    static func json(_ value: PropertyValue, for attribute: AttributeSpec, path: String) throws -> RecordValue {
        switch (attribute.type, value) {
        case (_, .null): return .null
        case (.scalar(.json), _): return value.json
        case (.array(let element), .array(let items)):
            return .array(try items.enumerated().map { try scalar($1, element, attribute, path: "\(path)[\($0)]") })
        case (.array, _):
            throw PayloadError(path: path, message: "'\(attribute.name)' is \(attribute.type): expected an array, found \(value.summary)")
        case (.scalar(let type), _):
            return mapped(try scalar(value, type, attribute, path: path), type, attribute)
        }
    }

    /// A value as its record must give it for the import to store it: through a value map
    /// backwards, and a `present` attribute as its key with a value or with none.
    private static func mapped(_ json: RecordValue, _ type: ScalarType, _ attribute: AttributeSpec) -> RecordValue {
        if attribute.isPresence { return json == .bool(true) ? json : .null }
        guard attribute.valueMap != nil else { return json }
        let literal: LiteralValue
        switch json {
        case .bool(let b): literal = .bool(b)
        case .int(let i): literal = .number(String(i))
        case .double(let d): literal = .number(String(d))
        case .number(let text): literal = .number(text)
        case .string(let text): literal = .string(text)
        default: return json
        }
        guard case .success(let stored) = ValueConversion.convert(literal, to: type, format: attribute.dateFormat),
            let key = attribute.mappedKey(of: ValueConversion.applying(attribute.transforms, to: stored))
        else { return json }
        return RecordValue(key)
    }

    private static func scalar(_ value: PropertyValue, _ type: ScalarType, _ attribute: AttributeSpec, path: String) throws -> RecordValue {
        switch (type, value) {
        case (_, .array), (_, .object):
            throw PayloadError(path: path, message: "'\(attribute.name)' is \(type): expected a single value, found \(value.summary)")
        case (.date, .date(let date)): return dateJSON(date.timeIntervalSince1970, attribute.dateFormat)
        case (.date, .int(let seconds)): return dateJSON(Double(seconds), attribute.dateFormat)
        case (.date, .double(let seconds)): return dateJSON(seconds, attribute.dateFormat)
        default: return value.json
        }
    }

    private static func dateJSON(_ seconds: Double, _ format: DateFormat) -> RecordValue {
        let text = DateCoding.format(seconds, format: format)
        switch format {
        case .epoch, .epochMillis: return .number(text)
        default: return .string(text)
        }
    }
}
