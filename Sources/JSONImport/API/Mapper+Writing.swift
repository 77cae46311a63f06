import Foundation

/// Writing Swift values (SPEC 3): upserts through the import engine, and transactions.
extension Mapper {
    /// Runs `body` as one transaction: every mapper operation it makes on this thread (saves,
    /// imports, deletions) is kept if it returns and undone if it throws.
    ///
    /// Inside the block, reads on the same thread see the block's own work; other threads keep
    /// reading the last committed state, and their writes wait until the block ends. An
    /// operation that fails inside the block undoes only itself, so the block can catch its
    /// error and go on. Change observers hear of the block once, after it commits.
    ///
    /// ```swift
    /// try mapper.write {
    ///     try mapper.save(user)
    ///     try mapper.save(repo)
    ///     try mapper.destroy(Repo.self, id: 42)
    /// }
    /// ```
    ///
    /// - Parameter body: the operations.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after rolling back), or ``StoreError`` when the transaction
    ///   cannot begin or commit (busy past the timeout, disk full).
    public func write<T>(_ body: () throws -> T) throws -> T {
        try store.withLock { store in try store.write(body) }
    }

    /// Stores `value` as a record of its type's entity: inserted, or merged into the stored
    /// record with the same primary key.
    ///
    /// The value is turned into the payload an API would have sent (its properties under their
    /// JSON keys, dates in their attribute's `format`) and imported, so every rule of the
    /// mapping applies: conversion, transforms, validation and validators, `missing`, `policy`,
    /// counting, clean-up. What the value holds is what is stored:
    ///
    /// - a property set to `nil` stores NULL, or unlinks a relationship; a property the type
    ///   does not declare keeps its stored value (and links);
    /// - a relationship given as nested values imports them too (owned targets in place); given
    ///   as keys (`followers: [Int]`), it links to those rows (stubs when they are missing);
    /// - a nested value that is its own ancestor (a repo's `owner` inside that owner's `repos`)
    ///   is written as its key, so a value read back from the store saves as it was read.
    ///
    /// ```swift
    /// var user = try mapper.find(User.self, id: 1)!
    /// user.name = "Mona"
    /// let report = try mapper.save(user)
    /// print(report.counts(for: "User").updated)   // 1
    /// ```
    ///
    /// - Parameters:
    ///   - value: the value to store.
    ///   - options: error policy, prune, clean-up, dry run (`root` and `format` do not apply).
    /// - Returns: what the import did.
    /// - Throws: ``ImportError`` when the value is not a valid record (with its path in the
    ///   payload made from the value, such as `$[0].repos[1].stargazers_count`); ``QueryError``
    ///   when the type names no entity;
    ///   `EncodingError` when the value fails to encode; ``StoreError`` for store failures.
    @discardableResult
    public func save<T: Encodable>(_ value: T, options: ImportOptions = .default) throws -> ImportReport {
        try save([value], name: entityName(of: T.self), options: options)
    }

    /// Stores every value of `values`, in one import; see ``save(_:options:)-xa8k``.
    ///
    /// ```swift
    /// try mapper.saveAll([octocat, hubot])
    /// ```
    ///
    /// - Parameters:
    ///   - values: the values to store, as records of their type's entity.
    ///   - options: error policy, prune, clean-up, dry run.
    /// - Returns: what the import did.
    /// - Throws: as ``save(_:options:)-xa8k``.
    @discardableResult
    public func saveAll<T: Encodable>(_ values: [T], options: ImportOptions = .default) throws -> ImportReport {
        try save(values, name: entityName(of: T.self), options: options)
    }

    /// The record with primary key `id`, created from `create()` when there is none.
    ///
    /// Finding and creating happen in one transaction, so two threads or processes asking for
    /// the same key create it once.
    ///
    /// ```swift
    /// let tag = try mapper.findOrCreate(Tag.self, id: "swift") { Tag(name: "swift", color: "f05138") }
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type to decode and create.
    ///   - id: the key: a single value, or an array of values in key order.
    ///   - create: makes the value to save when no record has that key; it must have that key.
    /// - Returns: the stored record (read back after saving when it was created).
    /// - Throws: ``QueryError`` when the key does not convert or the created value has another
    ///   key, and as ``find(_:id:)-(_,Encodable)`` and ``save(_:options:)-xa8k``.
    public func findOrCreate<T: Codable>(_ type: T.Type, id: some Encodable, create: () throws -> T) throws -> T {
        let name = entityName(of: type)
        return try write {
            if let found = try find(type, id: id) { return found }
            let value = try create()
            try store.withLock { store in
                let entity = try store.entityPlan(name)
                let wanted = try store.storedKey(of: entity, from: PropertyEncoder.encode(id))
                guard try store.storedKey(of: entity, in: PropertyEncoder.encode(value)) == wanted else {
                    let shown = Store.keyValue(wanted, of: entity.spec).jsonText
                    throw QueryError("findOrCreate(\(name), id: \(shown)): the value created has another key")
                }
            }
            try save(value)
            guard let created = try find(type, id: id) else {
                throw QueryError("findOrCreate(\(name)): the created record was removed by the clean-up pass")
            }
            return created
        }
    }

    /// The record with primary key `id`, or `initialize()` (not saved) when there is none.
    ///
    /// ```swift
    /// var user = try mapper.findOrInitialize(User.self, id: 7) { User(id: 7, login: "new") }
    /// user.name = "New"
    /// try mapper.save(user)
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type to decode.
    ///   - id: the key: a single value, or an array of values in key order.
    ///   - initialize: makes the value to return when no record has that key.
    /// - Returns: the stored record, or the new value.
    /// - Throws: as ``find(_:id:)-(_,Encodable)``, and what `initialize` throws.
    public func findOrInitialize<T: Decodable>(_ type: T.Type, id: some Encodable, initialize: () throws -> T) throws -> T {
        try find(type, id: id) ?? initialize()
    }

    /// Imports `values` as an array payload of entity `name`.
    func save<T: Encodable>(_ values: [T], name: String, options: ImportOptions) throws -> ImportReport {
        let spec = self.spec
        guard let entity = spec.entity(named: name) else {
            throw QueryError(.unknownEntity, "unknown entity '\(name)'\(Suggestion.hint(for: name, among: spec.entities.map(\.name)))")
        }
        var run = options
        run.root = nil
        run.format = .json
        if T.self is any PayloadCodable.Type {
            // Its Codable form is the payload itself.
            let payload = try JSONEncoder().encode(values)
            return try importSources([.data(Self.rooted(payload, under: entity.root), name: "<\(name) value>")], as: name, options: run)
        }
        var builder = PayloadBuilder(spec: spec)
        var records: [RecordValue] = []
        for (index, value) in values.enumerated() {
            do {
                records.append(try builder.record(PropertyEncoder.encode(value), of: entity, path: "$[\(index)]"))
            } catch let error as PayloadError {
                let issue = ImportIssue(file: "<\(name) value>", record: index, path: error.path, message: error.message)
                var report = ImportReport(entity: name)
                report.errors = [issue]
                throw ImportError(code: .invalidRecord, message: issue.description, report: report)
            }
        }
        let payload = Data(RecordValue.array(records).jsonText.utf8)
        return try importSources([.data(Self.rooted(payload, under: entity.root), name: "<\(name) value>")], as: name, options: run)
    }

    /// The entity's `root` applies to every payload imported as it: the records go there.
    private static func rooted(_ records: Data, under root: JSONKeyPath?) -> Data {
        guard let root, !root.segments.isEmpty else { return records }
        var payload = String(decoding: records, as: UTF8.self)
        for segment in root.segments.reversed() { payload = "{" + RecordValue.string(segment).jsonText + ":" + payload + "}" }
        return Data(payload.utf8)
    }
}
