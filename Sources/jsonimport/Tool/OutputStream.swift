#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A buffered text stream over a file descriptor (standard output or standard error).
///
/// Writes go straight to the descriptor with `write(2)` once the buffer fills or on ``flush()``;
/// standard error is flushed after every write so errors appear as they happen.
final class FileDescriptorStream: TextOutputStream {
    private let descriptor: Int32
    private let flushesEveryWrite: Bool
    private var buffer: [UInt8] = []
    private static let capacity = 64 * 1024

    /// A stream on standard output, written in large chunks.
    static func makeStandardOutput() -> FileDescriptorStream {
        FileDescriptorStream(descriptor: 1, flushesEveryWrite: false)
    }

    /// A stream on standard error, written at once.
    static func makeStandardError() -> FileDescriptorStream {
        FileDescriptorStream(descriptor: 2, flushesEveryWrite: true)
    }

    init(descriptor: Int32, flushesEveryWrite: Bool) {
        self.descriptor = descriptor
        self.flushesEveryWrite = flushesEveryWrite
    }

    deinit { flush() }

    /// `true` when the stream writes to a terminal (decides whether a progress bar is drawn).
    var isTerminal: Bool { isatty(descriptor) == 1 }

    func write(_ string: String) {
        buffer.append(contentsOf: string.utf8)
        if flushesEveryWrite || buffer.count >= Self.capacity { flush() }
    }

    /// Writes out everything buffered; gives up silently when the reader has gone away.
    func flush() {
        var start = 0
        while start < buffer.count {
            let written = buffer[start...].withUnsafeBytes { bytes in
                systemWrite(descriptor, bytes.baseAddress, bytes.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            start += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `write(2)` under a name that does not clash with `TextOutputStream.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
