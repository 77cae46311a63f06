import Foundation

/// A hand-over running on a worker thread, and reads that follow it in one round trip. The
/// connection is the worker's until ``wait()`` returns: the row path waits for it before any
/// other use of the connection, and the worker touches nothing else of the row path. The
/// reads' results are applied to the cache by the row path, after the wait.
///
/// `@unchecked Sendable`: the semaphore `done` orders it all. The worker writes `error` and
/// `results` and uses the connection only before it signals `done`; the row path reads them
/// and uses the connection again only after waiting on it.
final class BackgroundHandOver: @unchecked Sendable {
    private unowned let rows: PostgresImportRows
    private let handOver: PostgresImportRows.HandOver?
    /// The reads to run after the hand-over; the worker runs their statements only.
    let reads: [PostgresImportRows.Load]
    private let done = DispatchSemaphore(value: 0)
    /// Written by the worker before it signals `done`, read after.
    private var error: StoreError?
    private var results: [PostgresResult] = []

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

    /// The worker's part: the hand-over, then the reads.
    private func work() throws(StoreError) {
        if let handOver { try rows.send(handOver) }
        guard !reads.isEmpty else { return }
        do {
            try rows.connection.pipeline(reads.map(\.statement)) { (_, result) throws(StoreError) in results.append(result) }
        } catch {
            throw error.error
        }
    }

    /// Waits for the worker; throws the error it failed with, else returns the results of the
    /// reads, in order.
    func wait() throws(StoreError) -> [PostgresResult] {
        done.wait()
        if let error { throw error }
        return results
    }
}
