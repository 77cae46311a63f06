/// Entities named in a request, and primary keys given as Swift values or command-line text,
/// in their stored form.
extension Store {
    /// The entity named `name`, or a ``QueryError`` with a did-you-mean.
    func entityPlan(_ name: String) throws -> EntityPlan {
        guard let entity = plan.entity(named: name) else {
            // A union or a document is imported by its name; its rows belong to its entities.
            if let union = spec.union(named: name) {
                throw QueryError(
                    .unknownEntity,
                    "'\(name)' is a union of \(union.entities.joined(separator: ", ")): its rows belong to those entities; name one of them")
            }
            if let document = spec.document(named: name) {
                throw QueryError(
                    .unknownEntity,
                    "'\(name)' is a document of \(document.roots.map(\.entity).joined(separator: ", ")): its rows belong to those; name one of them")
            }
            throw QueryError(.unknownEntity, "unknown entity '\(name)'\(Suggestion.hint(for: name, among: spec.entities.map(\.name)))")
        }
        return entity
    }

    /// A primary key from its command-line form: values joined by commas, in key order.
    func key(of entity: EntityPlan, from text: String) throws -> [StoredValue] {
        guard !entity.spec.isOwned else { throw QueryError(.invalidKey, "\(entity.spec.name) has no primary key") }
        let keys = entity.spec.keyAttributes
        let parts = keys.count == 1 ? [Substring(text)] : text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == keys.count else {
            throw QueryError(.invalidKey, "the key of \(entity.spec.name) has \(keys.count) values (\(entity.spec.primaryKey.joined(separator: ","))); got '\(text)'")
        }
        var values: [StoredValue] = []
        for (part, attribute) in zip(parts, keys) {
            guard case .scalar(let type) = attribute.type,
                case .success(let value) = ValueConversion.convert(.string(String(part)), to: type, format: attribute.dateFormat)
            else {
                throw QueryError(.invalidKey, "'\(part)' is not a valid \(attribute.type) for \(entity.spec.name).\(attribute.name)")
            }
            values.append(ValueConversion.applying(attribute.transforms, to: value))
        }
        return values
    }

    /// The stored primary key of `entity` for a key given as a Swift value: a single value, or
    /// an array of values in key order for a composite key.
    func storedKey(of entity: EntityPlan, from value: PropertyValue) throws -> [StoredValue] {
        guard !entity.spec.isOwned else { throw QueryError(.invalidKey, "\(entity.spec.name) has no primary key") }
        let keys = entity.spec.keyAttributes
        var parts = [value]
        if keys.count > 1 {
            guard case .array(let items) = value, items.count == keys.count else {
                throw QueryError(
                    .invalidKey, "the key of \(entity.spec.name) has \(keys.count) values (\(entity.spec.primaryKey.joined(separator: ", "))): give them as an array, got \(value.summary)")
            }
            parts = items
        }
        var values: [StoredValue] = []
        for (part, attribute) in zip(parts, keys) {
            guard case .scalar(let type) = attribute.type, let literal = part.literal,
                case .success(let converted) = ValueConversion.convert(literal.literalValue, to: type, format: attribute.dateFormat),
                converted != .null
            else {
                throw QueryError(.invalidKey, "\(part.summary) is not a valid \(attribute.type) for \(entity.spec.name).\(attribute.name)")
            }
            values.append(ValueConversion.applying(attribute.transforms, to: converted))
        }
        return values
    }

    /// The stored primary key that a value of `entity` holds in its key properties; `nil` when
    /// one is missing or does not convert.
    func storedKey(of entity: EntityPlan, in value: PropertyValue) -> [StoredValue]? {
        let parts = entity.spec.primaryKey.map { value[$0] ?? .null }
        guard !parts.isEmpty else { return nil }
        return try? storedKey(of: entity, from: parts.count == 1 ? parts[0] : .array(parts))
    }
}
