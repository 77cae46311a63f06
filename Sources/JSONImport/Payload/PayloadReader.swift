import Foundation

/// Reads a payload's root records: a JSON document (optionally under a root key path) or
/// JSON Lines read in chunks, so memory stays flat however long the file is.
struct PayloadReader {
    let source: ImportSource
    let format: PayloadFormat
    let root: JSONKeyPath?
    let parser: JSONParser
    /// The largest document read, in bytes (for JSON Lines, the longest line).
    let maxSize: Int
    /// A file holding what standard input held, read instead of it (an import that may read
    /// its payloads twice copies standard input first).
    var stdinCopy: String?
    /// A root key path the payload does not have reads no record instead of failing (a
    /// document's root list, SPEC 1.5).
    var allowsMissingRoot = false
    /// The file read already, whose bytes a document takes rather than reading it again.
    var readAhead: PayloadReadAhead?

    /// One root record and where it is.
    struct Record {
        let value: JSONValue
        let index: Int
        /// JSONPath of the record: `$[17]`, `$`, `$.data.items[17]`.
        let path: String
        /// 1-based line, for JSON Lines.
        let line: Int?
        /// Bytes of the payload before the record (for progress).
        let offset: Int
    }

    /// Calls `body` with each root record in payload order; `batch`, when given, with the
    /// records read together before `body` gets the first of them (a document's records parsed
    /// at once; one line of JSON Lines), and those read together next when they are read
    /// already (a document's; else empty).
    ///
    /// - Returns: `false` when the root key path is not in the payload and `allowsMissingRoot`
    ///   (no record was read), else `true`.
    @discardableResult
    func forEachRecord(batch: (([JSONValue], [JSONValue]) throws -> Void)? = nil, _ body: (Record) throws -> Void) throws -> Bool {
        switch format {
        case .json: return try readDocument(batch: batch, body)
        case .jsonl:
            try readLines(batch: batch, body)
            return true
        }
    }

    private func readDocument(batch: (([JSONValue], [JSONValue]) throws -> Void)?, _ body: (Record) throws -> Void) throws -> Bool {
        let (input, headStart) = try readAll()
        let path = root?.segments ?? []
        var prefix = "$"
        for segment in path { prefix = [PathComponent.key(segment)].rendered(after: prefix) }
        var index = 0
        let shape: JSONParser.RecordShape
        do {
            let records = batch.map { batch in
                { (values: [JSONValue], upcoming: [JSONValue], shape: JSONParser.RecordShape) throws in
                    let records = { (values: [JSONValue]) in shape == .elements ? values : values.filter { $0.kind == .object } }
                    try batch(records(values), records(upcoming))
                }
            }
            // A file read ahead was parsed ahead by a parser of its own (see ``PayloadReadAhead``).
            shape = try (headStart?.parser ?? parser).forEachRecord(
                in: input, at: path, headStart: headStart, batch: records
            ) { value, shape in
                if shape == .elements {
                    try body(Record(value: value, index: index, path: "\(prefix)[\(index)]", line: nil, offset: value.offset))
                    index += 1
                } else if value.kind == .object {
                    try body(Record(value: value, index: 0, path: prefix, line: nil, offset: value.offset))
                } else {
                    throw failure(.invalidRecord, "expected an object or an array of records at \(prefix), found \(value.summary)", path: prefix)
                }
            }
        } catch {
            try checkUnchanged(input)
            guard let error = error as? JSONSyntaxError else { throw error }
            throw syntaxFailure(error, record: error.record, offset: error.offset, line: error.line, "invalid JSON (byte \(error.offset))")
        }
        try checkUnchanged(input)
        if shape == .missing {
            if allowsMissingRoot { return false }
            throw failure(.invalidRecord, "the root key path '\(root!)' is not in the payload")
        }
        return true
    }

    /// Lines read together for a `batch` reader, each parsed by a parser of its own, so that
    /// every record of the batch stays valid until the last is imported: up to this many, and
    /// until they hold `bytesPerBatch`.
    static let linesPerBatch = 256
    static let bytesPerBatch = 1 << 20

    private func readLines(batch: (([JSONValue], [JSONValue]) throws -> Void)?, _ body: (Record) throws -> Void) throws {
        guard root == nil else { throw failure(.usage, "a root key path does not apply to JSON Lines", named: false) }
        let stream = try openStream()
        defer { stream.close() }
        var lines = LineChunker(handle: stream.handle, maxLength: maxSize)
        var index = 0
        var lineStart = 0
        // Without a batch reader, one parser and one line at a time.
        let capacity = batch == nil ? 1 : Self.linesPerBatch
        var parsers = [parser]
        var pending: [(document: JSONDocument, record: Record)] = []
        var pendingBytes = 0
        func importPending() throws {
            guard !pending.isEmpty else { return }
            try batch?(pending.map(\.document.root), [])
            for (_, record) in pending { try body(record) }
            pending.removeAll(keepingCapacity: true)
            pendingBytes = 0
        }
        while let (line, number) = try nextLine(&lines, record: index, importingFirst: importPending) {
            defer { lineStart = lines.bytesRead }
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { continue }
            if pending.count == capacity || pendingBytes >= Self.bytesPerBatch { try importPending() }
            if pending.count == parsers.count { parsers.append(JSONParser(maxDepth: parser.maxDepth)) }
            let input = JSONInput(bytes: line)
            let document: JSONDocument
            do {
                document = try parsers[pending.count].parse(input)
            } catch {
                // The lines before it are imported first, as they would be one at a time.
                try importPending()
                let offset = lineStart + error.offset
                throw syntaxFailure(
                    error, record: index, offset: offset, line: number,
                    "invalid JSON (byte \(offset), byte \(error.offset) of line \(number))")
            }
            pendingBytes += line.count
            pending.append((document, Record(value: document.root, index: index, path: "$", line: number, offset: lines.bytesRead)))
            index += 1
        }
        try importPending()
    }

    /// The next line of `lines`. A line past the size limit is the error of record `record`,
    /// the one it holds, after the lines before it are imported, as a line that is no JSON is.
    private func nextLine(
        _ lines: inout LineChunker, record: Int, importingFirst importPending: () throws -> Void
    ) throws -> (ArraySlice<UInt8>, Int)? {
        do {
            return try lines.next(source: source.name)
        } catch let error as ImportError where error.code == .tooLarge {
            try importPending()
            guard let issue = error.report.errors.first else { throw error }
            throw ImportError(
                code: error.code, message: error.message,
                issue: ImportIssue(file: issue.file, record: record, path: issue.path, message: issue.message, line: issue.line))
        }
    }

    /// The payload's bytes, and the parse a read ahead began of them.
    private func readAll() throws -> (JSONInput, JSONParser.HeadStart?) {
        switch source {
        case .data(let data, _):
            try checkSize(data.count)
            return (JSONInput(bytes: data), nil)
        case .file(let path):
            if let read = readAhead?.take(path) { return read }
            let stream = try openStream()
            defer { stream.close() }
            if path != "-" || stdinCopy != nil, fseeko(stream.handle, 0, SEEK_END) == 0 {
                let size = Int(ftello(stream.handle))
                try checkSize(size)
                rewind(stream.handle)
                guard let input = Self.read(stream.handle, size: size) else {
                    throw failure(.unreadableFile, "cannot read '\(path)'", named: false)
                }
                return (input, nil)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = fread(&chunk, 1, chunk.count, stream.handle)
                if n <= 0 { break }
                bytes += chunk[0..<n]
                try checkSize(bytes.count)
            }
            return (JSONInput(bytes: bytes), nil)
        }
    }

    /// Refuses what was read from a mapped file written to meanwhile (see
    /// ``JSONInput/fileChanged``): it may mix two versions of the file.
    private func checkUnchanged(_ input: JSONInput) throws(ImportError) {
        guard input.fileChanged else { return }
        throw failure(.unreadableFile, "cannot read '\(source.name)': the file changed while it was read", named: false)
    }

    /// Files from this size on (1 MB) are mapped rather than read (see
    /// ``JSONInput/init(mapping:size:)``).
    static let mappingSize = 1 << 20

    /// The `size` bytes of `handle`, positioned at their start: mapped from a regular file of
    /// ``mappingSize`` or more, read otherwise; `nil` when fewer can be read.
    static func read(_ handle: UnsafeMutablePointer<FILE>, size: Int) -> JSONInput? {
        if size >= mappingSize, let input = JSONInput(mapping: fileno(handle), size: size) { return input }
        let input = JSONInput(count: size)
        return fread(input.base, 1, size, handle) == size ? input : nil
    }

    /// An open stream and what closes it.
    private struct Stream {
        let handle: UnsafeMutablePointer<FILE>
        let close: () -> Void
    }

    private func openStream() throws -> Stream {
        switch source {
        case .file("-") where stdinCopy == nil:
            guard let handle = fdopen(0, "rb") else {
                throw failure(.unreadableFile, "cannot read standard input", named: false)
            }
            return Stream(handle: handle, close: {})
        case .file(let named):
            let path = named == "-" ? stdinCopy ?? named : named
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw failure(.unreadableFile, "cannot read '\(path)': it is a directory", named: false)
            }
            guard let handle = fopen(path, "rb") else {
                throw failure(.unreadableFile, "cannot read '\(path)': \(String(cString: strerror(errno)))", named: false)
            }
            return Stream(handle: handle, close: { fclose(handle) })
        case .data(let data, _):
            // JSON Lines from memory: a read-only stream over a copy of the bytes.
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
            data.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: data.count)
            guard let handle = fmemopen(copy, data.count, "rb") else {
                copy.deallocate()
                throw failure(.unreadableFile, "cannot read \(source.name)", named: false)
            }
            return Stream(handle: handle, close: {
                fclose(handle)
                copy.deallocate()
            })
        }
    }

    /// Refuses a document larger than ``maxSize`` before it is read whole.
    private func checkSize(_ size: Int) throws(ImportError) {
        guard size > maxSize else { return }
        throw failure(.tooLarge, "the payload is larger than the limit of \(maxSize) bytes (\(size) bytes or more)")
    }

    /// An error about the whole payload: its message starts with the file's name unless it
    /// already says which file (`named: false`); its report holds it at `path`, in no record.
    private func failure(_ code: ImportError.Code, _ message: String, path: String = "$", named: Bool = true) -> ImportError {
        ImportError(
            code: code, message: named ? "\(source.name): \(message)" : message,
            issue: ImportIssue(file: source.name, record: nil, path: path, message: message))
    }

    /// A syntax error, placed by `record` (the one being read, if any) and `offset` in the file.
    private func syntaxFailure(_ error: JSONSyntaxError, record: Int?, offset: Int, line: Int, _ what: String) -> ImportError {
        ImportError(
            code: .invalidJSON, message: "\(source.name):\(line):\(error.column): \(what): \(error.message)",
            issue: ImportIssue(
                file: source.name, record: record, path: "$", message: "invalid JSON: \(error.message)", line: line,
                column: error.column, offset: offset))
    }
}

/// Splits a stream into lines, reading it in fixed-size chunks.
struct LineChunker {
    let handle: UnsafeMutablePointer<FILE>
    /// The longest line accepted, in bytes; a longer one is refused before it is read whole.
    let maxLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var lineNumber = 0
    private var isAtEnd = false
    /// Bytes of the stream consumed so far, up to the end of the last line returned.
    private(set) var bytesRead = 0
    private static let chunkSize = 1 << 20

    init(handle: UnsafeMutablePointer<FILE>, maxLength: Int = .max) {
        self.handle = handle
        self.maxLength = maxLength
    }

    /// The next line (without its newline) and its 1-based number, or `nil` at the end. The
    /// line is a view of the chunker's buffer: it is not copied, and is valid until the next call.
    mutating func next(source: String) throws -> (ArraySlice<UInt8>, Int)? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                try checkLength(newline - start, source: source)
                let line = buffer[start..<newline]
                bytesRead += newline + 1 - start
                start = newline + 1
                lineNumber += 1
                return (line, lineNumber)
            }
            try checkLength(buffer.count - start, source: source)
            if isAtEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                bytesRead += buffer.count - start
                start = buffer.count
                lineNumber += 1
                return (line, lineNumber)
            }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
            let n = fread(&chunk, 1, Self.chunkSize, handle)
            if n > 0 { buffer += chunk[0..<n] }
            if n < Self.chunkSize {
                if ferror(handle) != 0 {
                    throw Self.failure(.unreadableFile, "cannot read '\(source)'", source: source)
                }
                isAtEnd = true
            }
        }
    }

    /// Refuses a line longer than ``maxLength`` (which may still be growing in the buffer).
    private func checkLength(_ length: Int, source: String) throws(ImportError) {
        guard length > maxLength else { return }
        throw Self.failure(
            .tooLarge, "\(source):\(lineNumber + 1): the line is longer than the limit of \(maxLength) bytes", source: source,
            record: nil, line: lineNumber + 1)
    }

    private static func failure(
        _ code: ImportError.Code, _ message: String, source: String, record: Int? = nil, line: Int? = nil
    ) -> ImportError {
        ImportError(code: code, message: message, issue: ImportIssue(file: source, record: record, path: "$", message: message, line: line))
    }
}
