import Foundation

/// Mapping payloads into plain Swift types (SPEC 3).
extension Mapper {
    /// Imports `json` as records of `type`'s entity and returns the imported root records,
    /// read back from the store.
    ///
    /// The payload is imported like any other (one transaction, every rule of the mapping), as
    /// the entity named like the type or by its ``ImportableEntity/entityName``. The values
    /// returned show the merged, current state of each root record (a key the payload left out
    /// keeps its stored value), one per root record in payload order: a record that appears
    /// twice is returned twice, a record skipped under `onError: skip` or removed by the
    /// clean-up pass is not. With `dryRun`, the values show what the import would have stored,
    /// and then it is rolled back.
    ///
    /// ```swift
    /// let users = try mapper.map(User.self, try Data(contentsOf: url))
    /// print(users.map(\.login))
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type to decode; see ``find(_:id:)-(_,Encodable)`` for the decoding rules.
    ///   - json: the payload: one record, an array of records, or either under the entity's
    ///     `root` (or `options.root`).
    ///   - options: error policy, prune, clean-up, dry run, root key path.
    /// - Returns: the imported root records.
    /// - Throws: ``ImportError`` when nothing was kept (invalid JSON, a record error under
    ///   `abort`); ``QueryError`` when the type names no entity; `DecodingError` when a record
    ///   does not decode as `T`; ``StoreError`` for store failures.
    public func map<T: Decodable>(_ type: T.Type, _ json: Data, options: ImportOptions = .default) throws -> [T] {
        try map(type, json, name: "<data>", options: options)
    }

    /// Imports `json` as ``map(_:_:options:)-4ilfm`` does, naming it `name` in errors and reports, as
    /// a file would be (`users.json:3:14: invalid JSON …`).
    ///
    /// ```swift
    /// let users = try mapper.map(User.self, response.body, name: "GET /users?page=2")
    /// ```
    public func map<T: Decodable>(_ type: T.Type, _ json: Data, name: String, options: ImportOptions = .default) throws -> [T] {
        try map(type, source: .data(json, name: name), options: options)
    }

    /// Imports the file at `url` as ``map(_:_:options:)-4ilfm`` does; errors name the file.
    ///
    /// ```swift
    /// let users = try mapper.map(User.self, contentsOf: URL(fileURLWithPath: "users.json"))
    /// ```
    ///
    /// - Throws: as ``map(_:_:options:)-4ilfm``, and ``ImportError`` with code `unreadableFile` when the
    ///   file cannot be read, or when it was written to while it was read (a JSON document of
    ///   1 MB or more is mapped into memory rather than read, so its bytes are the file's as it
    ///   is when they are read; a file renamed over it meanwhile is not a change to it). A
    ///   `.jsonl` or `.ndjson` file is read as JSON Lines.
    public func map<T: Decodable>(_ type: T.Type, contentsOf url: URL, options: ImportOptions = .default) throws -> [T] {
        try map(type, source: .file(url.path), options: options)
    }

    /// Imports JSON text as records of `type`'s entity; see ``map(_:_:options:)``.
    ///
    /// ```swift
    /// let users = try mapper.map(User.self, #"[{"id": 1, "login": "octocat"}]"#)
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type to decode.
    ///   - json: the payload as JSON text.
    ///   - options: error policy, prune, clean-up, dry run, root key path.
    /// - Returns: the imported root records.
    /// - Throws: as ``map(_:_:options:)``.
    public func map<T: Decodable>(_ type: T.Type, _ json: String, options: ImportOptions = .default) throws -> [T] {
        try map(type, Data(json.utf8), options: options)
    }

    /// Imports one record given as a JSON object (as `JSONSerialization` reads them); see
    /// ``map(_:_:options:)``.
    ///
    /// ```swift
    /// let users = try mapper.map(User.self, ["id": 1, "login": "octocat"] as [String: Any])
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type to decode.
    ///   - json: the record.
    ///   - options: error policy, prune, clean-up, dry run, root key path.
    /// - Returns: the imported root record.
    /// - Throws: ``ImportError`` with code `invalidJSON` when `json` holds values JSON cannot
    ///   (dates, non-finite numbers, …), and as ``map(_:_:options:)``.
    public func map<T: Decodable>(_ type: T.Type, _ json: [String: Any], options: ImportOptions = .default) throws -> [T] {
        try map(type, Self.serialized(json), options: options)
    }

    /// Imports records given as JSON objects; see ``map(_:_:options:)``.
    ///
    /// - Parameters:
    ///   - type: the Swift type to decode.
    ///   - json: the records.
    ///   - options: error policy, prune, clean-up, dry run, root key path.
    /// - Returns: the imported root records, in order.
    /// - Throws: as the dictionary form.
    public func map<T: Decodable>(_ type: T.Type, _ json: [[String: Any]], options: ImportOptions = .default) throws -> [T] {
        try map(type, Self.serialized(json), options: options)
    }

    /// Imports `source` and decodes its root rows, in one write scope (rolled back for a dry run).
    func map<T: Decodable>(_ type: T.Type, source: ImportSource, options: ImportOptions) throws -> [T] {
        let name = entityName(of: type)
        var run = options
        run.dryRun = false
        return try store.withLock { store in
            let entity = try store.entityPlan(name)
            return try store.write(checkingForeignKeys: false, deciding: {
                let report = try importSources([source], as: name, options: run, keepingRootRows: true)
                let values = try store.decode(type, entity: entity, rows: report.rootRows)
                return Store.WriteOutcome(value: values, keepsWork: !options.dryRun)
            })
        }
    }

    static func serialized(_ object: Any) throws -> Data {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(withJSONObject: object)
        else {
            let message = "the value is not JSON (it holds a value JSON cannot represent)"
            throw ImportError(
                code: .invalidJSON, message: "<data>: \(message)", issue: ImportIssue(file: "<data>", record: nil, path: "$", message: message))
        }
        return data
    }
}

extension Store {
    /// Decodes the rows that still exist among `rows` (keeping their order and repeats).
    func decode<T: Decodable>(_ type: T.Type, entity: EntityPlan, rows: [Int64]) throws -> [T] {
        try DecodingContext(store: self).decodeExisting(type, entity: entity, rows: rows)
    }
}
