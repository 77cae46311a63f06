import Foundation
import Synchronization

/// A hand-over running on a worker thread, and reads that follow it in one round trip. The
/// connection is the worker's until ``wait()`` returns: the row path waits for it before any
/// other use of the connection, and the worker touches nothing else of the row path. The
/// worker decodes the reads' results (``PostgresImportRows/Load/decode(_:)`` reads the result
/// alone), then runs the reads that follow from them (``PostgresImportRows/Load/followUp``) in
/// a round trip of their own; the row path applies them all to the cache, after the wait.
///
/// `@unchecked Sendable`: the semaphore `done` orders it all. The worker writes `error`,
/// `followUps` and `decoded` and uses the connection only before it signals `done`; the row
/// path reads them and uses the connection again only after waiting on it. Before that, the
/// row path asks only whether the worker is done (``isRunning``, an atomic flag).
final class BackgroundHandOver: @unchecked Sendable {
    private unowned let rows: PostgresImportRows
    /// Taken by the worker, so its rows are sorted and released on the worker's thread.
    private var handOver: PostgresImportRows.HandOver?
    /// The reads to run after the hand-over; the worker runs their statements only.
    let reads: [PostgresImportRows.Load]
    /// The reads that followed from `reads`, planned and run by the worker.
    private var followUps: [PostgresImportRows.Load] = []
    private let done = DispatchSemaphore(value: 0)
    /// Set by the worker once it is done, just before it signals `done`.
    private let finished = Atomic<Bool>(false)
    /// Signalled when the worker may begin: a test's hold on it (see
    /// ``PostgresImportRows/handOverGate``).
    private let gate: DispatchSemaphore?
    /// Written by the worker before it signals `done`, read after.
    private var error: StoreError?
    private var decoded: [Result<PostgresImportRows.Decoded, StoreError>] = []

    init(
        rows: PostgresImportRows, handOver: PostgresImportRows.HandOver?, reads: [PostgresImportRows.Load] = [],
        gate: DispatchSemaphore? = nil
    ) {
        self.rows = rows
        self.handOver = handOver
        self.reads = reads
        self.gate = gate
    }

    func start() {
        let thread = Thread { [self] in
            do throws(StoreError) {
                try work()
            } catch {
                self.error = error
            }
            finished.store(true, ordering: .releasing)
            done.signal()
        }
        thread.start()
    }

    /// The worker's part: the hand-over, then the reads, then those that follow from them, each
    /// decoded (or the error its result is read with).
    private func work() throws(StoreError) {
        gate?.wait()
        if let handOver = handOver.take() { try rows.send(handOver) }
        try run(reads)
        for (read, result) in zip(reads, decoded) {
            if let followUp = read.followUp, case .success(let rows) = result { followUps += followUp(rows) }
        }
        try run(followUps)
    }

    private func run(_ loads: [PostgresImportRows.Load]) throws(StoreError) {
        guard !loads.isEmpty else { return }
        do {
            try rows.connection.pipeline(loads.map(\.statement)) { (index, result) throws(StoreError) in
                let read = loads[index]
                decoded.append(Result { () throws(StoreError) in
                    try result.checkReadable(sql: read.statement.sql)
                    return read.decode(result)
                })
            }
        } catch {
            throw error.error
        }
    }

    /// The worker is still at work: waiting for it now would wait.
    var isRunning: Bool { !finished.load(ordering: .acquiring) }

    /// Waits for the worker; throws the error it failed with, else returns the reads it ran
    /// (`reads`, then their follow-ups) and what each decoded to, or the error its result is
    /// read with, in order.
    func wait() throws(StoreError) -> (reads: [PostgresImportRows.Load], results: [Result<PostgresImportRows.Decoded, StoreError>]) {
        done.wait()
        if let error { throw error }
        // Handed over, not shared: the row path moves each result out of the list.
        var taken: [Result<PostgresImportRows.Decoded, StoreError>] = []
        swap(&taken, &decoded)
        return (reads + followUps, taken)
    }
}
