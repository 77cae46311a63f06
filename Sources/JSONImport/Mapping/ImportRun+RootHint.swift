/// A payload that wraps its records (`{"items": [...], "total_count": 9}`) imported without a
/// root key path reads as one record of the entity, which lacks the entity's keys: the error
/// then says where the records are.
extension ImportRun {
    /// The message of `error` in `record`, with the key path of the records when `record` is
    /// the whole document, holds none of the keys the entity reads, and holds one list of
    /// records whose first has the key the error is about: `missing primary key 'id' (key
    /// 'id'); the payload wraps a list of records under 'items': import it with --root items,
    /// or give User 'root: items'`.
    func message(of error: RecordError, in record: PayloadReader.Record, of root: ImportTarget.Root) -> String {
        // A union's records are routed first; only an entity's are read for its keys.
        guard let entity = root.entity, record.isWholeDocument, case .key(let key)? = error.path.first,
            !holdsKeys(of: entity.spec, record.value)
        else {
            return error.message
        }
        let name = entity.spec.name.lowercased()
        guard let list = RecordListLocator.path(in: record.value, preferring: { $0.lowercased().hasPrefix(name) }),
            firstElement(at: list, in: record.value)?[key] != nil
        else {
            return error.message
        }
        let path = (root.path?.segments ?? []) + list
        // A key with a dot in it cannot be written as a dotted --root.
        guard !path.contains(where: { $0.contains(".") || $0.isEmpty }) else { return error.message }
        let dotted = path.joined(separator: ".")
        return "\(error.message); the payload wraps a list of records under '\(dotted)': "
            + "import it with --root \(dotted), or give \(entity.spec.name) 'root: \(dotted)'"
    }

    /// Whether `value` has a key that an attribute or relationship of `entity` reads.
    private func holdsKeys(of entity: EntitySpec, _ value: JSONValue) -> Bool {
        let keys = entity.attributes.map(\.key) + entity.relationships.map(\.key)
        return keys.contains { $0.segments.first.map { value[$0] != nil } ?? false }
    }

    /// The first element of the list at `path` in `value`.
    private func firstElement(at path: [String], in value: JSONValue) -> JSONValue? {
        var list = value
        for segment in path {
            guard let next = list[segment] else { return nil }
            list = next
        }
        for element in list.elements { return element }
        return nil
    }
}
