import Foundation

/// A hand-over running on a worker thread. The connection is the worker's until ``wait()``
/// returns: the row path waits for it before any other use of the connection, and the worker
/// touches nothing else of the row path.
///
/// `@unchecked Sendable`: the semaphore `done` orders it all. The worker writes `error` and
/// uses the connection only before it signals `done`; the row path reads `error` and uses the
/// connection again only after waiting on it.
final class BackgroundHandOver: @unchecked Sendable {
    private unowned let rows: PostgresImportRows
    private let handOver: PostgresImportRows.HandOver
    private let done = DispatchSemaphore(value: 0)
    /// Written by the worker before it signals `done`, read after.
    private var error: StoreError?

    init(rows: PostgresImportRows, handOver: PostgresImportRows.HandOver) {
        self.rows = rows
        self.handOver = handOver
    }

    func start() {
        let thread = Thread { [self] in
            do throws(StoreError) {
                try rows.send(handOver)
            } catch {
                self.error = error
            }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the worker; throws the error the hand-over failed with.
    func wait() throws(StoreError) {
        done.wait()
        if let error { throw error }
    }
}
