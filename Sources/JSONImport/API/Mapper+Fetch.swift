import Foundation

/// Importing straight from HTTP APIs (SPEC 7): every page of a paged API in one transaction,
/// with conditional requests, incremental sync and retries.
extension Mapper {
    /// Imports what the HTTP API at `url` returns as records of `entity`, page after page, in
    /// one transaction.
    ///
    /// The pages are followed as ``FetchOptions/pagination`` says (`Link: <…>; rel="next"`
    /// headers by default) and imported as `import` imports files: the same mapping rules, and
    /// ``FetchOptions/importOptions`` for the root key path, error policy, clean-up and dry run;
    /// `prune` deletes the root entity's rows that no page of the whole fetch returned.
    ///
    /// The store keeps, per page URL, its `ETag`, `Last-Modified`, next link and the keys of its
    /// root records: the next fetch of the same first URL sends `If-None-Match` and
    /// `If-Modified-Since`, and a `304 Not Modified` counts as the same records again (their
    /// rows are seen, unchanged, kept by prune) and goes on from the stored next link. A `429`,
    /// a `5xx`, a timeout or a cut connection is retried with exponential backoff, honouring
    /// `Retry-After`; any other failure stops the fetch and keeps nothing of it.
    ///
    /// The call blocks until the fetch is done, holding the store's writer lock for all of it;
    /// from async code, use `fetch(from:as:options:progress:)` (the `async` twin).
    ///
    /// ```swift
    /// var options = FetchOptions(pagination: .pageNumber(parameter: "page"))
    /// options.headers = [try HTTPHeader(expanding: "Authorization: Bearer $API_TOKEN")]
    /// let report = try mapper.fetch(from: URL(string: "https://api.example.com/users")!, as: "User", options: options)
    /// print(report.requests ?? 0, report.counts(for: "User").inserted)
    /// ```
    ///
    /// - Parameters:
    ///   - url: the first page, an `http` or `https` URL.
    ///   - entity: the root entity's name.
    ///   - options: headers, pagination, incremental sync, retries, timeout, import options.
    ///   - progress: called while the fetch runs, about ten times a second, on the fetching
    ///     thread; ``ImportProgress/payloads`` counts the pages.
    /// - Returns: what the fetch did, with ``ImportReport/requests`` and
    ///   ``ImportReport/notModified``.
    /// - Throws: ``ImportError`` when nothing was kept: `http` for a page that failed (its
    ///   message names the URL and the status), `invalidJSON` for a body that is not JSON, a
    ///   record error under `abort`, `usage` for options out of range; ``QueryError`` for an
    ///   unknown entity; ``StoreError`` for store failures.
    @discardableResult
    public func fetch(
        from url: URL, as entity: String, options: FetchOptions = .default, progress: ImportProgress.Handler? = nil
    ) throws -> ImportReport {
        try fetch(from: url, as: entity, options: options, progress: progress, keepingRootRows: false)
    }

    /// Fetches from `url` as `fetch(from:as:options:progress:)` does, as records of
    /// `type`'s entity, and returns the root records of every page read back from the store
    /// (those of `304` pages included), in page order.
    ///
    /// ```swift
    /// let users = try mapper.fetch(User.self, from: URL(string: "http://127.0.0.1:8080/users")!)
    /// ```
    ///
    /// - Parameters:
    ///   - type: the Swift type to decode; its entity is named as ``map(_:_:options:)-4ilfm`` names it.
    ///   - url: the first page.
    ///   - options: as for the report-returning form.
    /// - Returns: the fetched root records, as they are stored now.
    /// - Throws: as the report-returning form, and `DecodingError` when a record does not
    ///   decode as `T`.
    public func fetch<T: Decodable>(_ type: T.Type, from url: URL, options: FetchOptions = .default) throws -> [T] {
        let name = entityName(of: type)
        var kept = options
        kept.importOptions.dryRun = false
        return try store.withLock { store in
            let entity = try store.entityPlan(name)
            return try store.write(checkingForeignKeys: false, deciding: {
                let report = try fetch(from: url, as: name, options: kept, progress: nil, keepingRootRows: true)
                let values = try store.decode(type, entity: entity, rows: report.rootRows)
                return Store.WriteOutcome(value: values, keepsWork: !options.importOptions.dryRun)
            })
        }
    }

    /// Fetches from `url` without blocking the caller's executor; see
    /// `fetch(from:as:options:progress:)`. Cancelling the task stops the fetch at
    /// the next record or while it waits for the network, rolls it back and throws
    /// `CancellationError`.
    ///
    /// ```swift
    /// let report = try await mapper.fetch(from: url, as: "User", options: .init(pagination: .pageNumber(parameter: "page")))
    /// ```
    @discardableResult
    public func fetch(
        from url: URL, as entity: String, options: FetchOptions = .default, progress: ImportProgress.Handler? = nil
    ) async throws -> ImportReport {
        try await offExecutor { try self.fetch(from: url, as: entity, options: options, progress: progress) }
    }

    /// Fetches from `url` and returns the root records read back, without blocking the
    /// caller's executor; see `fetch(_:from:options:)`.
    ///
    /// ```swift
    /// let users = try await mapper.fetch(User.self, from: url, options: options)
    /// ```
    public func fetch<T: Decodable & SendableMetatype>(_ type: T.Type, from url: URL, options: FetchOptions = .default) async throws -> [T] {
        try await offExecutor { try self.fetch(type, from: url, options: options) }
    }

    /// Fetches from `url` as `fetch(from:as:options:progress:)` does, reporting as it
    /// goes: progress about ten times a second (``ImportProgress/payloads`` counts the pages),
    /// then the report.
    ///
    /// ```swift
    /// for try await event in mapper.fetching(from: url, as: "User") {
    ///     switch event {
    ///     case .progress(let progress): print("\(progress.payloads) pages, \(progress.records) records")
    ///     case .finished(let report): print("\(report.requests ?? 0) requests, \(report.notModified ?? 0) not modified")
    ///     }
    /// }
    /// ```
    ///
    /// Ending the loop early, or cancelling its task, cancels the fetch: it rolls back.
    ///
    /// - Returns: the events; the sequence throws what the fetch throws.
    public func fetching(
        from url: URL, as entity: String, options: FetchOptions = .default
    ) -> AsyncThrowingStream<ImportEvent, any Error> {
        Self.events { progress in try await self.fetch(from: url, as: entity, options: options, progress: progress) }
    }

    /// One fetch as one import of its pages; with `keepingRootRows`, the report lists the row
    /// of every root record.
    func fetch(
        from url: URL, as entity: String, options: FetchOptions, progress: ImportProgress.Handler?, keepingRootRows: Bool
    ) throws -> ImportReport {
        try options.validate()
        let now = Date().timeIntervalSince1970
        return try store.withLock { store in
            let plan = try store.entityPlan(entity)
            let feed = try FetchFeed(store: store, entity: plan, origin: url, options: options)
            var run = ImportRun(store: store, target: ImportTarget(entity: plan, options: options.importOptions), options: options.importOptions, now: now)
            run.validators = self.store.validators
            run.progress = progress
            run.keepsRootRows = keepingRootRows
            do {
                var report = try run.run(feed)
                report.requests = feed.requests
                report.notModified = feed.notModified
                return report
            } catch let error as ImportError {
                let explained = feed.explained(error)
                var report = explained.report
                report.requests = feed.requests
                report.notModified = feed.notModified
                throw ImportError(code: explained.code, message: explained.message, report: report)
            }
        }
    }
}
