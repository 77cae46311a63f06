internal import CLibPQ
import Foundation

/// One libpq connection to a PostgreSQL store, with a cache of prepared statements.
///
/// The store is one schema, the URL's `schema` parameter (`public` without one), which is the
/// connection's search path. Statements with parameters are prepared once per SQL text and run
/// with values and results in binary (see ``PostgresParameters`` and
/// ``PostgresResult/value(_:type:)`` for how stored values map to PostgreSQL types); bulk rows
/// go in with ``copy(into:columns:_:)`` and a batch of statements with ``pipeline(_:)``.
///
/// Not `Sendable`: one owner serializes access to it.
final class PostgresConnection {
    let handle: OpaquePointer
    /// The store's URL as messages show it: without its password.
    let name: String
    /// The schema that holds the store.
    let schema: String
    private var statements: [String: PreparedStatement] = [:]
    private var preparedCount = 0
    /// When set, the text of every statement sent from then on, each prepared statement once
    /// (one planned at each run, each time):
    /// what the tests of distributed entities read (SPEC 6).
    var statementLog: [String]?
    /// The store's tables still lacking their indexes, as this connection knows them.
    var deferred = PostgresDeferredIndexes()
    /// Rows copied into tables without indexes, not sent yet.
    var held = PostgresHeldCopies()

    /// A statement prepared on the server, named there, with the parameter types it inferred.
    struct PreparedStatement {
        let name: String
        let parameterTypes: [UInt32]
    }

    /// The oldest server the store supports, as `PQserverVersion` spells it.
    static let minimumServerVersion: Int32 = 150_000

    /// Connects to the server of a `postgres://` or `postgresql://` URL, as libpq does (its
    /// parameters, `PGPASSWORD`, `PGSSLMODE`, `.pgpass` and the rest of its environment
    /// apply), with TCP keepalives and a connect timeout unless the URL or the environment
    /// sets them, and sets the search path to the store's schema (which need not exist yet).
    ///
    /// - Throws: ``StoreError`` `cannotOpen`, naming the store (its URL without the password)
    ///   and libpq's reason, for a malformed URL, an unreachable server, a failed
    ///   authentication or a server older than PostgreSQL 15.
    init(url: String) throws(StoreError) {
        let location = try PostgresURL(url)
        let parameters = Self.connectionParameters(location.connectionString, environment: ProcessInfo.processInfo.environment)
        let connection = Self.connect(parameters)
        func refused(_ reason: String) -> StoreError {
            PQfinish(connection)
            return StoreError(.cannotOpen, "cannot open store '\(location.displayName)': \(reason)")
        }
        guard let connection else { throw refused("out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw refused(Self.oneLine(String(cString: PQerrorMessage(connection))))
        }
        guard PQserverVersion(connection) >= Self.minimumServerVersion else {
            let version = PQparameterStatus(connection, "server_version").map { String(cString: $0) } ?? "?"
            throw refused("the server runs PostgreSQL \(version); the store needs 15 or later")
        }
        // Notices (`schema … does not exist, skipping`) are not the store's output.
        PQsetNoticeReceiver(connection, { _, _ in }, nil)
        self.handle = connection
        self.name = location.displayName
        self.schema = location.schema
        do {
            try execute("SET search_path TO \(quote(schema))")
        } catch {
            throw error.during("opening")
        }
    }

    deinit { PQfinish(handle) }

    /// The parameters libpq connects with, in the order it reads them, later ones winning:
    /// the store's defaults, then the URL's own parameters, then what the store cannot do
    /// without (UTF-8). A parameter none of them sets comes from libpq's environment.
    static func connectionParameters(_ connectionString: String, environment: [String: String]) -> [(String, String)] {
        var parameters = [
            ("fallback_application_name", "jsonimport"),
            // A server that vanished (its host down, the network cut) is noticed within about a
            // minute, so a statement waiting on it fails and a writer's lock comes free.
            ("keepalives", "1"), ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "60000"),
        ]
        if environment["PGCONNECT_TIMEOUT"] == nil { parameters.append(("connect_timeout", "10")) }
        parameters.append(("dbname", connectionString))
        parameters.append(("client_encoding", "UTF8"))
        return parameters
    }

    private static func connect(_ parameters: [(String, String)]) -> OpaquePointer? {
        let keywords = parameters.map { strdup($0.0) } + [nil]
        let values = parameters.map { strdup($0.1) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        return keywords.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { keywords in
            values.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { values in
                PQconnectdbParams(keywords.baseAddress, values.baseAddress, 1)
            }
        }
    }

    /// libpq's message on one line: each line that states a failure (one per host tried),
    /// without the indented hints that follow them.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline)
            .filter { !($0.first?.isWhitespace ?? true) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: "; ")
    }

    /// The value libpq connected with for `keyword` (`application_name`, `keepalives_idle`):
    /// the URL's, else the environment's, else the store's default; `nil` when none sets it.
    func connectionParameter(_ keyword: String) -> String? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let key = option.pointee.keyword {
            if String(cString: key) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// Whether the connection to the server still stands; once lost, every call fails.
    var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction is open (failed or not).
    var isInTransaction: Bool { [PQTRANS_INTRANS, PQTRANS_INERROR].contains(PQtransactionStatus(handle)) }

    /// Whether the open transaction has failed: every statement fails until it is rolled
    /// back, or back to a savepoint taken before the failure.
    var isInFailedTransaction: Bool { PQtransactionStatus(handle) == PQTRANS_INERROR }

    /// Runs one or more statements that take no parameters (DDL, `SET`, several statements
    /// separated by semicolons) in one round trip, with the simple query protocol. Not for
    /// `COPY` (see ``copy(into:columns:_:)``).
    func execute(_ sql: String) throws(StoreError) {
        try willRun(sql)
        statementLog?.append(sql)
        _ = try check(PQexec(handle, sql), sql: sql)
    }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, … and returns the number of
    /// rows it inserted, updated, deleted or returned.
    @discardableResult
    func run(_ sql: String, _ parameters: [StoredValue] = []) throws(StoreError) -> Int {
        try result(sql, parameters).rowsAffected
    }

    /// Runs one statement with `parameters` bound and returns every row.
    func rows(_ sql: String, _ parameters: [StoredValue] = []) throws(StoreError) -> [[StoredValue]] {
        try result(sql, parameters).rows(sql: sql)
    }

    /// Runs one statement with `parameters` bound and returns its result, its rows left for
    /// the caller to decode.
    func result(_ sql: String, _ parameters: [StoredValue] = []) throws(StoreError) -> PostgresResult {
        try willRun(sql)
        let statement = try prepared(sql)
        let values = PostgresParameters(parameters, types: statement.parameterTypes)
        let raw = values.withArrays {
            PQexecPrepared(handle, statement.name, Int32(values.count), $0, $1, $2, 1)
        }
        return try check(raw, sql: sql)
    }

    /// The prepared statement for `sql`, from the cache when it was prepared before. The server
    /// infers the type of each parameter; prepared statements outlive transactions, rolled
    /// back or not.
    func prepared(_ sql: String) throws(StoreError) -> PreparedStatement {
        if let cached = statements[sql] { return cached }
        statementLog?.append(sql)
        preparedCount += 1
        let name = "jsonimport_\(preparedCount)"
        _ = try check(PQprepare(handle, name, sql, 0, nil), sql: sql)
        let description = try check(PQdescribePrepared(handle, name), sql: sql)
        let types = (0..<PQnparams(description.raw)).map { PQparamtype(description.raw, $0) }
        let statement = PreparedStatement(name: name, parameterTypes: types)
        statements[sql] = statement
        return statement
    }

    /// `raw` as a result when the statement succeeded; its error otherwise.
    func check(_ raw: OpaquePointer?, sql: String?) throws(StoreError) -> PostgresResult {
        guard let raw else { throw error(nil, sql: sql) }
        return try check(PostgresResult(raw), sql: sql)
    }

    /// `result` when its statement succeeded; its error otherwise.
    func check(_ result: PostgresResult, sql: String?) throws(StoreError) -> PostgresResult {
        guard result.isSuccess else { throw error(result, sql: sql) }
        return result
    }

    /// The typed error of a failed statement (`result`), or of the connection when there is no
    /// result. A lost connection is `cannotOpen`, whatever the server said before it went.
    func error(_ result: PostgresResult?, sql: String?) -> StoreError {
        let message = Self.oneLine(result?.errorMessage ?? String(cString: PQerrorMessage(handle)))
        if !isConnected {
            return StoreError(.cannotOpen, "store '\(name)': connection lost: \(message)", sql: sql)
        }
        guard let state = result?.sqlState else { return StoreError(.postgres, message, sql: sql) }
        let code = StoreError.Code(sqlState: state)
        switch code {
        case .full: return .cannotWrite(.full, store: name, sql: sql)
        case .cannotOpen: return StoreError(code, "store '\(name)': \(message)", sql: sql)
        default: return StoreError(code, message, sql: sql)
        }
    }
}
