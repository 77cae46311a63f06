import Dispatch
import Foundation

/// A payload file read whole on a thread of its own while the store opens, for the import
/// that then reads it: `jsonimport import` starts one for its first file before it loads the
/// mappings and opens the store, so that reading the file (mapping it, see
/// ``PayloadReader/read(_:size:)``: a few ms for the benchmark's 55 MB; reading it took 30–80,
/// most of it the kernel handing over the memory it went in) overlaps that work rather than
/// following it. A JSON document is then parsed ahead at once (``JSONParser/HeadStart``):
/// simdjson's first pass over the whole text (some 30–40 ms for those 55 MB) runs while the
/// store opens, which for a new store means creating its tables.
///
/// It reads a regular file of at least ``minimumSize`` bytes and at most the import's limit,
/// once: the import takes the bytes when it comes to the file (``take(_:)``), and reads the
/// file itself when there are none (the read failed, or the file is not one this reads), so
/// that any error is the one it reports reading the file then.
///
/// `@unchecked Sendable`: the semaphore `done` orders it all. The reading thread sets `input`
/// and `headStart` before it signals `done`; `take(_:)` reads and clears them only after waiting
/// for `done`, on the one thread that imports.
package final class PayloadReadAhead: @unchecked Sendable {
    private let path: String
    private let done = DispatchSemaphore(value: 0)
    private var input: JSONInput?
    /// The parse of `input` begun as soon as it was read, by a parser of its own.
    private var headStart: JSONParser.HeadStart?

    /// Files smaller than this (1 MB) are read when the import comes to them: there is little
    /// to gain.
    static let minimumSize = 1 << 20

    /// Starts reading the file at `path` when it is a regular file of ``minimumSize`` to
    /// the import's `maxPayloadSize` bytes; `nil` for standard input (`-`). Once read, a JSON
    /// document is parsed ahead as the import will parse it (`options`' nesting limit): its
    /// first pass over the whole text then overlaps the store's opening too (see
    /// ``JSONParser/HeadStart``).
    package init?(path: String, options: ImportOptions) {
        guard path != "-" else { return nil }
        self.path = path
        let thread = Thread { [self] in
            input = Self.read(path, maxSize: options.maxPayloadSize)
            headStart = input.flatMap { JSONParser(maxDepth: options.maxDepth, parseAhead: options.parseAhead).headStart($0) }
            done.signal()
        }
        thread.start()
    }

    /// The bytes of the file at `path`, and the parse begun of them, when this read them and
    /// they were not taken yet.
    func take(_ path: String) -> (JSONInput, JSONParser.HeadStart?)? {
        guard path == self.path else { return nil }
        waitForRead()
        defer { (input, headStart) = (nil, nil) }
        return input.map { ($0, headStart) }
    }

    /// Returns once the file is read, or known not to be.
    func waitForRead() {
        done.wait()
        done.signal()
    }

    private static func read(_ path: String, maxSize: Int) -> JSONInput? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
            case let size = Int(status.st_size), size >= minimumSize, size <= maxSize,
            let handle = fopen(path, "rb")
        else { return nil }
        defer { fclose(handle) }
        return PayloadReader.read(handle, size: size)
    }
}
