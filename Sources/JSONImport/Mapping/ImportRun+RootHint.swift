/// A payload that wraps its records (`{"items": [...], "total_count": 9}`) imported without a
/// root key path reads as one record of the entity, which lacks the entity's keys: the error
/// then says where the records are.
extension ImportRun {
    /// The message of `error` in `record`, with the key path of the records when `record` is
    /// the whole document, lacks the key the error is about, and holds one list of records:
    /// `missing primary key 'id' (key 'id'); the payload wraps a list of records under 'items':
    /// import it with --root items, or give User 'root: items'`.
    func message(of error: RecordError, in record: PayloadReader.Record) -> String {
        guard record.isWholeDocument, case .key(let key)? = error.path.first, record.value[key] == nil else {
            return error.message
        }
        let entityName = entity.spec.name.lowercased()
        guard let list = RecordListLocator.path(in: record.value, preferring: { $0.lowercased().hasPrefix(entityName) }) else {
            return error.message
        }
        let root = (options.root.map(JSONKeyPath.init(dotted:)) ?? entity.spec.root)?.segments ?? []
        let path = root + list
        // A key with a dot in it cannot be written as a dotted --root.
        guard !path.contains(where: { $0.contains(".") || $0.isEmpty }) else { return error.message }
        let dotted = path.joined(separator: ".")
        return "\(error.message); the payload wraps a list of records under '\(dotted)': "
            + "import it with --root \(dotted), or give \(entity.spec.name) 'root: \(dotted)'"
    }
}
