internal import CSimdJSON
import Foundation

/// Parses JSON text into a ``JSONDocument`` with simdjson. One parser serves one document at a
/// time: a document stays valid until the next `parse` call on the same parser.
final class JSONParser {
    private let raw: OpaquePointer
    /// The deepest nesting accepted; deeper documents are a syntax error.
    let maxDepth: Int
    /// How streamed documents are parsed ahead (see ``forEachRecord(in:at:batch:_:)``).
    let parseAhead: ParseAhead

    /// Nesting accepted by default: far beyond what APIs send, well within the parser's stack.
    static let defaultMaxDepth = 512

    /// When a worker thread parses a document ahead of its records' import, and in batches of
    /// how many nodes.
    struct ParseAhead: Hashable, Sendable {
        /// Documents from this size on are parsed ahead.
        var fromSize: Int
        /// Nodes a batch of records holds, about: a few MB.
        var batchNodes: Int

        static let `default` = ParseAhead(fromSize: 1 << 20, batchNodes: 1 << 16)
    }

    init(maxDepth: Int = JSONParser.defaultMaxDepth, parseAhead: ParseAhead = .default) {
        precondition(ji_cpu_supported() != 0, "JSONImport's JSON reader needs an x86-64 CPU with AVX2 (2013 or later)")
        guard let raw = ji_parser_create(maxDepth) else {
            preconditionFailure("out of memory creating a JSON parser")
        }
        self.raw = raw
        self.maxDepth = maxDepth
        self.parseAhead = parseAhead
    }

    deinit { ji_parser_destroy(raw) }

    /// Parses `input` (all of it) into a document.
    /// - Throws: ``JSONSyntaxError`` with the byte offset, line and column of the problem.
    func parse(_ input: JSONInput) throws(JSONSyntaxError) -> JSONDocument {
        let code = ji_parse(raw, input.base, input.count)
        guard code == 0 else {
            let offset = ji_error_offset(raw)
            let message = String(cString: ji_error_message(raw))
            throw JSONSyntaxError(input: input, offset: offset, message: message)
        }
        var count = 0
        let nodes = ji_nodes(raw, &count)
        return JSONDocument(
            nodes: UnsafeBufferPointer(start: nodes, count: count), input: input, parser: self)
    }

    /// How the records of a streamed document sit.
    enum RecordShape {
        /// The key path is not in the document.
        case missing
        /// The elements of the array at the key path.
        case elements
        /// The value at the key path, whatever its type.
        case single
    }

    /// Reads the records at key `path` of `input` as they are parsed: `body` gets each in
    /// document order, valid during the call only. From ``ParseAhead/fromSize`` bytes on, a
    /// worker thread parses ahead of `body`, so parsing overlaps the work done with the records,
    /// and only a few MB of the tape exist at a time however large the document. The whole document is validated: a
    /// syntax error anywhere wins over an error `body` throws (the rest is read to find it).
    /// `batch`, when given, gets the records parsed together before `body` gets the first of
    /// them (valid until `body` has had the last), and those parsed together next, if any
    /// (empty at the end): the importer reads ahead for them.
    /// - Returns: how the records sit.
    /// - Throws: ``JSONSyntaxError``, or what `body` or `batch` throws.
    ///
    /// `headStart`: the parse of `input` this parser began before the path was known (see
    /// ``headStart(_:)``), which goes on with it.
    func forEachRecord(
        in input: JSONInput, at path: [String], headStart: HeadStart? = nil,
        batch: (([JSONValue], [JSONValue], RecordShape) throws -> Void)? = nil,
        _ body: (JSONValue, RecordShape) throws -> Void
    ) throws -> RecordShape {
        let keys = path.map { Array($0.utf8) }
        let threaded = input.count >= parseAhead.fromSize
        let begun = headStart.flatMap { $0.parser === self && $0.input === input ? $0.take() : nil }
        do {
            return try stream(input, count: input.count, keys: keys, threaded: threaded, begun: begun, batch: batch, body)
        } catch var error as JSONSyntaxError where error.record == nil && error.offset > 0 && error.offset < input.count {
            // A problem the first pass over the whole text finds (a string never closed) stops
            // the walk before any record: the text before it, walked alone, tells which record
            // it is in.
            error.record = recordBeingRead(in: input, before: error.offset, keys: keys, threaded: threaded)
            throw error
        }
    }

    /// The record that reading `input` up to `offset` stops in, if any. The bytes are copied,
    /// so that they end in zeroed padding of their own: walked in place, with the rest of the
    /// document standing for padding, the prefix broke the process.
    private func recordBeingRead(in input: JSONInput, before offset: Int, keys: [[UInt8]], threaded: Bool) -> Int? {
        let prefix = JSONInput(bytes: UnsafeBufferPointer(start: input.base, count: offset))
        do {
            _ = try stream(prefix, count: offset, keys: keys, threaded: threaded) { _, _ in }
            return nil
        } catch let error as JSONSyntaxError {
            return error.record
        } catch {
            return nil
        }
    }

    /// Streams the records of the first `count` bytes of `input` (see `forEachRecord`), through
    /// `begun` when its parse began already (see ``HeadStart``).
    private func stream(
        _ input: JSONInput, count: Int, keys: [[UInt8]], threaded: Bool, begun: OpaquePointer? = nil,
        batch batchBody: (([JSONValue], [JSONValue], RecordShape) throws -> Void)? = nil,
        _ body: (JSONValue, RecordShape) throws -> Void
    ) throws -> RecordShape {
        let stream: OpaquePointer = try withKeyPointers(keys) { pointers, lengths in
            if let begun {
                guard ji_stream_route(begun, pointers, lengths, keys.count) != 0 else {
                    ji_stream_destroy(begun)
                    throw JSONSyntaxError(input: input, offset: 0, message: "out of memory")
                }
                return begun
            }
            let batchNodes = threaded ? parseAhead.batchNodes : 0
            guard let stream = ji_stream_start(raw, input.base, count, pointers, lengths, keys.count, batchNodes) else {
                throw JSONSyntaxError(input: input, offset: 0, message: "out of memory")
            }
            return stream
        }
        defer { ji_stream_destroy(stream) }
        var nodes: UnsafePointer<ji_node>?
        var count = 0
        func next() throws(JSONSyntaxError) -> UnsafeBufferPointer<ji_node>? {
            switch ji_stream_next(stream, &nodes, &count) {
            case 1: return UnsafeBufferPointer(start: nodes, count: count)
            case 0: return nil
            default:
                var error = JSONSyntaxError(input: input, offset: ji_error_offset(raw), message: String(cString: ji_error_message(raw)))
                let record = ji_stream_error_record(stream)
                error.record = record >= 0 ? Int(record) : nil
                throw error
            }
        }
        func records(_ batch: UnsafeBufferPointer<ji_node>) -> [JSONValue] {
            var values: [JSONValue] = []
            var index = 0
            while index < batch.count {
                values.append(JSONValue(nodes: batch, index: index))
                index = Int(batch[index].end)
            }
            return values
        }
        do {
            var current = try next()
            while let batch = current {
                let shape = Self.shape(ji_stream_shape(stream))
                if let batchBody {
                    // The batch after it too: the stream keeps both valid. A syntax error in it
                    // comes after this batch's records, as it would without looking ahead.
                    var syntaxError: JSONSyntaxError?
                    do { current = try next() } catch { (current, syntaxError) = (nil, error) }
                    let values = records(batch)
                    try batchBody(values, current.map(records) ?? [], shape)
                    for value in values { try body(value, shape) }
                    if let syntaxError { throw syntaxError }
                } else {
                    var index = 0
                    while index < batch.count {
                        let value = JSONValue(nodes: batch, index: index)
                        try body(value, shape)
                        index = Int(batch[index].end)
                    }
                    current = try next()
                }
            }
        } catch let error as JSONSyntaxError {
            throw error
        } catch {
            while try next() != nil {}
            throw error
        }
        return Self.shape(ji_stream_shape(stream))
    }

    /// A document's parse begun before the key path of its records is known: simdjson's first
    /// pass over the whole text runs on the worker that then parses the records ahead (see
    /// ``ParseAhead``), and ``forEachRecord(in:at:headStart:batch:_:)`` gives it the path. Made
    /// by ``headStart(_:)`` for ``PayloadReadAhead``, so that the pass overlaps the store's
    /// opening rather than following it. Made on the thread that reads the file and handed to
    /// the importing thread by ``PayloadReadAhead``, which orders the two.
    final class HeadStart {
        let parser: JSONParser
        let input: JSONInput
        private var stream: OpaquePointer?

        fileprivate init(parser: JSONParser, input: JSONInput, stream: OpaquePointer) {
            self.parser = parser
            self.input = input
            self.stream = stream
        }

        /// Whether a stream took it (``forEachRecord(in:at:headStart:batch:_:)``).
        var isTaken: Bool { stream == nil }

        /// The stream, once: whoever takes it destroys it.
        fileprivate func take() -> OpaquePointer? {
            defer { stream = nil }
            return stream
        }

        /// A head start never taken stops its worker.
        deinit { if let stream { ji_stream_destroy(stream) } }
    }

    /// Begins parsing `input` before its records' key path is known (see ``HeadStart``); `nil`
    /// for a document too small to be parsed ahead, or when no worker thread can be had.
    func headStart(_ input: JSONInput) -> HeadStart? {
        guard input.count >= parseAhead.fromSize,
            let stream = ji_stream_prepare(raw, input.base, input.count, parseAhead.batchNodes)
        else { return nil }
        return HeadStart(parser: self, input: input, stream: stream)
    }

    private static func shape(_ raw: Int32) -> RecordShape {
        switch raw {
        case Int32(JI_RECORDS_ELEMENTS): return .elements
        case Int32(JI_RECORDS_SINGLE): return .single
        default: return .missing
        }
    }

    /// Calls `body` with C pointers to `keys` and their lengths.
    private func withKeyPointers<R>(
        _ keys: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>?, UnsafePointer<Int>?) throws -> R
    ) throws -> R {
        let lengths = keys.map(\.count)
        let storage = keys.map { key -> UnsafeMutablePointer<UInt8> in
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(key.count, 1))
            copy.initialize(from: key, count: key.count)
            return copy
        }
        defer { storage.forEach { $0.deallocate() } }
        let pointers: [UnsafePointer<UInt8>?] = storage.map { UnsafePointer($0) }
        return try pointers.withUnsafeBufferPointer { p in
            try lengths.withUnsafeBufferPointer { l in try body(p.baseAddress, l.baseAddress) }
        }
    }
}

/// Bytes to parse, kept with the padding simdjson reads past their end.
final class JSONInput {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int
    /// For bytes mapped from a file (see ``init(mapping:size:)``) rather than allocated: a
    /// descriptor of the file, open while they are mapped, and when it was last modified then.
    private let mapped: (descriptor: Int32, modified: timespec)?

    /// Bytes after the end that simdjson may read, zeros.
    static var padding: Int { ji_padding() }

    /// Space for `count` bytes plus padding; fill it through `base`.
    init(count: Int) {
        self.count = count
        self.base = .allocate(capacity: count + Self.padding)
        (base + count).initialize(repeating: 0, count: Self.padding)
        mapped = nil
    }

    /// The first `size` bytes of the regular file open as `descriptor` (of at least that
    /// size), mapped read-only rather than read: they are the pages of the kernel's cache of the file, where reading
    /// them has the kernel hand over new memory, zeroed, and copy them into it (the
    /// benchmark's 55 MB took 16–150 ms to read that way, 7 ms to map and go through). `nil`
    /// when it is not such a file or cannot be mapped.
    ///
    /// Mapped bytes are the file's as it is when they are read, not when it was mapped: see
    /// ``fileChanged``.
    init?(mapping descriptor: Int32, size: Int) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) >= size,
            case let copy = dup(descriptor), copy >= 0
        else { return nil }
        guard let base = ji_map_file(copy, size) else {
            close(copy)
            return nil
        }
        self.base = base
        count = size
        mapped = (copy, Self.modified(status))
    }

    /// Whether the file of mapped bytes was written to since it was mapped (its modification
    /// time moved), or lost bytes they cover (it became shorter: those read as zeros, see
    /// `ji_map_file`): what was read from it may mix two versions of the file.
    var fileChanged: Bool {
        guard let mapped else { return false }
        var status = stat()
        guard ji_mapped_file_damaged(base) == 0, fstat(mapped.descriptor, &status) == 0 else { return true }
        let modified = Self.modified(status)
        return modified.tv_sec != mapped.modified.tv_sec || modified.tv_nsec != mapped.modified.tv_nsec || Int(status.st_size) < count
    }

    /// A file's modification time, as `stat` gives it.
    private static func modified(_ status: stat) -> timespec {
        #if canImport(Darwin)
        status.st_mtimespec
        #else
        status.st_mtim
        #endif
    }

    convenience init<C: Collection<UInt8>>(bytes: C) {
        self.init(count: bytes.count)
        _ = UnsafeMutableBufferPointer(start: base, count: count).initialize(from: bytes)
    }

    convenience init(_ text: String) {
        var text = text
        let utf8 = text.withUTF8 { Array($0) }
        self.init(bytes: utf8)
    }

    deinit {
        guard let mapped else { return base.deallocate() }
        ji_unmap_file(base, count)
        close(mapped.descriptor)
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }
}

/// A JSON syntax error: where it is (0-based byte offset, 1-based line and character column) and
/// what is wrong.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 0-based byte offset of the problem in the input.
    public let offset: Int
    /// 1-based line of the problem.
    public let line: Int
    /// 1-based column of the problem, in characters (each UTF-8 lead byte counts once).
    public let column: Int
    /// What is wrong, as simdjson describes it.
    public let message: String
    /// 0-based index of the record being read when a streamed document failed; `nil` when the
    /// error lies before the records or after them.
    var record: Int?

    init(input: JSONInput, offset: Int, message: String) {
        self.offset = offset
        self.message = message
        (self.line, self.column) = Self.lineAndColumn(of: offset, in: input.bytes)
    }

    /// Creates an error at a known position.
    ///
    /// - Parameters:
    ///   - offset: 0-based byte offset of the problem.
    ///   - line: 1-based line.
    ///   - column: 1-based column, in characters.
    ///   - message: what is wrong.
    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    /// 1-based line and column (in characters, counting each UTF-8 lead byte) of `offset`.
    ///
    /// Counted in C: an error at the end of a 100 MB document must not take seconds to place.
    static func lineAndColumn(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
        guard let base = bytes.baseAddress else { return (1, 1) }
        var line = 0
        var column = 0
        ji_line_column(base, bytes.count, min(max(offset, 0), bytes.count), &line, &column)
        return (line, column)
    }

    /// `invalid JSON at line L, column C (byte B): message`.
    public var description: String {
        "invalid JSON at line \(line), column \(column) (byte \(offset)): \(message)"
    }
}
