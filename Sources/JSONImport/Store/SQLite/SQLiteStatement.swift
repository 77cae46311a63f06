internal import CSQLite

/// A prepared statement, owned by its connection's cache and finalized with it.
final class SQLiteStatement {
    let raw: OpaquePointer
    let sql: String
    private unowned let connection: SQLiteConnection

    init(_ raw: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.raw = raw
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(raw) }

    /// Readies the statement to run again; callers bind every parameter before each run.
    func reset() {
        sqlite3_reset(raw)
    }

    /// Steps once: `true` when a row is available, `false` when done.
    @discardableResult
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(raw)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let message = String(cString: sqlite3_errmsg(connection.handle))
        sqlite3_reset(raw)
        throw connection.error(rc, message, sql: sql)
    }

    /// Binds `values` to parameters 1...n.
    func bind(_ values: [StoredValue]) throws(StoreError) {
        for (i, value) in values.enumerated() { bind(value, at: Int32(i + 1)) }
    }

    func bind(_ value: StoredValue, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(raw, index)
        case .integer(let v): sqlite3_bind_int64(raw, index, v)
        case .real(let v): sqlite3_bind_double(raw, index, v)
        case .text(let v): bind(v, at: index)
        }
    }

    func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(raw, index, value) }
    func bind(_ value: Double, at index: Int32) { sqlite3_bind_double(raw, index, value) }
    func bindNull(at index: Int32) { sqlite3_bind_null(raw, index) }

    func bind(_ value: String, at index: Int32) {
        var value = value
        value.withUTF8 { bind(utf8: $0, at: index) }
    }

    /// Binds UTF-8 bytes without copying them: they must stay valid until the statement has
    /// run (the parsed JSON document they point into outlives every statement of a record).
    func bind(borrowing bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            bind(utf8: bytes, at: index)
            return
        }
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            _ = sqlite3_bind_text(raw, index, $0, Int32(bytes.count), nil)
        }
    }

    /// Binds UTF-8 bytes; SQLite copies them.
    func bind(utf8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            // A NULL pointer would bind SQL NULL; an empty string needs a valid one.
            sqlite3_bind_text(raw, index, "", 0, csqlite_transient())
            return
        }
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            _ = sqlite3_bind_text(raw, index, $0, Int32(bytes.count), csqlite_transient())
        }
    }

    enum ColumnType { case null, integer, real, text, blob }

    func columnType(at column: Int) -> ColumnType {
        switch sqlite3_column_type(raw, Int32(column)) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        default: return .blob
        }
    }

    var columnCount: Int { Int(sqlite3_column_count(raw)) }

    func isNull(at column: Int) -> Bool { sqlite3_column_type(raw, Int32(column)) == SQLITE_NULL }
    func int64(at column: Int) -> Int64 { sqlite3_column_int64(raw, Int32(column)) }
    func double(at column: Int) -> Double { sqlite3_column_double(raw, Int32(column)) }

    /// The column's text bytes, valid until the next step or reset.
    func textBytes(at column: Int) -> UnsafeBufferPointer<UInt8> {
        let count = Int(sqlite3_column_bytes(raw, Int32(column)))
        let base = sqlite3_column_text(raw, Int32(column))
        return UnsafeBufferPointer(start: base, count: base == nil ? 0 : count)
    }

    func string(at column: Int) -> String { String(decoding: textBytes(at: column), as: UTF8.self) }

    func value(at column: Int) -> StoredValue {
        switch sqlite3_column_type(raw, Int32(column)) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(int64(at: column))
        case SQLITE_FLOAT: return .real(double(at: column))
        default: return .text(string(at: column))
        }
    }
}
