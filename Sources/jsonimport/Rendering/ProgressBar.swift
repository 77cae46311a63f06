import Foundation
import JSONImport

/// Draws import progress on one line of standard error: a bar, bytes, records per second and
/// the time left; for a fetch, pages instead of the bar.
struct ProgressBar: Sendable {
    private let standardError = FileHandle.standardError
    /// Whether the payloads are the pages of a fetch, counted rather than measured.
    var countsPages = false

    func draw(_ progress: ImportProgress) {
        var line = "\r"
        if countsPages {
            line += "\(progress.payloads) page\(progress.payloads == 1 ? "" : "s"), " + Self.bytes(progress.bytesRead)
        } else if let total = progress.totalBytes, total > 0 {
            let fraction = min(1, Double(progress.bytesRead) / Double(total))
            let width = 24
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "] "
            line += String(format: "%3.0f%% %@ / %@", fraction * 100, Self.bytes(progress.bytesRead), Self.bytes(total))
        } else {
            line += Self.bytes(progress.bytesRead)
        }
        line += String(format: "  %d records, %.0f/s", progress.records, progress.recordsPerSecond)
        if let left = progress.estimatedSecondsLeft, !progress.isFinished { line += String(format: "  ETA %.0fs", left) }
        write(line + "\u{1B}[K" + (progress.isFinished ? "\n" : ""))
    }

    /// Wipes the bar before an error is printed.
    func clear() { write("\r\u{1B}[K") }

    private func write(_ text: String) { standardError.write(Data(text.utf8)) }

    private static func bytes(_ count: Int) -> String {
        count >= 1 << 20 ? String(format: "%.1f MB", Double(count) / 1_048_576) : String(format: "%.1f KB", Double(count) / 1024)
    }
}
