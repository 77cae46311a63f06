/// Rows copied into tables that have no index yet (a new store's tables, see
/// ``PostgresDeferredIndexes``), held back on the client and sent in fewer, larger `COPY`s.
///
/// An import copies each batch's new rows with a `COPY` per table, and the server's time grows
/// with the number of `COPY`s, not only with their rows: the benchmark's 50,000 users, loaded
/// by `psql` into new tables in one transaction, took 0.32 s in one `COPY` per table, 0.41 s
/// in 4, 0.51 s in 8, 0.57 s in 28 (an import's count) and 0.92 s in 100 (medians of 3).
///
/// Held rows go to the server, in the order the tables were first held, before any other
/// statement runs on the connection (a read, a merge, the build of the indexes, a savepoint,
/// the commit), so every statement sees every row copied before it, as when each `COPY` is
/// sent at once; they are dropped by a rollback, which would undo them. Past
/// ``budget`` bytes, the table holding the most goes at once. Only tables without any index
/// are held: no row can fail there that the client has not refused already, so a held row
/// that fails later is no other row's failure.
struct PostgresHeldCopies {
    /// The rows held for one table: the columns they fill and their fields in binary `COPY`
    /// format (no signature or trailer), the first `used` bytes of `bytes`.
    struct Table {
        var columns: [PostgresCopyColumn]
        var bytes: [UInt8]
        var used: Int
    }

    /// The tables holding rows, in the order they were first held.
    fileprivate var tables: [(name: String, rows: Table)] = []

    /// Bytes held in all, past which the table holding the most is sent (4 MB). Less held
    /// means more `COPY`s, but sent sooner, beside the client's work rather than after it: a
    /// fresh import of the benchmark's users took 1.135 s with 4 MB against 1.155 and 1.215 s
    /// with 8 MB (medians of two runs of 8 and 10 pairs), 1.13 s with 2 MB, 1.355 s with 32 MB.
    static let budget = 4 << 20

    /// Bytes of the rows held.
    var size: Int { tables.reduce(0) { $0 + $1.rows.used } }

    var isEmpty: Bool { tables.isEmpty }
}

extension PostgresConnection {
    /// Copies the rows `writeRows` appends into `columns` of `table`, which has no index yet,
    /// holding them on the client (see ``PostgresHeldCopies``); returns how many there were.
    /// When `writeRows` throws, none of its rows is held.
    func hold(
        into table: String, columns: [PostgresCopyColumn], _ writeRows: (inout PostgresCopyWriter) throws -> Void
    ) throws -> Int {
        var index = held.tables.firstIndex { $0.name == table }
        if let i = index, held.tables[i].rows.columns != columns {
            try sendHeldCopy(at: i)
            index = nil
        }
        var rows = index.map { held.tables[$0].rows } ?? PostgresHeldCopies.Table(columns: columns, bytes: [], used: 0)
        let start = rows.used
        // The held bytes move into the writer and back, never copied: no other array may
        // share them while the writer appends.
        if let index { held.tables[index].rows.bytes = [] }
        var bytes: [UInt8] = []
        swap(&bytes, &rows.bytes)
        var writer = PostgresCopyWriter(holdingFor: table, columns: columns, bytes: consume bytes, used: start)
        do {
            try writeRows(&writer)
            (rows.bytes, rows.used) = writer.takeHeld()
        } catch {
            // The rows written before the error lie past `start`, and are dropped.
            (rows.bytes, _) = writer.takeHeld()
            if let index { held.tables[index].rows = rows }
            if let error = error as? StoreError { throw error.during("copying into \(table)") }
            throw error
        }
        if let index { held.tables[index].rows = rows } else { held.tables.append((table, rows)) }
        while held.size > PostgresHeldCopies.budget, let largest = held.tables.indices.max(by: { held.tables[$0].rows.used < held.tables[$1].rows.used }) {
            try sendHeldCopy(at: largest)
        }
        return writer.rowCount
    }

    /// Sends every held row, a `COPY` per table.
    func sendHeldCopies() throws(StoreError) {
        while !held.tables.isEmpty { try sendHeldCopy(at: 0) }
    }

    /// Forgets the held rows: the transaction is rolled back, or back to a savepoint taken
    /// before them.
    func dropHeldCopies() {
        held.tables = []
    }

    private func sendHeldCopy(at index: Int) throws(StoreError) {
        let (table, rows) = held.tables.remove(at: index)
        do {
            _ = try runCopy(into: table, columns: rows.columns) { failedToSend in
                // Only sending can fail here: the server says why.
                failedToSend = true
                try putCopyData(PostgresCopyWriter.header, count: PostgresCopyWriter.header.count)
                try putCopyData(rows.bytes, count: rows.used)
                try putCopyData(PostgresCopyWriter.trailer, count: PostgresCopyWriter.trailer.count)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            preconditionFailure("a held copy threw \(error)")
        }
    }
}
