/// One whole import (SPEC 2.3): all its files in one transaction, record errors under `abort`
/// or `skip`, then prune, clean-up, bookkeeping and the report.
struct ImportRun {
    let store: Store
    let target: ImportTarget
    let options: ImportOptions
    let now: Double
    var validators: [Int: @Sendable (RecordFields) throws -> Void] = [:]
    var progress: ImportProgress.Handler?
    /// Whether the report lists the row of every root record (8 bytes a record).
    var keepsRootRows = false
    /// A payload file read already (see ``PayloadReadAhead``).
    var readAhead: PayloadReadAhead?

    func run(_ sources: [ImportSource]) throws -> ImportReport {
        try run(SourceList(sources))
    }

    /// Imports the payloads `feed` hands over, as ``run(_:)-([ImportSource])`` does.
    func run(_ feed: some PayloadFeed) throws -> ImportReport {
        if let entity = target.entities.first(where: { $0.spec.isOwned && $0.spec.cleanup != .none }) {
            throw ImportError(
                code: .usage,
                message: "\(entity.spec.name) has no primary key and is owned by what links to it; it can be imported as the root entity only with 'cleanup: none'",
                report: ImportReport(entity: target.name))
        }
        if target.isDocument, let source = feed.knownSources?.first(where: { (options.format ?? $0.impliedFormat) == .jsonl }) {
            throw ImportError(
                code: .usage,
                message: "document '\(target.name)' is read from one JSON document per payload, not JSON Lines ('\(source.name)')",
                report: ImportReport(entity: target.name))
        }
        guard (1...ImportOptions.maximumDepthLimit).contains(options.maxDepth), options.maxPayloadSize > 0 else {
            throw ImportError(
                code: .usage,
                message: "limits out of range: maxDepth must be 1 to \(ImportOptions.maximumDepthLimit), got \(options.maxDepth); maxPayloadSize must be positive, got \(options.maxPayloadSize)",
                report: ImportReport(entity: target.name))
        }
        let pruneScopes = try compilePruneScope()
        // A record left out under `skip` for a unique value still held at the end means reading
        // the payloads again without it: standard input is copied first so it can be.
        // So is a document's, read once per root.
        let readsAgain = (options.onError == .skip && store.plan.hasUniqueAttributes) || target.roots.count > 1
        let stdinCopy = try readsAgain && feed.knownSources?.contains(.file("-")) == true ? StdinCopy() : nil
        var refused: [RecordID: ImportIssue] = [:]
        while true {
            do {
                return try run(feed, refusing: refused, stdinCopy: stdinCopy?.path, pruneScopes: pruneScopes)
            } catch let retry as UniqueRetry {
                refused.merge(retry.issues) { first, _ in first }
            }
        }
    }

    /// `--prune-scope` compiled for each root entity (by index), checked before anything is
    /// read: it needs `--prune`, and a filter every root entity has the fields of.
    private func compilePruneScope() throws -> [Int: CompiledQuery] {
        guard let scope = options.pruneScope else { return [:] }
        func refuse(_ message: String) -> ImportError {
            ImportError(code: .usage, message: message, report: ImportReport(entity: target.name))
        }
        guard options.prune else { throw refuse("a prune scope applies only with prune") }
        var compiled: [Int: CompiledQuery] = [:]
        for entity in target.entities {
            do {
                var selection = RecordReader.Selection()
                selection.filter = try Filter(scope).expression.get()
                compiled[entity.index] = try store.reader.compiledQuery(entity, selection)
            } catch let error as QueryError {
                throw refuse("prune scope: \(error.message)")
            } catch let error as FilterError {
                throw refuse("prune scope: \(QueryError(error).message)")
            }
        }
        return compiled
    }

    /// A root record: its list's position (sources in order, and within each the roots of the
    /// target in order), and its index in it.
    struct RecordID: Hashable {
        let source: Int
        let record: Int
    }

    /// Unique values still held by other rows at the end, under `skip`: these records are left
    /// out when the import runs again.
    private struct UniqueRetry: Error {
        let issues: [RecordID: ImportIssue]
    }

    /// One pass over the payloads, leaving out the records of `refused` with their errors.
    private func run(
        _ feed: some PayloadFeed, refusing refused: [RecordID: ImportIssue], stdinCopy: String?, pruneScopes: [Int: CompiledQuery]
    ) throws -> ImportReport {
        let importer = Importer(store: store, now: now)
        importer.validators = validators
        var report = ImportReport(entity: target.name)
        report.dryRun = options.dryRun
        let parser = JSONParser(maxDepth: options.maxDepth, parseAhead: options.parseAhead)
        var meter = progress.map { ProgressMeter(handler: $0, sources: feed.knownSources) }
        // An import started from async code stops at the next record once its task is
        // cancelled; throwing rolls the whole import back.
        let cancellation = CancellationFlag.current

        var skippedKeys: [(entity: EntityPlan, key: [StoredValue])] = []
        // The roots that some payload holds: a document's others import nothing, and prune nothing.
        var presentRoots: Set<Int> = []
        do {
            return try store.write(checkingForeignKeys: false, deciding: {
                store.writeState.isImporting = true
                defer { store.writeState.isImporting = false }
                try importer.noteEmptyTables()
                try feed.rewind()
                var position = -1
                while let payload = try feed.next() {
                    position += 1
                    guard case .source(let source) = payload else {
                        // The records a feed's page held before (a feed's target is one entity).
                        try readAgain(payload, importer, into: &report, meter: &meter)
                        presentRoots.insert(0)
                        continue
                    }
                    // The root keys of the payload, for a feed that keeps them (a fetched page).
                    var keys: [[StoredValue]] = []
                    let format = options.format ?? source.impliedFormat
                    meter?.start(source)
                    for (r, root) in target.roots.enumerated() {
                        let list = position * target.roots.count + r
                        var reader = PayloadReader(
                            source: source, format: format, root: format == .jsonl && options.root == nil ? nil : root.path, parser: parser,
                            maxSize: options.maxPayloadSize)
                        reader.allowsMissingRoot = target.isDocument
                        reader.readAhead = readAhead
                        if source == .file("-") { reader.stdinCopy = stdinCopy }
                        // A row path that reads ahead gets the records a batch at a time.
                        let batch = importer.rows.readsAhead
                            ? { records, upcoming in try importer.beginBatch(records, upcoming: upcoming, root) } : nil
                        let isPresent = try reader.forEachRecord(batch: batch) { record in
                            try cancellation?.check()
                            report.records += 1
                            meter?.advance(to: record.offset, records: report.records)
                            try importer.setAsideDueLinkIndexes()
                            importer.recordPlace = .init(source: list, file: source.name, record: record.index, line: record.line, prefix: record.path)
                            if feed.collectsKeys, let entity = importer.rootEntity(of: record.value, root),
                                let key = importer.rootKey(of: record.value, entity)
                            {
                                keys.append(key)
                            }
                            if let issue = try refused[RecordID(source: list, record: record.index)] ?? importRoot(record, of: root, from: source, importer) {
                                report.skipped += 1
                                report.errors.append(issue)
                                if options.prune, let entity = importer.rootEntity(of: record.value, root),
                                    let key = importer.rootKey(of: record.value, entity)
                                {
                                    skippedKeys.append((entity, key))
                                }
                            }
                        }
                        if isPresent { presentRoots.insert(r) }
                    }
                    meter?.finish(source, records: report.records)
                    try feed.finished(keys: keys)
                }
                meter?.end(records: report.records)
                try cancellation?.check()
                try settleUniques(importer)
                try importer.restoreLinkIndexes()
                try finishRecords(importer)
                try stampUpdated(importer)
                let pruned = target.entities.filter { entity in
                    presentRoots.contains { target.roots[$0].entities.contains { $0 === entity } }
                }
                let deletions = try deleteAfterRecords(importer, pruning: pruned, scopes: pruneScopes, skippedKeys: skippedKeys)
                try writeBookkeeping(importer)
                fill(&report, from: importer)
                if options.explain { report.deletions = deletions }
                report.rootRows = importer.rootRows
                let changes = options.dryRun ? nil : try store.changeLog(importer.tracker, deletions: deletions)
                try importer.dropSpilledFlags()
                return Store.WriteOutcome(value: report, changes: changes, keepsWork: !options.dryRun)
            })
        } catch var error as ImportError {
            var failed = ImportReport(entity: target.name)
            failed.dryRun = options.dryRun
            failed.records = report.records
            failed.errors = error.report.errors
            error = ImportError(code: error.code, message: error.message, report: failed)
            throw error
        }
    }

    /// Imports one root record of `root`; returns its error when it was skipped.
    private func importRoot(
        _ record: PayloadReader.Record, of root: ImportTarget.Root, from source: ImportSource, _ importer: Importer
    ) throws -> ImportIssue? {
        importer.path.removeAll(keepingCapacity: true)
        importer.memberCursor = JSONValue.MemberCursor()
        let isSkipping = options.onError == .skip
        do {
            // Begun before the record is routed: a record left out for its discriminator undoes
            // nothing, rather than what the record before it kept.
            if isSkipping { importer.beginRecord() }
            let entity = try root.entity ?? importer.plan.entities[importer.routedEntity(record.value, root.union!)]
            let outcome: Importer.Outcome?
            if isSkipping {
                // A savepoint, so that a record left out leaves nothing behind in the store.
                outcome = try store.transaction { try importer.importRecord(record.value, entity) }
                importer.commitRecord()
            } else {
                outcome = try importer.importRecord(record.value, entity)
            }
            // A tombstone has no row to read back.
            guard let outcome else { return nil }
            if outcome.isNew && entity.spec.cleanup == .orphans { importer.tracker.mayHaveOrphans = true }
            if keepsRootRows { importer.rootRows.append(outcome.row) }
            try importer.spillIfNeeded()
            return nil
        } catch let error as RecordError {
            try rethrowStoreFailure(error)
            let issue = ImportIssue(
                file: source.name, record: record.index, path: error.path.rendered(after: record.path),
                message: message(of: error, in: record, of: root), line: record.line)
            guard isSkipping else {
                var report = ImportReport(entity: target.name)
                report.errors = [issue]
                throw ImportError(code: .invalidRecord, message: issue.description, report: report)
            }
            importer.rollBackRecord()
            return issue
        }
    }

    /// Gives rows the unique values they waited for. One still held by another row is a record
    /// error: it stops the import under `abort`; under `skip` the import runs again without the
    /// records at fault.
    private func settleUniques(_ importer: Importer) throws {
        let conflicts: [(place: Importer.RecordPlace, issue: ImportIssue)]
        do {
            conflicts = try importer.settlePendingUniques() + importer.settlePendingReferences()
        } catch let error as RecordError {
            try rethrowStoreFailure(error)
            throw error
        }
        guard let first = conflicts.first else { return }
        guard options.onError == .skip else {
            var report = ImportReport(entity: target.name)
            report.errors = [first.issue]
            throw ImportError(code: .invalidRecord, message: first.issue.description, report: report)
        }
        var issues: [RecordID: ImportIssue] = [:]
        for conflict in conflicts {
            let id = RecordID(source: conflict.place.source, record: conflict.place.record)
            if issues[id] == nil { issues[id] = conflict.issue }
        }
        throw UniqueRetry(issues: issues)
    }

    /// Throws the store's error behind `error` when the store failed rather than the record
    /// (the disk is full, the file read-only…), or when SQLite rolled the whole transaction
    /// back, taking the record's savepoint with it.
    private func rethrowStoreFailure(_ error: RecordError) throws(StoreError) {
        guard let storeError = error.storeError else { return }
        if storeError.isStoreFailure || !store.isInTransaction { throw storeError }
    }

    /// Settles the counts of rows whose changes cancelled out.
    private func finishRecords(_ importer: Importer) throws {
        do {
            try importer.settleNetEffect()
        } catch {
            try rethrowStoreFailure(error)
            var report = ImportReport(entity: target.name)
            report.errors = [ImportIssue(file: nil, record: nil, path: "$", message: error.message)]
            throw ImportError(code: .invalidRecord, message: error.message, report: report)
        }
    }

    /// The rows the records updated, on a store that holds their writes: they may take
    /// `_updated_at` with them, before the deletion stage has them all written.
    private func stampUpdated(_ importer: Importer) throws {
        guard store.holdsWrites else { return }
        for plan in store.plan.entities where plan.spec.hasTimestamps {
            try importer.tracker.rows(of: plan.index, where: { status, _ in status == .updated }) { (rows) throws(StoreError) in
                try store.stampUpdated(of: plan, rows: rows, at: importer.now)
            }
        }
    }

    /// `_updated_at` for rows updated by links or attributes, `_seen_at` for rows the import
    /// contained: one set-based statement per entity and kind.
    private func writeBookkeeping(_ importer: Importer) throws {
        for plan in store.plan.entities where plan.spec.hasTimestamps {
            try importer.tracker.rows(of: plan.index, where: { status, _ in status == .updated }) { (rows) throws(StoreError) in
                try store.set(.updatedAt, of: plan, rows: rows, to: importer.now)
            }
            try importer.tracker.rows(of: plan.index, where: { status, seen in seen && status != .inserted }) { (rows) throws(StoreError) in
                try store.set(.seenAt, of: plan, rows: rows, to: importer.now)
            }
            try store.finishSeen(of: plan, at: importer.now)
        }
    }

    private func fill(_ report: inout ImportReport, from importer: Importer) {
        report.addCounts(from: importer.tracker, plan: store.plan)
        report.skippedLinks = importer.skippedLinks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        report.staleRecords = importer.staleRecords.sorted { $0.key < $1.key }.map { (store.plan.entities[$0.key].spec.name, $0.value) }
    }
}
