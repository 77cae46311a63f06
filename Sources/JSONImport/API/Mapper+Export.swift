import Foundation

/// Export: stored records written back as API-shaped JSON (SPEC 4.4, 4.1 `export`).
///
/// Importing an export of a keyed entity back changes nothing: every row it touches reports
/// `unchanged`.
extension Mapper {
    /// Writes the records `request` selects to `handle`, one record at a time.
    ///
    /// Root rows are read a page at a time and each record is written as soon as it is built
    /// (in chunks of about 64 KiB), so a store of any size exports in constant memory. All
    /// records come from one snapshot of the store.
    ///
    /// ```swift
    /// try mapper.export(ExportRequest(entity: "User", depth: 2), to: .standardOutput)
    /// ```
    ///
    /// - Parameters:
    ///   - request: entity, ids or filter, depth, format and field selection.
    ///   - handle: where the JSON text goes.
    /// - Returns: the number of root records written.
    /// - Throws: ``QueryError`` for an unknown entity or field, a malformed filter, a key that
    ///   does not convert or a negative depth, before anything is written; ``StoreError`` for
    ///   store failures; the error of a failed write.
    /// - Complexity: O(*n* + *k*) for *n* root records holding *k* nested records and keys.
    @discardableResult
    public func export(_ request: ExportRequest, to handle: FileHandle) throws -> Int {
        try run(request) { try handle.write(contentsOf: Data($0.utf8)) }
    }

    /// Writes the records `request` selects to `stream`, one chunk at a time.
    ///
    /// ```swift
    /// var text = ""
    /// try mapper.export(ExportRequest(entity: "Tag", format: .jsonl), to: &text)
    /// ```
    ///
    /// - Returns: the number of root records written.
    /// - Throws: as `export(_:to:)`.
    @discardableResult
    public func export(_ request: ExportRequest, to stream: inout some TextOutputStream) throws -> Int {
        try run(request) { stream.write($0) }
    }

    /// The records `request` selects as one piece of JSON (or JSON Lines) text.
    ///
    /// ```swift
    /// let data = try mapper.exportData(ExportRequest(entity: "Article", ids: ["101"]))
    /// // {"data":{"articles":[{"id":101,"slug":"hello-sqlite",…}]}}
    /// ```
    ///
    /// - Throws: as `export(_:to:)`.
    public func exportData(_ request: ExportRequest) throws -> Data {
        var data = Data()
        _ = try run(request) { data.append(contentsOf: $0.utf8) }
        return data
    }

    /// Writes records of `entity` to `handle`; see `export(_:to:)`.
    ///
    /// ```swift
    /// try mapper.export("User", where: "score > 50", depth: 0, format: .jsonl, to: .standardOutput)
    /// ```
    ///
    /// - Parameters:
    ///   - entity: the root entity.
    ///   - ids: primary keys (a composite key as its values joined by commas, in key order).
    ///   - filter: a filter expression (SPEC 4.3).
    ///   - depth: levels of forward relationships nested as objects (SPEC 4.4).
    ///   - format: a JSON array (under the entity's `root`), or JSON Lines.
    ///   - fields: which properties of the root records to write.
    ///   - handle: where the JSON text goes.
    /// - Returns: the number of root records written.
    @discardableResult
    public func export(
        _ entity: String, ids: [String] = [], where filter: String? = nil, depth: Int = 1,
        format: ExportFormat = .json, fields: FieldSelection = .all, to handle: FileHandle
    ) throws -> Int {
        try export(
            ExportRequest(entity: entity, ids: ids, filter: filter, depth: depth, format: format, fields: fields),
            to: handle)
    }

    /// The records of `entity` as JSON text; see `exportData(_:)`.
    ///
    /// ```swift
    /// let json = try mapper.exportData("User", ids: ["1", "2"], depth: 2)
    /// ```
    public func exportData(
        _ entity: String, ids: [String] = [], where filter: String? = nil, depth: Int = 1,
        format: ExportFormat = .json, fields: FieldSelection = .all
    ) throws -> Data {
        try exportData(ExportRequest(entity: entity, ids: ids, filter: filter, depth: depth, format: format, fields: fields))
    }

    /// The records of `type`'s entity as JSON text, as the API sent them; see `exportData(_:)`.
    ///
    /// ```swift
    /// let json = try mapper.exportData(User.self, where: "score > 50", depth: 0)
    /// ```
    ///
    /// - Parameters:
    ///   - type: a Swift type stored as an entity (by its name, or ``ImportableEntity/entityName``).
    ///   - ids: primary keys (a composite key as its values joined by commas, in key order).
    ///   - filter: a filter expression (SPEC 4.3).
    ///   - depth: levels of forward relationships nested as objects (SPEC 4.4).
    ///   - format: a JSON array (under the entity's `root`), or JSON Lines.
    ///   - fields: which properties of the root records to write.
    public func exportData<T>(
        _ type: T.Type, ids: [String] = [], where filter: String? = nil, depth: Int = 1,
        format: ExportFormat = .json, fields: FieldSelection = .all
    ) throws -> Data {
        try exportData(entityName(of: type), ids: ids, where: filter, depth: depth, format: format, fields: fields)
    }

    /// Writes the records of `type`'s entity to `handle`; see ``exportData(_:ids:where:depth:format:fields:)-(T.Type,_,_,_,_,_)``.
    @discardableResult
    public func export<T>(
        _ type: T.Type, ids: [String] = [], where filter: String? = nil, depth: Int = 1,
        format: ExportFormat = .json, fields: FieldSelection = .all, to handle: FileHandle
    ) throws -> Int {
        try export(entityName(of: type), ids: ids, where: filter, depth: depth, format: format, fields: fields, to: handle)
    }

    /// Runs the export on a reader connection (the writer inside a write block), so it neither
    /// waits for nor holds up imports; `query`, when given, selects the root rows.
    fileprivate func run<R>(
        _ request: ExportRequest, selectedBy query: Query<R>? = nil, into sink: (String) throws -> Void
    ) throws -> Int {
        try store.withReader { store in
            let rows = try query?.rowIDs(in: store).rows
            return try ExportRun(store: store, request: request, rows: rows).run(into: sink)
        }
    }

    private func run(_ request: ExportRequest, into sink: (String) throws -> Void) throws -> Int {
        try run(request, selectedBy: Query<Never>?.none, into: sink)
    }
}

extension Query {
    /// The records the query selects as API-shaped JSON (SPEC 4.4), in the query's order and
    /// within its limit and offset; the rules of ``Mapper/exportData(_:)-r30x`` apply.
    ///
    /// ```swift
    /// let top = try mapper.query(Repo.self).where("stars > 100").order(by: "stars", descending: true).limit(10)
    ///     .exportData(depth: 0, format: .jsonl)
    /// ```
    ///
    /// - Parameters:
    ///   - depth: levels of forward relationships nested as objects (SPEC 4.4).
    ///   - format: a JSON array (under the entity's `root`), or JSON Lines.
    ///   - fields: which properties of the root records to write.
    /// - Returns: the JSON text.
    /// - Throws: as ``Mapper/exportData(_:)-r30x``.
    public func exportData(depth: Int = 1, format: ExportFormat = .json, fields: FieldSelection = .all) throws -> Data {
        var data = Data()
        _ = try mapper.run(request(depth, format, fields), selectedBy: self) { data.append(contentsOf: $0.utf8) }
        return data
    }

    /// Writes the records the query selects to `handle`, one chunk at a time; see
    /// ``exportData(depth:format:fields:)-96ugt``.
    ///
    /// - Returns: the number of root records written.
    @discardableResult
    public func export(
        depth: Int = 1, format: ExportFormat = .json, fields: FieldSelection = .all, to handle: FileHandle
    ) throws -> Int {
        try mapper.run(request(depth, format, fields), selectedBy: self) { try handle.write(contentsOf: Data($0.utf8)) }
    }

    private func request(_ depth: Int, _ format: ExportFormat, _ fields: FieldSelection) -> ExportRequest {
        ExportRequest(entity: entity, depth: depth, format: format, fields: fields)
    }
}
