/// Reading attribute values out of a record.
extension Importer {
    /// The result of following a key path in a record.
    enum Lookup {
        case missing
        case null
        case value(JSONValue)
    }

    /// Follows `path` in `json`: a `null` on the way gives `.null`, a missing key `.missing`.
    func lookup(_ json: JSONValue, _ path: [[UInt8]]) -> Lookup {
        json.lookup(path, cursor: &memberCursor)
    }

    /// Every attribute of `entity` converted, transformed and validated; `nil` where the key is
    /// missing.
    func readAttributes(_ json: JSONValue, _ entity: EntityPlan) throws(RecordError) -> [Value?] {
        var values = try readKey(json, entity)
        let attributes = entity.attributes
        for slot in entity.otherSlots { values[slot] = try read(json, attributes[slot]) }
        return values
    }

    /// The record's key attributes (and tenant) converted, every other attribute `nil`.
    func readKey(_ json: JSONValue, _ entity: EntityPlan) throws(RecordError) -> [Value?] {
        var values = [Value?](filledWith: nil, count: entity.attributes.count)
        if let slot = entity.tenantSlot { values[slot] = try readTenant(json, entity.attributes[slot], of: entity) }
        // Identity first (SPEC 2.2 step 1): a missing, null or bad key is the record's error.
        for slot in entity.keySlots where slot != entity.tenantSlot {
            let attribute = entity.attributes[slot]
            guard let value = try read(json, attribute), !value.isNull else {
                throw fail("missing primary key '\(attribute.spec.name)' (key '\(attribute.spec.key)')", key: attribute)
            }
            values[slot] = value
        }
        // A composite key's values make one index entry together.
        if entity.keySlots.count > 1, let message = AttributeValidation.checkIndexedLength(entity.keySlots.compactMap { values[$0] }) {
            throw fail(message)
        }
        return values
    }

    /// A distributed record's tenant: its own value, or the tenant of the record it is nested in
    /// when it has none. A value of another tenant is the record's error: rows link only
    /// within their tenant (SPEC 6).
    func readTenant(_ json: JSONValue, _ attribute: AttributePlan, of entity: EntityPlan) throws(RecordError) -> Value {
        let given = try read(json, attribute)
        guard let tenant else {
            guard let given, !given.isNull else {
                throw fail(
                    "missing tenant '\(attribute.spec.name)' (key '\(attribute.spec.key)') of distributed entity \(entity.spec.name)",
                    key: attribute)
            }
            return given
        }
        guard let given, !given.isNull else { return Value(tenant) }
        try checkTenant(given, of: entity, at: attribute)
        return given
    }

    /// Refuses `value` as a tenant of a row of `entity` unless it is the current record's.
    func checkTenant(_ value: Value, of entity: EntityPlan, at attribute: AttributePlan?) throws(RecordError) {
        guard let tenant, value.stored != tenant else { return }
        let message = "tenant '\(entity.spec.tenantAttribute ?? "")' of \(entity.spec.name) is \(value.stored.shown), "
            + "but the record is in tenant \(tenant.shown): rows link only within their tenant"
        throw attribute.map { fail(message, key: $0) } ?? fail(message)
    }

    /// One attribute's value; `nil` where the key is missing. A `present` attribute is whether
    /// the key has a value.
    private func read(_ json: JSONValue, _ attribute: AttributePlan) throws(RecordError) -> Value? {
        let found = lookup(json, attribute.path)
        if attribute.spec.isPresence {
            if case .value = found { return .integer(1) }
            return .integer(0)
        }
        switch found {
        case .missing:
            return nil
        case .null:
            if attribute.spec.isRequired {
                throw fail("'\(attribute.spec.name)' is required, found null", key: attribute)
            }
            return .null
        case .value(let value):
            return try convert(value, attribute)
        }
    }

    /// Converts, transforms and validates one present value (see
    /// ``AttributePlan/converting(_:)``).
    func convert(_ json: JSONValue, _ attribute: AttributePlan) throws(RecordError) -> Value {
        let value: Value
        switch attribute.converting(json) {
        case .success(let converted):
            value = converted
        case .failure(let issue):
            var error = fail(issue.message, key: attribute)
            if let index = issue.elementIndex { error.path.append(.index(index)) }
            throw error
        }
        if value.isNull { return value }
        if attribute.isIndexed, value.textLength > AttributeValidation.longestIndexedText,
            let message = AttributeValidation.checkIndexedLength([value])
        {
            throw fail(message, key: attribute)
        }
        if !attribute.hasRules { return value }
        if let message = AttributeValidation.check(value, attribute) { throw fail(message, key: attribute) }
        return value
    }

    func fail(_ message: String, key attribute: AttributePlan) -> RecordError {
        var error = fail(message)
        error.path += attribute.spec.key.segments.map(PathComponent.key)
        return error
    }
}

extension JSONValue {
    /// Follows `path` below this value, each member looked up from where `cursor` says the
    /// last lookup ended (see ``member(utf8:cursor:)``): a `null` on the way gives `.null`, a
    /// missing key `.missing`.
    func lookup(_ path: [[UInt8]], cursor: inout MemberCursor) -> Importer.Lookup {
        var current = self
        for segment in path {
            if current.isNull { return .null }
            guard let next = segment.withUnsafeBufferPointer({ current.member(utf8: $0, cursor: &cursor) }) else { return .missing }
            current = next
        }
        return current.isNull ? .null : .value(current)
    }
}

/// Why a JSON value is not a value of an attribute: the message, and the element of an array
/// value it is about.
struct AttributeIssue: Error {
    let message: String
    var elementIndex: Int?
}

extension AttributePlan {
    /// `json`, a present value, converted and transformed (SPEC 1.2), but not validated (see
    /// ``AttributeValidation``): a `nullIf` value is `null`, and a value map gives the value of
    /// a JSON value before any conversion. It reads only the plan and the value, so the keys
    /// of a batch are gathered with it on a thread of their own (see ``KeyGathering``).
    func converting(_ json: JSONValue) -> Result<Value, AttributeIssue> {
        var value: Value
        if !spec.nullValues.isEmpty, spec.nullValues.contains(where: json.matches) {
            value = .null
        } else if let map = spec.valueMap, !json.isNull {
            guard let mapped = map.first(where: { json.matches($0.key) })?.value ?? spec.mapDefault else {
                return .failure(AttributeIssue(message: "\(json.summary) is not a key of the 'map' of '\(spec.name)', which has no 'mapDefault'"))
            }
            value = Value(mapped)
        } else {
            switch json.converted(to: spec.type, format: spec.dateFormat) {
            case .success(let converted): value = converted
            case .failure(let failure): return .failure(AttributeIssue(message: failure.description, elementIndex: failure.elementIndex))
            }
        }
        value = value.applying(spec.transforms)
        if value.isNull, spec.isRequired { return .failure(AttributeIssue(message: "'\(spec.name)' is required, found null")) }
        return .success(value)
    }
}

/// The converted values of one record, handed to validation hooks.
public struct RecordFields: Sendable {
    /// The entity the record belongs to.
    public let entity: String
    private let values: [String: StoredValue]
    private let present: Set<String>
    /// The `default`s of the attributes the record leaves out: what storing it would write.
    let defaults: [String: StoredValue]

    init(entity: EntitySpec, values: [Value?]) {
        self.entity = entity.name
        var map: [String: StoredValue] = [:]
        var defaults: [String: StoredValue] = [:]
        for (attribute, value) in zip(entity.attributes, values) {
            if let value {
                map[attribute.name] = value.stored
            } else if let fallback = attribute.defaultValue {
                defaults[attribute.name] = fallback
            }
        }
        self.values = map
        self.present = Set(map.keys)
        self.defaults = defaults
    }

    /// The converted value of attribute `name`; `nil` when the record does not have the key.
    public subscript(name: String) -> StoredValue? { values[name] }

    /// `true` when the record had a key (possibly `null`) for attribute `name`.
    public func contains(_ name: String) -> Bool { present.contains(name) }
}
