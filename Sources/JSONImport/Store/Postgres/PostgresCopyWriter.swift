/// The type of a column of a binary `COPY`. It must be the column's type in the table: the
/// server reads each field in its column's binary format.
enum PostgresColumnType: String, Sendable {
    case int8, float8, bool, text, timestamptz, uuid
}

/// A column of a binary `COPY`: its name in the table and its type.
struct PostgresCopyColumn: Sendable, Hashable {
    var name: String
    var type: PostgresColumnType

    init(_ name: String, _ type: PostgresColumnType) {
        self.name = name
        self.type = type
    }
}

/// Rows on their way into a table through ``PostgresConnection/copy(into:columns:_:)``,
/// encoded in PostgreSQL's binary `COPY` format and sent a chunk at a time as they fill.
///
/// The format: the 11-byte signature `PGCOPY\n\377\r\n\0`, an int32 of flags and an int32
/// header-extension length (both 0), then per row an int16 field count and per field an
/// int32 byte length (-1 for NULL) and the bytes, all integers big-endian; an int16 -1 ends
/// it.
///
/// Values take the forms of ``StoredValue``: `int8` takes `.integer`; `float8` `.real` or
/// `.integer`; `bool` `.integer` (0 is false); `text` `.text`; `timestamptz` `.real` (or
/// `.integer`) seconds since 1970, rounded to the microsecond; `uuid` `.text` of 32 hex digits,
/// with or without its dashes; any column `.null`.
struct PostgresCopyWriter {
    let columns: [PostgresCopyColumn]
    /// The table, as messages name it.
    let table: String
    /// Rows appended so far.
    private(set) var rowCount = 0
    /// Whether sending a chunk failed: the server's answer to the `COPY` then says why.
    private(set) var hasFailedToSend = false
    /// Where chunks are sent; `nil` when the rows are held (see ``PostgresHeldCopies``).
    private let connection: PostgresConnection?
    /// The bytes not sent yet: the first `used` of `buffer`, whose length is its capacity
    /// (fields are written into it in place rather than appended).
    private var buffer: [UInt8]
    private var used = 0
    /// Where the last whole row ends in `buffer`.
    private var rowEnd = 0
    /// The column the next field goes in.
    private var column = 0

    /// Bytes gathered before they are sent.
    static let chunkSize = 1 << 16

    /// What the data starts with: the signature, then no flags and no header extension.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// What ends the data: a field count of -1.
    static let trailer: [UInt8] = [0xFF, 0xFF]

    /// A writer sending its rows on `connection`, whose `COPY` is in progress.
    init(connection: PostgresConnection, table: String, columns: [PostgresCopyColumn]) {
        self.connection = connection
        self.table = table
        self.columns = columns
        buffer = Array(repeating: 0, count: Self.chunkSize + 4096)
        put(Self.header)
    }

    /// A writer holding its rows, after the `used` bytes of `bytes` (rows held before), for
    /// ``takeHeld()``: fields only, without the data's header and trailer.
    init(holdingFor table: String, columns: [PostgresCopyColumn], bytes: [UInt8], used: Int) {
        connection = nil
        self.table = table
        self.columns = columns
        buffer = bytes.isEmpty ? Array(repeating: 0, count: Self.chunkSize + 4096) : bytes
        self.used = used
        rowEnd = used
    }

    /// The bytes a holding writer holds, rows before it included, the first `used` of them;
    /// the writer is left empty. Ends with the last whole row: the fields of a row cut short
    /// by an error are not among them.
    mutating func takeHeld() -> (bytes: [UInt8], used: Int) {
        precondition(connection == nil, "rows taken from a writer that sends them")
        defer { (buffer, used, column) = ([], 0, 0) }
        return (buffer, rowEnd)
    }

    /// Appends a whole row, one value per column.
    mutating func appendRow(_ values: [StoredValue]) throws(StoreError) {
        precondition(column == 0, "a row appended in the middle of another one")
        precondition(values.count == columns.count, "\(values.count) values for \(columns.count) columns of \(table)")
        for value in values { try append(value) }
    }

    /// Appends the next field of the current row (a row ends after its last column's field).
    ///
    /// - Throws: ``StoreError`` `other` when the value cannot go in the column's type (the
    ///   field is not written), or the connection's error when a chunk cannot be sent.
    mutating func append(_ value: StoredValue) throws(StoreError) {
        let type = columns[column].type
        switch (value, type) {
        case (.null, _):
            startField()
            put(bigEndian: Int32(-1))
        case (.integer(let v), .int8): field(v)
        case (.integer(let v), .float8): field(Double(v).bitPattern)
        case (.real(let v), .float8): field(v.bitPattern)
        case (.integer(let v), .bool): field(UInt8(v == 0 ? 0 : 1))
        case (.integer(let v), .timestamptz): try date(Double(v))
        case (.real(let v), .timestamptz): try date(v)
        case (.text(let v), .text):
            startField()
            var text = v
            text.withUTF8 { bytes in
                put(bigEndian: Int32(bytes.count))
                put(UnsafeRawBufferPointer(bytes))
            }
        case (.text(let v), .uuid):
            guard let bytes = PostgresUUID.bytes(v) else { throw refusal("text that is not a UUID") }
            startField()
            put(bigEndian: Int32(16))
            put(bytes)
        case (.integer, _): throw refusal("an integer")
        case (.real, _): throw refusal("a number")
        case (.text, _): throw refusal("text")
        }
        try endField()
    }

    /// Appends UTF-8 bytes as the next field, which must be of a `text` column.
    mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(StoreError) {
        guard columns[column].type == .text else { throw refusal("text") }
        startField()
        put(bigEndian: Int32(bytes.count))
        put(UnsafeRawBufferPointer(bytes))
        try endField()
    }

    private mutating func date(_ seconds: Double) throws(StoreError) {
        guard let microseconds = PostgresTimestamp.microseconds(fromSeconds: seconds) else {
            throw refusal("a date out of range")
        }
        field(microseconds)
    }

    private mutating func field<T: FixedWidthInteger>(_ value: T) {
        startField()
        put(bigEndian: Int32(MemoryLayout<T>.size))
        put(bigEndian: value)
    }

    private mutating func startField() {
        if column == 0 { put(bigEndian: Int16(columns.count)) }
    }

    /// Makes room for `count` more bytes after the `used` ones.
    private mutating func reserve(_ count: Int) {
        guard used + count > buffer.count else { return }
        buffer.append(contentsOf: repeatElement(0, count: max(count, buffer.count)))
    }

    private mutating func put<T: FixedWidthInteger>(bigEndian value: T) {
        reserve(MemoryLayout<T>.size)
        let offset = used
        buffer.withUnsafeMutableBytes { $0.storeBytes(of: value.bigEndian, toByteOffset: offset, as: T.self) }
        used += MemoryLayout<T>.size
    }

    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        let offset = used
        buffer.withUnsafeMutableBytes { UnsafeMutableRawBufferPointer(rebasing: $0[offset..<(offset + bytes.count)]).copyMemory(from: bytes) }
        used += bytes.count
    }

    private mutating func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { put($0) }
    }

    private mutating func endField() throws(StoreError) {
        column += 1
        guard column == columns.count else { return }
        column = 0
        rowCount += 1
        rowEnd = used
        if connection != nil, used >= Self.chunkSize { try send() }
    }

    private func refusal(_ what: String) -> StoreError {
        let target = columns[column]
        return StoreError(.other, "cannot copy \(what) into column '\(target.name)' (\(target.type.rawValue)) of \(table)")
    }

    /// Ends the data and sends what is left.
    mutating func finish() throws(StoreError) {
        precondition(column == 0, "the last row of the copy into \(table) has \(column) of \(columns.count) fields")
        put(Self.trailer)
        try send()
    }

    private mutating func send() throws(StoreError) {
        guard let connection else { preconditionFailure("rows sent by a writer that holds them") }
        let count = used
        used = 0
        rowEnd = 0
        do {
            try connection.putCopyData(buffer, count: count)
        } catch {
            hasFailedToSend = true
            throw error
        }
    }
}
