/// One whole import (SPEC 2.3): all its files in one transaction, record errors under `abort`
/// or `skip`, then prune, clean-up, bookkeeping and the report.
struct ImportRun {
    let store: Store
    let entity: EntityPlan
    let options: ImportOptions
    let now: Double
    var validators: [Int: @Sendable (RecordFields) throws -> Void] = [:]
    var progress: ImportProgress.Handler?

    func run(_ sources: [ImportSource]) throws -> ImportReport {
        if entity.spec.isOwned && entity.spec.cleanup != .none {
            throw ImportError(
                code: .usage,
                message: "\(entity.spec.name) has no primary key and is owned by what links to it; it can be imported as the root entity only with 'cleanup: none'",
                report: ImportReport(entity: entity.spec.name))
        }
        let connection = store.connection
        let importer = Importer(connection: connection, plan: store.plan, now: now)
        importer.validators = store.hooks.validators.merging(validators) { $1 }
        var report = ImportReport(entity: entity.spec.name)
        report.dryRun = options.dryRun
        let root = (options.root.map(JSONKeyPath.init(dotted:)) ?? entity.spec.root)
        let parser = JSONParser()
        var meter = progress.map { ProgressMeter(handler: $0, sources: sources) }

        try store.beginWrite()
        do {
            for source in sources {
                let format = options.format ?? { if case .file(let p) = source { return PayloadFormat(fileName: p) }; return .json }()
                let reader = PayloadReader(
                    source: source, format: format, root: format == .jsonl && options.root == nil ? nil : root, parser: parser)
                meter?.start(source)
                try reader.forEachRecord { record in
                    report.records += 1
                    meter?.advance(to: record.offset, records: report.records)
                    if let issue = try importRoot(record, from: source, importer) {
                        report.skipped += 1
                        report.errors.append(issue)
                    }
                }
                meter?.finish(source, records: report.records)
            }
            try flushLinks(importer)
            var deletions: [Deletion] = []
            if options.cleanup && importer.tracker.mayHaveOrphans {
                let removed = try CleanupPass(connection: connection, plan: store.plan).run()
                for (index, rows) in Dictionary(grouping: removed, by: \.entity) {
                    importer.tracker.removed(index, rows.map(\.row), asOrphans: true)
                }
                deletions += removed.map {
                    Deletion(entity: store.plan.entities[$0.entity].spec.name, key: $0.key, reason: .orphan)
                }
            }
            try writeBookkeeping(importer)
            fill(&report, from: importer)
            if options.explain { report.deletions = deletions }
            report.rootRows = importer.rootRows
            if options.dryRun {
                store.rollBackWrite()
            } else {
                try store.commitWrite(store.changeLog(importer.tracker, deletions: deletions))
            }
            return report
        } catch var error as ImportError {
            store.rollBackWrite()
            var failed = ImportReport(entity: entity.spec.name)
            failed.dryRun = options.dryRun
            failed.records = report.records
            failed.errors = error.report.errors
            error = ImportError(code: error.code, message: error.message, report: failed)
            throw error
        } catch {
            store.rollBackWrite()
            throw error
        }
    }

    /// Imports one root record; returns its error when it was skipped.
    private func importRoot(_ record: PayloadReader.Record, from source: ImportSource, _ importer: Importer) throws -> ImportIssue? {
        importer.path.removeAll(keepingCapacity: true)
        let isSkipping = options.onError == .skip
        if isSkipping {
            try store.connection.execute("SAVEPOINT record")
            importer.beginRecord()
        }
        do {
            let outcome = try importer.importRecord(record.value, entity)
            if outcome.isNew && entity.spec.cleanup == .orphans { importer.tracker.mayHaveOrphans = true }
            if isSkipping {
                try importer.flushAllLinks()
                try store.connection.execute("RELEASE record")
                importer.commitRecord()
            }
            importer.rootRows.append(outcome.row)
            return nil
        } catch let error as RecordError {
            let issue = ImportIssue(
                file: source.name, record: record.index, path: error.path.rendered(after: record.path),
                message: error.message, line: record.line)
            guard isSkipping else {
                var report = ImportReport(entity: entity.spec.name)
                report.errors = [issue]
                throw ImportError(code: .invalidRecord, message: issue.description, report: report)
            }
            try store.connection.execute("ROLLBACK TO record; RELEASE record")
            importer.rollBackRecord()
            return issue
        }
    }

    /// Writes the link rows the importer still holds back.
    private func flushLinks(_ importer: Importer) throws {
        do {
            try importer.flushAllLinks()
        } catch {
            var report = ImportReport(entity: entity.spec.name)
            report.errors = [ImportIssue(file: "", record: 0, path: "$", message: error.message)]
            throw ImportError(code: .invalidRecord, message: error.message, report: report)
        }
    }

    /// `_updated_at` for rows updated by links or attributes, `_seen_at` for rows the import
    /// contained: one set-based statement per entity and kind.
    private func writeBookkeeping(_ importer: Importer) throws {
        for plan in store.plan.entities where plan.spec.hasTimestamps {
            let updated = importer.tracker.statuses(of: plan.index).compactMap { $0.status == .updated ? $0.row : nil }
            try setColumn("_updated_at", of: plan, rows: updated, importer)
            try setColumn("_seen_at", of: plan, rows: importer.tracker.seenExisting(of: plan.index), importer)
        }
    }

    private func setColumn(_ column: String, of plan: EntityPlan, rows: [Int64], _ importer: Importer) throws {
        let chunkSize = 50_000
        for start in stride(from: 0, to: rows.count, by: chunkSize) {
            let ids = rows[start..<min(start + chunkSize, rows.count)].map(String.init).joined(separator: ",")
            try store.connection.run(
                "UPDATE \(plan.table) SET \(quote(column)) = ? WHERE \(plan.rowID) IN (SELECT value FROM json_each(?))",
                [.real(importer.now), .text("[\(ids)]")])
        }
    }

    private func fill(_ report: inout ImportReport, from importer: Importer) {
        let tracker = importer.tracker
        for plan in store.plan.entities {
            var counts = ImportReport.Counts()
            for (_, status) in tracker.statuses(of: plan.index) {
                switch status {
                case .inserted: counts.inserted += 1
                case .updated: counts.updated += 1
                case .unchanged: counts.unchanged += 1
                }
            }
            counts.deleted = tracker.deleted[plan.index]
            let name = plan.spec.name
            if counts != ImportReport.Counts() { report.changes.append((name, counts)) }
            if tracker.orphansRemoved[plan.index] > 0 { report.orphansRemoved.append((name, tracker.orphansRemoved[plan.index])) }
            if !tracker.stubs[plan.index].isEmpty { report.stubs.append((name, tracker.stubs[plan.index].count)) }
        }
        report.skippedLinks = importer.skippedLinks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
