import Foundation

/// A hand-over running on a worker thread, and reads that follow it in one round trip. The
/// connection is the worker's until ``wait()`` returns: the row path waits for it before any
/// other use of the connection, and the worker touches nothing else of the row path. The
/// worker decodes the reads' results (``PostgresImportRows/Load/decode(_:)`` reads the result
/// alone); the row path applies them to the cache, after the wait.
///
/// `@unchecked Sendable`: the semaphore `done` orders it all. The worker writes `error` and
/// `decoded` and uses the connection only before it signals `done`; the row path reads them
/// and uses the connection again only after waiting on it.
final class BackgroundHandOver: @unchecked Sendable {
    private unowned let rows: PostgresImportRows
    /// Taken by the worker, so its rows are sorted and released on the worker's thread.
    private var handOver: PostgresImportRows.HandOver?
    /// The reads to run after the hand-over; the worker runs their statements only.
    let reads: [PostgresImportRows.Load]
    private let done = DispatchSemaphore(value: 0)
    /// Written by the worker before it signals `done`, read after.
    private var error: StoreError?
    private var decoded: [Result<PostgresImportRows.Decoded, StoreError>] = []

    init(rows: PostgresImportRows, handOver: PostgresImportRows.HandOver?, reads: [PostgresImportRows.Load] = []) {
        self.rows = rows
        self.handOver = handOver
        self.reads = reads
    }

    func start() {
        let thread = Thread { [self] in
            do throws(StoreError) {
                try work()
            } catch {
                self.error = error
            }
            done.signal()
        }
        thread.start()
    }

    /// The worker's part: the hand-over, then the reads, each decoded (or the error its result
    /// is read with).
    private func work() throws(StoreError) {
        if let handOver = handOver.take() { try rows.send(handOver) }
        guard !reads.isEmpty else { return }
        do {
            try rows.connection.pipeline(reads.map(\.statement)) { (index, result) throws(StoreError) in
                let read = reads[index]
                decoded.append(Result { () throws(StoreError) in
                    try result.checkReadable(sql: read.statement.sql)
                    return read.decode(result)
                })
            }
        } catch {
            throw error.error
        }
    }

    /// Waits for the worker; throws the error it failed with, else returns what each read
    /// decoded to, or the error its result is read with, in order.
    func wait() throws(StoreError) -> [Result<PostgresImportRows.Decoded, StoreError>] {
        done.wait()
        if let error { throw error }
        // Handed over, not shared: the row path moves each result out of the list.
        var taken: [Result<PostgresImportRows.Decoded, StoreError>] = []
        swap(&taken, &decoded)
        return taken
    }
}
