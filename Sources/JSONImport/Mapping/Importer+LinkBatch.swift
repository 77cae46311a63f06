/// New link-table rows are buffered and written many per statement: a fresh import inserts
/// hundreds of thousands of them, and one multi-row `INSERT` costs about what a single-row one
/// does. Any statement that reads or deletes links of a table flushes its buffer first, so the
/// buffer is never observable.
extension Importer {
    /// Rows per multi-row `INSERT` (three parameters each).
    static let linkBatchSize = 128

    /// Queues the link `(source, target, position)` for insertion into the table of link `link`.
    func bufferLink(_ link: Int, _ source: Int64, _ target: Int64, _ position: Int64) throws(RecordError) {
        pendingLinks[link].append(contentsOf: [source, target, position])
        if pendingLinks[link].count >= 3 * Self.linkBatchSize { try flushLinks(link) }
    }

    /// Writes the queued links of `link`.
    func flushLinks(_ link: Int) throws(RecordError) {
        var pending = pendingLinks[link]
        guard !pending.isEmpty else { return }
        pendingLinks[link].removeAll(keepingCapacity: true)
        defer { pending.removeAll() }
        var start = 0
        while start < pending.count {
            // Full batches, then batches of eight, then single rows: three statements per table.
            let left = (pending.count - start) / 3
            let rows = left >= Self.linkBatchSize ? Self.linkBatchSize : (left >= 8 ? 8 : 1)
            let statement = try sql(linkInsert(link, rows: rows))
            for i in 0..<(rows * 3) { statement.bind(pending[start + i], at: Int32(i + 1)) }
            try write(statement)
            start += rows * 3
        }
    }

    /// Writes every queued link.
    func flushAllLinks() throws(RecordError) {
        for link in pendingLinks.indices where !pendingLinks[link].isEmpty { try flushLinks(link) }
    }

    /// Forgets queued links (their record was rolled back).
    func discardPendingLinks() {
        for link in pendingLinks.indices { pendingLinks[link].removeAll(keepingCapacity: true) }
    }

    /// The cached `INSERT` of `rows` links into the table of link `link`.
    private func linkInsert(_ link: Int, rows: Int) -> CachedSQL {
        if let cached = linkInserts[link][rows] { return cached }
        guard case .linkTable(let name) = plan.spec.links[link].storage else {
            preconditionFailure("link \(link) has no link table")
        }
        let values = Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", ")
        let cached = CachedSQL("INSERT INTO \(quote(name)) (\"source\", \"target\", \"position\") VALUES \(values)")
        linkInserts[link][rows] = cached
        return cached
    }
}
