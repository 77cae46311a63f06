import Foundation

/// How far an import has got, reported while it runs (for progress bars).
public struct ImportProgress: Sendable, Hashable {
    /// Bytes of the payloads read so far, and in all (`nil` when unknown, as for standard input).
    public let bytesRead: Int
    /// Bytes of all the payloads together; `nil` when a size is unknown (standard input).
    public let totalBytes: Int?
    /// Root records read so far.
    public let records: Int
    /// Payloads read to their end so far: files, or the pages of a fetch.
    public let payloads: Int
    /// Seconds since the import started.
    public let elapsed: Double
    /// `true` for the last report of the import.
    public let isFinished: Bool

    /// Receives progress reports, synchronously on the importing thread, about ten times a second.
    public typealias Handler = @Sendable (ImportProgress) -> Void

    /// Records per second so far.
    public var recordsPerSecond: Double { elapsed > 0 ? Double(records) / elapsed : 0 }

    /// Estimated seconds left, when the total size is known.
    public var estimatedSecondsLeft: Double? {
        guard let totalBytes, bytesRead > 0, elapsed > 0 else { return nil }
        return elapsed * Double(totalBytes - bytesRead) / Double(bytesRead)
    }
}

/// Turns record offsets into throttled progress reports across several payloads.
struct ProgressMeter {
    let handler: ImportProgress.Handler
    private let sizes: [ImportSource: Int]
    private let total: Int?
    private let start = Date()
    private var finishedBytes = 0
    private var currentBytes = 0
    private var payloads = 0
    private var lastReport = Date.distantPast

    /// - Parameter sources: every payload, or `nil` when they are not known in advance (the
    ///   total size is unknown then).
    init(handler: @escaping ImportProgress.Handler, sources: [ImportSource]?) {
        self.handler = handler
        var sizes: [ImportSource: Int] = [:]
        var total: Int? = sources == nil ? nil : 0
        for source in sources ?? [] {
            switch source {
            case .data(let data, _): sizes[source] = data.count
            case .file(let path):
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
                if path != "-", let size { sizes[source] = size } else { total = nil }
            }
            if let size = sizes[source], total != nil { total! += size }
        }
        self.sizes = sizes
        self.total = total
    }

    mutating func start(_ source: ImportSource) { currentBytes = 0 }

    mutating func advance(to offset: Int, records: Int) {
        currentBytes = offset
        let now = Date()
        guard now.timeIntervalSince(lastReport) >= 0.1 else { return }
        lastReport = now
        report(records: records, isFinished: false)
    }

    /// The import has read `source` to its end; `nil` for a payload it did not read (the
    /// store held it already).
    mutating func finish(_ source: ImportSource?, records: Int) {
        switch source {
        case .data(let data, _)?: finishedBytes += data.count
        case let source?: finishedBytes += sizes[source] ?? currentBytes
        case nil: break
        }
        currentBytes = 0
        payloads += 1
        report(records: records, isFinished: false)
    }

    /// The import has read every payload.
    func end(records: Int) {
        report(records: records, isFinished: true)
    }

    private func report(records: Int, isFinished: Bool) {
        handler(ImportProgress(
            bytesRead: finishedBytes + currentBytes, totalBytes: total, records: records, payloads: payloads,
            elapsed: Date().timeIntervalSince(start), isFinished: isFinished))
    }
}
