/// Reads sample payloads as an import reads them (files, standard input, JSON Lines, a root key
/// path) and hands their root records to a ``ShapeCollector``, finding on the way where each
/// JSON sample keeps its records.
struct SampleReader {
    let entity: String
    let options: InferenceOptions
    private(set) var collector = ShapeCollector()
    /// Where each JSON sample that held records had them: under a key path, or at the top (`nil`).
    private var placements: [(source: String, path: [String]?)] = []
    /// The keys beside the records in the first sample that wrapped them.
    private var siblings: [String] = []

    init(entity: String, options: InferenceOptions) {
        self.entity = entity
        self.options = options
    }

    /// Reads every record of `source`.
    ///
    /// - Throws: ``ImportError`` when the payload cannot be read or is not JSON;
    ///   ``InferenceError`` `notARecord` for a record that is not an object.
    mutating func read(_ source: ImportSource) throws {
        let format = options.format ?? source.impliedFormat
        let reader = PayloadReader(
            source: source, format: format, root: options.root.map(JSONKeyPath.init(dotted:)),
            parser: JSONParser(maxDepth: options.maxDepth), maxSize: options.maxPayloadSize)
        let cancellation = CancellationFlag.current
        var isPlaced = format == .jsonl || options.root != nil
        try reader.forEachRecord { record in
            try cancellation?.check()
            if !isPlaced, record.isWholeDocument, let (path, list) = wrappedList(in: record.value) {
                placements.append((source.name, path))
                if siblings.isEmpty { siblings = record.value.members.map { String(decoding: $0.key, as: UTF8.self) }.filter { $0 != path[0] } }
                isPlaced = true
                for element in list.elements {
                    try cancellation?.check()
                    collector.add(record: element)
                }
                return
            }
            if !isPlaced {
                placements.append((source.name, nil))
                isPlaced = true
            }
            guard record.value.kind == .object else {
                // Placed as an import places a record error: `users.jsonl:3: record 2 at $: …`.
                let issue = ImportIssue(
                    file: source.name, record: record.index, path: record.path,
                    message: "expected an object, found \(record.value.summary)", line: record.line)
                throw InferenceError(.notARecord, issue.description, at: issue.location)
            }
            collector.add(record: record.value)
        }
    }

    /// The root key path the draft declares: the one given, or the one every JSON sample that
    /// wrapped its records used, with a note of what was beside them.
    ///
    /// - Throws: ``InferenceError`` `conflictingRoots` when samples keep their records in
    ///   different places.
    func root() throws(InferenceError) -> (segments: [String], note: String?)? {
        if let root = options.root { return (JSONKeyPath(dotted: root).segments, nil) }
        guard let first = placements.first else { return nil }
        if let other = placements.first(where: { $0.path != first.path }) {
            func place(_ placement: (source: String, path: [String]?)) -> String {
                placement.path.map { "'\(placement.source)' under '\($0.joined(separator: "."))'" } ?? "'\(placement.source)' at the top"
            }
            throw InferenceError(
                .conflictingRoots,
                "the samples hold their records in different places: \(place(first)), \(place(other)); infer them separately",
                at: ErrorLocation(file: other.source))
        }
        guard let path = first.path else { return nil }
        var note = "found in the samples"
        if !siblings.isEmpty {
            note += ", beside " + siblings.prefix(3).joined(separator: ", ") + (siblings.count > 3 ? ", …" : "")
        }
        return (path, note)
    }

    /// The list of records `value` wraps, when it is an object with no `id` of its own holding
    /// one list of objects (see ``RecordListLocator``), with its key path.
    private func wrappedList(in value: JSONValue) -> ([String], JSONValue)? {
        guard value.kind == .object,
            !value.members.contains(where: { KeyCandidates.isIDName(String(decoding: $0.key, as: UTF8.self), entity: entity) })
        else { return nil }
        let name = entity.lowercased()
        let named = { (key: String) in DraftNames.singular(key).lowercased() == name || key.lowercased() == name }
        guard let path = RecordListLocator.path(in: value, preferring: named), !path.contains(where: \.isEmpty) else { return nil }
        var list = value
        for segment in path { list = list[segment]! }
        return (path, list)
    }
}
