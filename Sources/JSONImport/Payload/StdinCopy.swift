import Foundation

/// Standard input copied to a temporary file, so an import can read it more than once; the
/// file is removed when the copy is released.
final class StdinCopy {
    let path: String

    /// Copies all of standard input, in chunks.
    /// - Throws: ``ImportError`` `unreadableFile` when standard input cannot be read or the
    ///   copy cannot be written.
    init() throws {
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("jsonimport-stdin.XXXXXX")
        var name = Array(template.utf8CString)
        let fd = mkstemp(&name)
        guard fd >= 0 else { throw Self.failure("cannot copy standard input: \(String(cString: strerror(errno)))") }
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = read(0, &chunk, chunk.count)
            if n == 0 { break }
            guard n > 0 else {
                if errno == EINTR { continue }
                throw Self.failure("cannot read standard input: \(String(cString: strerror(errno)))")
            }
            var written = 0
            while written < n {
                let w = chunk.withUnsafeBytes { write(fd, $0.baseAddress! + written, n - written) }
                guard w > 0 else {
                    throw Self.failure("cannot copy standard input: \(String(cString: strerror(errno)))")
                }
                written += w
            }
        }
    }

    // Also runs when `init` throws after `path` is set.
    deinit { unlink(path) }

    private static func failure(_ message: String) -> ImportError {
        ImportError(code: .unreadableFile, message: message, issue: ImportIssue(file: "-", record: nil, path: "$", message: message))
    }
}
