import Foundation

/// The async forms of the blocking calls (SPEC 3), for apps and servers: each runs its work
/// on the library's own threads, so awaiting it never holds a thread of the cooperative pool,
/// and each takes the same arguments and gives the same result as its synchronous twin, which
/// stays for synchronous code.
///
/// ```swift
/// let users = try await mapper.map(User.self, json)
/// let ana = try await mapper.find(User.self, id: 1)
/// let page = try await mapper.query(User.self).where("score > 50").limit(20).all()
/// ```
///
/// Imports (and `map`, `save`, which import) honour task cancellation: cancelling the task
/// stops the import at the next record, rolls all of it back and throws `CancellationError`,
/// leaving the store as it was. Other calls run to the end once started.
extension Mapper {
    // MARK: Importing

    /// Imports `json` and returns its root records read back; see ``map(_:_:options:)-(_,Data,_)``.
    public func map<T: Decodable & SendableMetatype>(_ type: T.Type, _ json: Data, options: ImportOptions = .default) async throws -> [T] {
        try await offExecutor { try self.map(type, json, options: options) }
    }

    /// Imports `json`, named `name` in errors, and returns its root records read back; see
    /// ``map(_:_:name:options:)``.
    public func map<T: Decodable & SendableMetatype>(
        _ type: T.Type, _ json: Data, name: String, options: ImportOptions = .default
    ) async throws -> [T] {
        try await offExecutor { try self.map(type, json, name: name, options: options) }
    }

    /// Imports the file at `url` and returns its root records read back; see
    /// ``map(_:contentsOf:options:)``.
    public func map<T: Decodable & SendableMetatype>(_ type: T.Type, contentsOf url: URL, options: ImportOptions = .default) async throws -> [T] {
        try await offExecutor { try self.map(type, contentsOf: url, options: options) }
    }

    /// Imports `json` and returns its root records read back; see ``map(_:_:options:)-(_,String,_)``.
    public func map<T: Decodable & SendableMetatype>(_ type: T.Type, _ json: String, options: ImportOptions = .default) async throws -> [T] {
        try await offExecutor { try self.map(type, json, options: options) }
    }

    /// Imports a record given as a JSON object; see ``map(_:_:options:)-(_,[String:Any],_)``.
    public func map<T: Decodable & SendableMetatype>(_ type: T.Type, _ json: [String: Any], options: ImportOptions = .default) async throws -> [T] {
        try await map(type, Self.serialized(json), options: options)
    }

    /// Imports records given as JSON objects; see ``map(_:_:options:)-(_,[[String:Any]],_)``.
    public func map<T: Decodable & SendableMetatype>(_ type: T.Type, _ json: [[String: Any]], options: ImportOptions = .default) async throws -> [T] {
        try await map(type, Self.serialized(json), options: options)
    }

    /// Imports files as records of `entity`; see ``importFiles(_:as:options:)``.
    @discardableResult
    public func importFiles(_ paths: [String], as entity: String, options: ImportOptions = .default) async throws -> ImportReport {
        try await offExecutor { try self.importFiles(paths, as: entity, options: options) }
    }

    /// Imports one file as records of `entity`; see ``importFile(_:as:options:)``.
    @discardableResult
    public func importFile(_ path: String, as entity: String, options: ImportOptions = .default) async throws -> ImportReport {
        try await offExecutor { try self.importFile(path, as: entity, options: options) }
    }

    /// Imports a payload held in memory; see ``importData(_:as:options:)``.
    @discardableResult
    public func importData(_ data: Data, as entity: String, options: ImportOptions = .default) async throws -> ImportReport {
        try await offExecutor { try self.importData(data, as: entity, options: options) }
    }

    /// Imports payloads from any mix of sources, in one transaction; see
    /// ``importSources(_:as:options:progress:)``.
    @discardableResult
    public func importSources(
        _ sources: [ImportSource], as entity: String, options: ImportOptions = .default,
        progress: ImportProgress.Handler? = nil
    ) async throws -> ImportReport {
        try await offExecutor { try self.importSources(sources, as: entity, options: options, progress: progress) }
    }

    /// Imports payloads as ``importSources(_:as:options:progress:)-65fws`` does, reporting as it
    /// goes: progress about ten times a second, then the report.
    ///
    /// ```swift
    /// for try await event in mapper.importing([.file("users.json")], as: "User") {
    ///     switch event {
    ///     case .progress(let progress): bar.update(progress.bytesRead, of: progress.totalBytes)
    ///     case .finished(let report): print(report.counts(for: "User"))
    ///     }
    /// }
    /// ```
    ///
    /// Ending the loop early, or cancelling its task, cancels the import: it rolls back.
    ///
    /// - Returns: the events; the sequence throws what the import throws.
    public func importing(
        _ sources: [ImportSource], as entity: String, options: ImportOptions = .default
    ) -> AsyncThrowingStream<ImportEvent, any Error> {
        Self.events { progress in try await self.importSources(sources, as: entity, options: options, progress: progress) }
    }

    /// The events of the import `run` does with the progress handler it is given: progress,
    /// then the report; ending the loop cancels the import.
    static func events(
        of run: @escaping @Sendable (@escaping ImportProgress.Handler) async throws -> ImportReport
    ) -> AsyncThrowingStream<ImportEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let report = try await run { progress in continuation.yield(.progress(progress)) }
                    continuation.yield(.finished(report))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: Reading

    /// The stored record with primary key `id`; see ``find(_:id:)``.
    public func find<T: Decodable & SendableMetatype>(_ type: T.Type, id: some Encodable & Sendable) async throws -> T? {
        try await offExecutor { try self.find(type, id: id) }
    }

    /// The stored records with primary keys `ids`, in that order; see ``find(_:ids:)``.
    public func find<T: Decodable & SendableMetatype, ID: Encodable & Sendable>(_ type: T.Type, ids: [ID]) async throws -> [T] {
        try await offExecutor { try self.find(type, ids: ids) }
    }

    /// Every stored record of the type's entity; see ``all(_:)``.
    public func all<T: Decodable & SendableMetatype>(_ type: T.Type) async throws -> [T] {
        try await offExecutor { try self.all(type) }
    }

    /// The first record by primary key; see ``first(_:)``.
    public func first<T: Decodable & SendableMetatype>(_ type: T.Type) async throws -> T? {
        try await offExecutor { try self.first(type) }
    }

    /// The last record by primary key; see ``last(_:)``.
    public func last<T: Decodable & SendableMetatype>(_ type: T.Type) async throws -> T? {
        try await offExecutor { try self.last(type) }
    }

    /// The number of stored records of the type's entity; see ``count(_:)``.
    public func count<T: Decodable & SendableMetatype>(_ type: T.Type) async throws -> Int {
        try await offExecutor { try self.count(type) }
    }


    /// Row counts and sizes of the store; see ``statistics()``.
    public func statistics() async throws -> StoreStatistics {
        try await offExecutor { try self.statistics() }
    }

    // MARK: Writing

    /// Stores `value` as a record of its type's entity; see ``save(_:options:)``.
    @discardableResult
    public func save<T: Encodable & Sendable>(_ value: T, options: ImportOptions = .default) async throws -> ImportReport {
        try await offExecutor { try self.save(value, options: options) }
    }

    /// Stores `values` in one transaction; see ``saveAll(_:options:)``.
    @discardableResult
    public func saveAll<T: Encodable & Sendable>(_ values: [T], options: ImportOptions = .default) async throws -> ImportReport {
        try await offExecutor { try self.saveAll(values, options: options) }
    }

    /// The stored record with `id`, or the one `create` makes, saved; see
    /// ``findOrCreate(_:id:create:)``.
    public func findOrCreate<T: Codable & SendableMetatype>(
        _ type: T.Type, id: some Encodable & Sendable, create: @escaping @Sendable () throws -> sending T
    ) async throws -> T {
        try await offExecutor { try self.findOrCreate(type, id: id, create: create) }
    }

    /// Deletes the record of `type` with primary key `id`; see ``destroy(_:id:options:)``.
    @discardableResult
    public func destroy<T: SendableMetatype>(_ type: T.Type, id: some Encodable & Sendable, options: DeleteOptions = .default) async throws -> ImportReport {
        try await offExecutor { try self.destroy(type, id: id, options: options) }
    }

    /// Deletes the stored record of `value`; see ``destroy(_:options:)``.
    @discardableResult
    public func destroy<T: Encodable & Sendable>(_ value: T, options: DeleteOptions = .default) async throws -> ImportReport {
        try await offExecutor { try self.destroy(value, options: options) }
    }

    /// Deletes every record of `type`; see ``destroyAll(_:options:)``.
    @discardableResult
    public func destroyAll<T: SendableMetatype>(_ type: T.Type, options: DeleteOptions = .default) async throws -> ImportReport {
        try await offExecutor { try self.destroyAll(type, options: options) }
    }

    /// Deletes rows of `entity` by primary key or filter; see ``delete(_:ids:where:options:)``.
    @discardableResult
    public func delete(
        _ entity: String, ids: [String] = [], where filter: String? = nil, options: DeleteOptions = .default
    ) async throws -> ImportReport {
        try await offExecutor { try self.delete(entity, ids: ids, where: filter, options: options) }
    }

    /// Deletes every row of `entity`; see ``deleteAll(_:options:)``.
    @discardableResult
    public func deleteAll(_ entity: String, options: DeleteOptions = .default) async throws -> ImportReport {
        try await offExecutor { try self.deleteAll(entity, options: options) }
    }

    /// The clean-up pass and eviction; see ``clean(olderThan:entities:explain:)``.
    @discardableResult
    public func clean(olderThan age: Double? = nil, entities: [String]? = nil, explain: Bool = false) async throws -> ImportReport {
        try await offExecutor { try self.clean(olderThan: age, entities: entities, explain: explain) }
    }

    // MARK: Export and migration

    /// The records `request` selects as JSON text; see ``exportData(_:)``.
    public func exportData(_ request: ExportRequest) async throws -> Data {
        try await offExecutor { try self.exportData(request) }
    }

    /// Writes the records `request` selects to `handle`; see ``export(_:to:)-(_,FileHandle)``.
    @discardableResult
    public func export(_ request: ExportRequest, to handle: FileHandle) async throws -> Int {
        try await offExecutor { try self.export(request, to: handle) }
    }

    /// Brings the store at `path` to `spec`'s schema; see
    /// ``migrate(store:to:allowDataLoss:busyTimeout:)``.
    @discardableResult
    public static func migrate(
        store path: String, to spec: MappingSpec, allowDataLoss: Bool = false, busyTimeout: Double = 30
    ) async throws -> MigrationPlan {
        try await Task.detached { try migrate(store: path, to: spec, allowDataLoss: allowDataLoss, busyTimeout: busyTimeout) }.value
    }
}

/// What ``Mapper/importing(_:as:options:)`` reports.
public enum ImportEvent: Sendable {
    /// How far the import has got.
    case progress(ImportProgress)
    /// The import is done and committed (or, for a dry run, rolled back): its report.
    case finished(ImportReport)
}

extension Query where Record: SendableMetatype {
    /// The records selected; see ``all()``.
    public func all() async throws -> [Record] {
        try await mapper.offExecutor { try self.all() }
    }

    /// The first record selected; see ``first()``.
    public func first() async throws -> Record? {
        try await mapper.offExecutor { try self.first() }
    }

    /// The last record selected; see ``last()``.
    public func last() async throws -> Record? {
        try await mapper.offExecutor { try self.last() }
    }

    /// How many records the query selects; see ``count()``.
    public func count() async throws -> Int {
        try await mapper.offExecutor { try self.count() }
    }

    /// Whether the query selects any record; see ``exists()``.
    public func exists() async throws -> Bool {
        try await mapper.offExecutor { try self.exists() }
    }

    /// The selected record with primary key `id`; see ``find(_:)``.
    public func find(_ id: some Encodable & Sendable) async throws -> Record? {
        try await mapper.offExecutor { try self.find(id) }
    }

    /// Deletes the selected records; see ``destroyAll(options:)``.
    @discardableResult
    public func destroyAll(options: DeleteOptions = .default) async throws -> ImportReport {
        try await mapper.offExecutor { try self.destroyAll(options: options) }
    }

    /// The selected records as API-shaped JSON; see ``exportData(depth:format:fields:)``.
    public func exportData(depth: Int = 1, format: ExportFormat = .json, fields: FieldSelection = .all) async throws -> Data {
        try await mapper.offExecutor { try self.exportData(depth: depth, format: format, fields: fields) }
    }

    /// Writes the selected records to `handle`; see ``export(depth:format:fields:to:)``.
    @discardableResult
    public func export(
        depth: Int = 1, format: ExportFormat = .json, fields: FieldSelection = .all, to handle: FileHandle
    ) async throws -> Int {
        try await mapper.offExecutor { try self.export(depth: depth, format: format, fields: fields, to: handle) }
    }

    /// The selected records in their JSON form; see ``records(fields:includingMeta:)``.
    public func records(fields: [String]? = nil, includingMeta: Bool = false) async throws -> [RecordObject] {
        try await mapper.offExecutor { try self.records(fields: fields, includingMeta: includingMeta) }
    }

    /// Several properties of every selected record in their JSON form; see ``pluck(_:)``.
    public func pluck(_ properties: [String]) async throws -> [RecordObject] {
        try await mapper.offExecutor { try self.pluck(properties) }
    }

    /// One property of every selected record; see ``pluck(_:as:)``.
    public func pluck<V: Decodable & SendableMetatype>(_ property: String, as type: V.Type = V.self) async throws -> [V] {
        try await mapper.offExecutor { try self.pluck(property, as: type) }
    }
}
