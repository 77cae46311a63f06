internal import CSQLite
import Foundation

/// One SQLite connection with a cache of prepared statements.
///
/// Not `Sendable`: one owner serializes access to it.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    /// The store's path as messages show it (the path of the file it will become, for a store
    /// built under a temporary name).
    let name: String
    /// Opened for writing, the file turned out read-only (SQLite then opens it for reading).
    let isReadOnly: Bool
    /// Seconds a statement waits for another connection's lock.
    private let busyTimeout: Double
    private var cache: [String: SQLiteStatement] = [:]
    /// Savepoints open inside the transaction (see ``transaction(_:deciding:)``).
    var savepointDepth = 0

    /// Opens (and with `create`, creates) the database at `path` (`:memory:` for a private one),
    /// with foreign keys and a busy timeout; `readOnly` opens an existing file for reading.
    ///
    /// Opening changes nothing in the file; ``enableWAL(waitingUpTo:)`` is the first write.
    init(path: String, name: String? = nil, create: Bool, busyTimeout: Double, readOnly: Bool = false) throws(StoreError) {
        _ = Self.configureOnce
        let name = name ?? path
        var db: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let flags = access | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let systemError = db.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(db)
            throw Self.error(rc, systemError: systemError, message, path: path, store: name, isReadOnly: false, sql: nil)
                ?? StoreError(.cannotOpen, "cannot open store '\(name)': \(message)")
        }
        self.handle = db
        self.path = path
        self.name = name
        self.isReadOnly = !readOnly && sqlite3_db_readonly(db, "main") == 1
        self.busyTimeout = busyTimeout
        sqlite3_extended_result_codes(db, 1)
        try registerDecimalCollation()
        sqlite3_busy_timeout(db, Int32(min(busyTimeout * 1000, Double(Int32.max))))
        do throws(StoreError) {
            try execute("PRAGMA foreign_keys = ON")
            // An import is one transaction however large: dirty pages beyond 500 spill to the WAL
            // rather than growing the cache past its 8 MB.
            try execute("PRAGMA cache_size = -\(Self.pageCacheKB)")
            try execute("PRAGMA cache_spill = 500")
        } catch {
            throw error.during("opening")
        }
    }

    /// Switches a file store to WAL, the journal every writer of a store uses. Switching takes
    /// an exclusive lock and SQLite's busy handler does not wait for it, so processes opening a
    /// new store at the same moment retry here, up to the busy timeout, instead of failing with
    /// "database is locked".
    func enableWAL(waitingUpTo timeout: Double) throws(StoreError) {
        guard path != ":memory:" else { return }
        var waited = 0.0
        while true {
            do {
                try execute("PRAGMA journal_mode = WAL")
                break
            } catch where error.code == .busy && waited < timeout {
                usleep(10_000)
                waited += 0.01
            }
        }
        try execute("PRAGMA synchronous = NORMAL")
    }

    /// The page cache's size in KB.
    static let pageCacheKB = 8192

    /// Runs `body` with a 1 MB page cache. SQLite sorts in memory up to the page cache's size
    /// (building an index sorts its table's rows), so a large sort would otherwise add its full
    /// size to the peak memory of an import.
    func withSmallPageCache(_ body: () throws(StoreError) -> Void) throws(StoreError) {
        try execute("PRAGMA cache_size = -1024")
        defer { try? execute("PRAGMA cache_size = -\(Self.pageCacheKB)") }
        try body()
    }

    /// Whether `table` (quoted) has no rows.
    func isEmpty(table: String) throws(StoreError) -> Bool {
        try rows("SELECT EXISTS (SELECT 1 FROM \(table))").first?.first == .integer(0)
    }

    /// Process-wide settings, applied before the first connection opens.
    private static let configureOnce: Void = { _ = csqlite_disable_memory_statistics() }()

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters.
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw error(rc, text, sql: sql)
        }
    }

    /// The prepared statement for `sql`, from the cache when it was prepared before.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let cached = cache[sql] {
            cached.reset()
            return cached
        }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// A new prepared statement for `sql`, not cached here: the caller keeps it.
    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else {
            throw error(rc, String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        return SQLiteStatement(raw, connection: self, sql: sql)
    }

    /// Runs `sql` with `values` bound and returns every row.
    func rows(_ sql: String, _ values: [StoredValue] = []) throws(StoreError) -> [[StoredValue]] {
        let statement = try self.statement(sql)
        try statement.bind(values)
        var result: [[StoredValue]] = []
        while try statement.step() {
            result.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return result
    }

    /// Writes the whole write-ahead log back into the store file and empties it; `false` when
    /// a reader or writer still uses it.
    func checkpointEmptyingWAL() throws(StoreError) -> Bool {
        try rows("PRAGMA wal_checkpoint(TRUNCATE)").first?.first == .integer(0)
    }

    /// SQLite's `data_version`: changes when another connection commits.
    func dataVersion() throws(StoreError) -> Int64 {
        guard case .integer(let version) = try rows("PRAGMA data_version").first?.first else { return 0 }
        return version
    }

    /// Runs `sql` with `values` bound, ignoring any rows.
    func run(_ sql: String, _ values: [StoredValue] = []) throws(StoreError) {
        let statement = try self.statement(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }
    /// Rows changed by every statement since the connection opened.
    var totalChanges: Int { Int(sqlite3_total_changes(handle)) }
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Turns a result code into a typed error.
    func error(_ rc: Int32, _ message: String, sql: String?) -> StoreError {
        if let fault = Self.error(
            rc, systemError: sqlite3_system_errno(handle), message, path: path, store: name, isReadOnly: isReadOnly,
            sql: sql)
        {
            return fault
        }
        if rc & 0xFF == SQLITE_BUSY { return .busy(store: name, timeout: busyTimeout, sql: sql) }
        let code: StoreError.Code
        switch rc & 0xFF {
        case SQLITE_LOCKED: code = .busy
        case SQLITE_CORRUPT, SQLITE_NOTADB: code = .corrupt
        case SQLITE_CONSTRAINT: code = .constraint
        case SQLITE_CANTOPEN: code = .cannotOpen
        default: code = .other
        }
        return StoreError(code, message, sql: sql)
    }

    /// Whether a file of the store at `path` has reached the process's file-size limit
    /// (`ulimit -f`). SQLite does not always keep the `EFBIG` of the write that failed (a
    /// commit's rollback makes other calls), but the write it made up to the limit shows.
    private static func hasReachedFileSizeLimit(_ path: String) -> Bool {
        var limit = rlimit()
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        #else
            let resource = RLIMIT_FSIZE
        #endif
        // RLIM_INFINITY is the largest value on Linux, 2^63 - 1 on Darwin.
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int64.max) else { return false }
        return ["", "-wal", "-journal"].contains { suffix in
            var info = stat()
            return stat(path + suffix, &info) == 0 && rlim_t(info.st_size) >= limit.rlim_cur
        }
    }

    /// The error for a store file that cannot be written, named by its cause (the disk is full,
    /// the file-size limit is reached, the file or its folder is read-only, the device fails);
    /// `nil` for any other failure. `systemError` is the `errno` SQLite last saw.
    private static func error(
        _ rc: Int32, systemError: Int32, _ message: String, path: String, store: String, isReadOnly: Bool, sql: String?
    ) -> StoreError? {
        let primary = rc & 0xFF
        let isFileError = primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN
        if primary == SQLITE_FULL || (isFileError && (systemError == ENOSPC || systemError == EDQUOT)) {
            return .cannotWrite(.full, store: store, sql: sql)
        }
        if isFileError && (systemError == EFBIG || hasReachedFileSizeLimit(path)) {
            return .cannotWrite(.fileTooLarge, store: store, sql: sql)
        }
        if primary == SQLITE_READONLY || (isFileError && (systemError == EROFS || isReadOnly)) {
            return .cannotWrite(.readOnly, store: store, sql: sql)
        }
        guard primary == SQLITE_IOERR else { return nil }
        let cause = systemError == 0 ? "" : ": " + String(cString: strerror(systemError))
        return StoreError(.ioError, "store '\(store)': \(message)\(cause)", sql: sql)
    }
}
