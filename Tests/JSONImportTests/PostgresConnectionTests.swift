import Dispatch
import Foundation
import Synchronization
import Testing

@testable import JSONImport

extension Tag {
    /// Tests against the PostgreSQL server in `JSONIMPORT_TEST_POSTGRES`.
    @Tag static var postgres: Self
}

/// The PostgreSQL server of the tests: `JSONIMPORT_TEST_POSTGRES`, which `Scripts/test.sh` sets
/// to a throwaway cluster unless it names a server already.
enum TestPostgres {
    static let url = ProcessInfo.processInfo.environment["JSONIMPORT_TEST_POSTGRES"]

    /// `url` with one more query parameter.
    static func url(_ base: String, adding parameter: String) -> String {
        base + (base.contains("?") ? "&" : "?") + parameter
    }

    /// Runs `body` with a schema of its own, made for it and dropped after it, and the server's
    /// URL naming that schema.
    static func withSchema(_ body: (_ url: String, _ schema: String) throws -> Void) throws {
        let base = try #require(url)
        let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try PostgresConnection(url: base)
        try admin.execute("CREATE SCHEMA \(quote(schema))")
        defer { try? admin.execute("DROP SCHEMA \(quote(schema)) CASCADE") }
        try body(Self.url(base, adding: "schema=\(schema)"), schema)
    }
}

@Suite(
    .tags(.postgres),
    .enabled(
        if: TestPostgres.url != nil,
        "JSONIMPORT_TEST_POSTGRES names no PostgreSQL server (bash Scripts/test.sh starts a throwaway one)"))
struct PostgresConnectionTests {
    // MARK: URLs

    @Test func theSchemaParameterIsTheSearchPathAndNeverReachesLibpq() throws {
        try TestPostgres.withSchema { url, schema in
            let connection = try PostgresConnection(url: url)
            #expect(connection.schema == schema)
            #expect(connection.name == url)
            try connection.execute("CREATE TABLE t (id int8)")
            #expect(try connection.rows("SELECT current_schema()") == [[.text(schema)]])
            let tables = try connection.rows("SELECT tablename::text FROM pg_tables WHERE schemaname = $1", [.text(schema)])
            #expect(tables == [[.text("t")]])
            let unnamed = try PostgresConnection(url: try #require(TestPostgres.url))
            #expect(unnamed.schema == "public")
        }
    }

    @Test func thePostgresqlSpellingOfTheSchemeConnectsToo() throws {
        try TestPostgres.withSchema { url, schema in
            let spelled = "postgresql://" + url.dropFirst("postgres://".count)
            #expect(url.hasPrefix("postgres://"))
            let connection = try PostgresConnection(url: spelled)
            #expect(try connection.rows("SELECT current_schema()") == [[.text(schema)]])
        }
    }

    @Test func theURLsOtherParametersApplyAndTheStoresDefaultsFillTheRest() throws {
        try TestPostgres.withSchema { url, _ in
            let plain = try PostgresConnection(url: url)
            #expect(try plain.rows("SELECT current_setting('application_name')") == [[.text("jsonimport")]])
            #expect(plain.connectionParameter("keepalives_idle") == "30")
            let tuned = try PostgresConnection(
                url: TestPostgres.url(url, adding: "application_name=nightly&options=-cwork_mem%3D7MB&keepalives_idle=5"))
            #expect(try tuned.rows("SELECT current_setting('application_name')") == [[.text("nightly")]])
            #expect(try tuned.rows("SELECT current_setting('work_mem')") == [[.text("7MB")]])
            #expect(tuned.connectionParameter("keepalives_idle") == "5")
            #expect(tuned.connectionParameter("client_encoding") == "UTF8")
        }
    }

    @Test func anUnreachableServerCannotOpenTheStoreAndTheMessageHidesThePassword() throws {
        let url = "postgres://reader:s3cret@/db?host=/nonexistent-socket-dir&port=5999&password=other&schema=cache"
        let error = try #require(throws: StoreError.self) { try PostgresConnection(url: url) }
        #expect(error.code == .cannotOpen)
        #expect(error.sql == nil)
        #expect(
            error.description
                == #"cannot open store 'postgres://reader@/db?host=/nonexistent-socket-dir&port=5999&schema=cache': "#
                + #"connection to server on socket "/nonexistent-socket-dir/.s.PGSQL.5999" failed: No such file or directory"#)
        let refused = try #require(throws: StoreError.self) { try PostgresConnection(url: "postgres://127.0.0.1:1/db") }
        #expect(refused.code == .cannotOpen)
        #expect(
            refused.description
                == #"cannot open store 'postgres://127.0.0.1:1/db': "#
                + #"connection to server at "127.0.0.1", port 1 failed: Connection refused"#)
    }

    @Test func aBadURLOrAFailedAuthenticationCannotOpenTheStore() throws {
        let base = try #require(TestPostgres.url)
        // Each URL, as messages show it, and libpq's or the store's reason.
        let cases = [
            ("mysql://localhost/db", "mysql://localhost/db", "not a postgres:// or postgresql:// URL"),
            ("postgres://localhost:port/db", "postgres://localhost:port/db", #"invalid integer value "port" for connection option "port""#),
            ("postgres://localhost/db?colour=red", "postgres://localhost/db?colour=red", #"invalid URI query parameter: "colour""#),
            ("postgres://localhost/db?schema=", "postgres://localhost/db?schema=", "the schema parameter names no schema"),
            ("postgres://localhost/db?schema=%zz", "postgres://localhost/db?schema=%zz", "the schema parameter is not percent-encoded correctly"),
            // libpq would read `pa` as the port and say so.
            (
                "postgres://me:pa/ss@localhost/db", "postgres://me@localhost/db",
                "a '/' or '@' in the user name or password must be percent-encoded (%2F, %40)"
            ),
        ]
        for (url, shown, reason) in cases {
            let error = try #require(throws: StoreError.self) { try PostgresConnection(url: url) }
            #expect(error.code == .cannotOpen, "\(url)")
            #expect(error.description == "cannot open store '\(shown)': \(reason)")
        }
        let stranger = TestPostgres.url(base, adding: "user=nobody_here")
        let error = try #require(throws: StoreError.self) { try PostgresConnection(url: stranger) }
        #expect(error.code == .cannotOpen)
        #expect(error.description.hasPrefix("cannot open store '\(stranger)': connection to server "), "\(error)")
        #expect(error.description.contains(#""nobody_here""#), "\(error)")
    }

    // MARK: Values

    /// Dates are seconds since 1970 on the store's side; these are microseconds apart around
    /// 1970 and 2000 (PostgreSQL's epoch), and in 2024.
    static let dates: [(microseconds: Int64, text: String)] = [
        (-1, "1969-12-31 23:59:59.999999+00"),
        (946_684_799_999_999, "1999-12-31 23:59:59.999999+00"),
        (946_684_800_000_000, "2000-01-01 00:00:00+00"),
        (946_684_800_000_001, "2000-01-01 00:00:00.000001+00"),
        (1_716_192_000_123_456, "2024-05-20 08:00:00.123456+00"),
        (-2_208_988_800_000_000, "1900-01-01 00:00:00+00"),
    ]

    static func seconds(_ microseconds: Int64) -> StoredValue { .real(Double(microseconds) / 1_000_000) }

    static let valueTable = """
        CREATE TABLE v (n int8, x float8, b bool, s text COLLATE "C", at timestamptz, u uuid, blob bytea, small int4)
        """

    /// Rows of every type, with NULLs, empty text, non-ASCII text, negative numbers and the
    /// extremes of Int64.
    static let valueRows: [[StoredValue]] = [
        [
            .integer(.max), .real(1.5), .integer(1), .text("plain"), seconds(dates[0].microseconds),
            .text("00000000-0000-0000-0000-000000000000"), .text("\\x00ff41"), .integer(7),
        ],
        [
            .integer(.min), .real(-0.000_001), .integer(0), .text(""), seconds(dates[1].microseconds),
            .text("123e4567-e89b-12d3-a456-426614174000"), .text("\\x"), .integer(-7),
        ],
        [
            .integer(-42), .real(-1e300), .integer(1), .text("é€ 😀 \u{1F}"), seconds(dates[2].microseconds),
            .text("ffffffff-ffff-ffff-ffff-ffffffffffff"), .null, .integer(Int64(Int32.min)),
        ],
        [
            .integer(0), .real(.infinity), .integer(0), .text("line\nbreak\ttab 'quote' \"double\""),
            seconds(dates[3].microseconds), .null, .null, .null,
        ],
        [.null, .null, .null, .null, .null, .null, .null, .null],
        [
            .integer(1), .real(0.1), .integer(1), .text("x"), seconds(dates[4].microseconds),
            .text("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), .null, .null,
        ],
        [.integer(2), .real(-.infinity), .integer(0), .text("y"), seconds(dates[5].microseconds), .null, .null, .null],
    ]

    @Test func everyValueTypeRoundTripsThroughParametersExactly() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute(Self.valueTable)
            for (index, row) in Self.valueRows.enumerated() {
                #expect(try connection.run("INSERT INTO v VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", row) == 1, "row \(index)")
            }
            let read = try connection.rows("SELECT * FROM v")
            #expect(read == Self.valueRows)
            // The server holds the dates to the microsecond.
            try connection.execute("SET TimeZone = 'UTC'")
            let texts = try connection.rows("SELECT at::text FROM v WHERE at IS NOT NULL ORDER BY at")
            #expect(texts == Self.dates.sorted { $0.microseconds < $1.microseconds }.map { [.text($0.text)] })
            // A read value goes back in unchanged.
            for row in read where row[4] != .null {
                #expect(try connection.rows("SELECT count(*) FROM v WHERE at = $1", [row[4]]) == [[.integer(1)]])
            }
        }
    }

    @Test func aValueOfAnotherTypeGoesAsTextForTheServerToConvertOrRefuse() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE t (n int8, d numeric, at timestamptz)")
            try connection.run("INSERT INTO t VALUES ($1, $2, $3)", [.text("42"), .text("12.50"), .text("2000-01-01T00:00:00.5Z")])
            #expect(try connection.rows("SELECT n, d, at FROM t") == [[.integer(42), .text("12.50"), .real(946_684_800.5)]])
            #expect(try connection.rows("SELECT count(*) FROM t WHERE n = ANY($1::int8[])", [.text("{1,42}")]) == [[.integer(1)]])
            let numbers = try connection.rows(
                "SELECT -0.001::numeric, 123456789.0001::numeric, 0::numeric, 1e20::numeric, 'NaN'::numeric")
            #expect(
                numbers == [[.text("-0.001"), .text("123456789.0001"), .text("0"), .text("100000000000000000000"), .text("NaN")]])
            let error = try #require(throws: StoreError.self) { try connection.run("INSERT INTO t (n) VALUES ($1)", [.text("many")]) }
            #expect(error.code == .postgres)
            #expect(error.description == #"invalid input syntax for type bigint: "many" (while inserting into t)"#)
        }
    }

    @Test func everyValueTypeRoundTripsThroughBinaryCopy() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute(
                #"CREATE TEMPORARY TABLE staged (n int8, x float8, b bool, s text COLLATE "C", at timestamptz, u uuid)"#)
            let columns: [PostgresCopyColumn] = [
                .init("n", .int8), .init("x", .float8), .init("b", .bool), .init("s", .text), .init("at", .timestamptz),
                .init("u", .uuid),
            ]
            let rows = Self.valueRows.map { Array($0.prefix(6)) }
            // Enough rows for several chunks, in order by `n`.
            let bulk = (1...20_000).map { i -> [StoredValue] in
                [
                    .integer(Int64(1000 + i)), .real(Double(i) / 3), .integer(Int64(i % 2)),
                    .text("row \(i) " + String(repeating: "é", count: i % 40)), Self.seconds(Int64(i) * 1_000_001), .null,
                ]
            }
            let count = try connection.copy(into: "staged", columns: columns) { writer in
                for row in rows + bulk { try writer.appendRow(row) }
                // Field by field, and text from its bytes.
                try writer.append(.integer(999_999))
                try writer.append(.integer(3))
                try writer.append(.integer(1))
                var text = "bytes ✓"
                try text.withUTF8 { try writer.append(utf8: $0) }
                try writer.append(.null)
                try writer.append(.text("A0EEBC999C0B4EF8BB6D6BB9BD380A11"))
            }
            #expect(count == rows.count + bulk.count + 1)
            #expect(try connection.rows("SELECT * FROM staged WHERE n IS NULL OR n NOT BETWEEN 1001 AND 999999") == rows)
            #expect(try connection.rows("SELECT * FROM staged WHERE n > 1000 AND n < 999999 ORDER BY n") == bulk)
            let byFields = try connection.rows("SELECT * FROM staged WHERE n = 999999")
            #expect(
                byFields == [[.integer(999_999), .real(3), .integer(1), .text("bytes ✓"), .null, .text("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")]])
        }
    }

    @Test func aValueThatCannotGoInItsColumnStopsTheCopyAndNoRowGoesIn() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE staged (n int8, u uuid)")
            let columns: [PostgresCopyColumn] = [.init("n", .int8), .init("u", .uuid)]
            let error = try #require(throws: StoreError.self) {
                try connection.copy(into: "staged", columns: columns) { writer in
                    try writer.appendRow([.integer(1), .null])
                    try writer.appendRow([.integer(2), .text("not-a-uuid")])
                }
            }
            #expect(error.code == .other)
            #expect(
                error.description == "cannot copy text that is not a UUID into column 'u' (uuid) of staged (while copying into staged)")
            struct Interrupted: Error {}
            #expect(throws: Interrupted.self) {
                try connection.copy(into: "staged", columns: columns) { writer in
                    try writer.appendRow([.integer(1), .null])
                    throw Interrupted()
                }
            }
            // The server's own refusal: a NULL where the table takes none.
            try connection.execute("ALTER TABLE staged ALTER COLUMN n SET NOT NULL")
            let refused = try #require(throws: StoreError.self) {
                try connection.copy(into: "staged", columns: columns) { try $0.appendRow([.null, .null]) }
            }
            #expect(refused.code == .constraint)
            #expect(
                refused.description.hasPrefix(#"null value in column "n" of relation "staged" violates not-null constraint"#),
                "\(refused)")
            #expect(try connection.rows("SELECT count(*) FROM staged") == [[.integer(0)]])
        }
    }

    @Test func textSortsBytewiseUnderCollateC() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute(#"CREATE TABLE t (s text COLLATE "C")"#)
            for word in ["b", "é", "Z", "a", "B"] { try connection.run("INSERT INTO t VALUES ($1)", [.text(word)]) }
            #expect(try connection.rows("SELECT s FROM t ORDER BY s") == ["B", "Z", "a", "b", "é"].map { [.text($0)] })
            #expect(try connection.rows("SELECT count(*) FROM t WHERE s > 'Z'") == [[.integer(3)]])
        }
    }

    // MARK: Statements

    @Test func statementsArePreparedOncePerSQLTextAndOutliveARollback() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE t (n int8)")
            try connection.beginWrite(lockTimeout: 5)
            try connection.run("INSERT INTO t VALUES ($1)", [.integer(1)])
            try connection.rollback()
            try connection.run("INSERT INTO t VALUES ($1)", [.integer(2)])
            #expect(try connection.run("INSERT INTO t VALUES ($1)", [.integer(3)]) == 1)
            #expect(try connection.rows("SELECT n FROM t ORDER BY n") == [[.integer(2)], [.integer(3)]])
            let prepared = try connection.rows("SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'INSERT%'")
            #expect(prepared == [[.text("INSERT INTO t VALUES ($1)")]])
        }
    }

    @Test func constraintAndOtherFailuresHaveTheirCodesAndKeepTheSQLOutOfTheMessage() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY, name text NOT NULL)")
            let insert = "INSERT INTO t VALUES ($1, $2)"
            try connection.run(insert, [.integer(1), .text("a")])
            let duplicate = try #require(throws: StoreError.self) { try connection.run(insert, [.integer(1), .text("b")]) }
            #expect(duplicate.code == .constraint)
            #expect(duplicate.sql == insert)
            #expect(duplicate.description == #"duplicate key value violates unique constraint "t_pkey" (while inserting into t)"#)
            let missing = try #require(throws: StoreError.self) { try connection.run(insert, [.integer(2), .null]) }
            #expect(missing.code == .constraint)
            let unknown = try #require(throws: StoreError.self) { try connection.rows("SELECT * FROM nowhere") }
            #expect(unknown.code == .postgres)
            #expect(unknown.description == #"relation "nowhere" does not exist (while reading nowhere)"#)
            try connection.beginRead()
            let readOnly = try #require(throws: StoreError.self) { try connection.run(insert, [.integer(3), .text("c")]) }
            #expect(readOnly.code == .readOnly)
            #expect(readOnly.description == "cannot execute INSERT in a read-only transaction (while inserting into t)")
            try connection.rollback()
        }
    }

    @Test func aConnectionLostMidStatementFailsThisAndEveryLaterCall() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            let lost = try #require(throws: StoreError.self) { try connection.rows("SELECT pg_terminate_backend(pg_backend_pid())") }
            #expect(lost.code == .cannotOpen)
            #expect(lost.description.hasPrefix("store '\(connection.name)': connection lost: "), "\(lost)")
            #expect(!connection.isConnected)
            #expect(throws: StoreError.self) { try connection.execute("SELECT 1") }
            #expect(throws: StoreError.self) { try connection.run("SELECT $1::int8", [.integer(1)]) }
            #expect(throws: StoreError.self) { try connection.beginWrite(lockTimeout: 1) }
            #expect(throws: StoreError.self) { try connection.nextNotification(timeout: 0) }
            let pipeline = try #require(throws: PostgresPipelineError.self) { try connection.pipeline([.init("SELECT 1")]) }
            #expect(pipeline.error.code == .cannotOpen)
        }
    }

    @Test func aConnectionLostDuringACopySurfacesAsAnError() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            let admin = try PostgresConnection(url: url)
            try connection.execute("CREATE TEMPORARY TABLE staged (s text)")
            let pid = try connection.rows("SELECT pg_backend_pid()")[0][0]
            let error = try #require(throws: StoreError.self) {
                try connection.copy(into: "staged", columns: [.init("s", .text)]) { writer in
                    try writer.appendRow([.text("before")])
                    try admin.run("SELECT pg_terminate_backend($1::int4, 10000)", [pid])
                    for i in 0..<100_000 { try writer.appendRow([.text("row \(i) of a copy that cannot finish")]) }
                }
            }
            #expect(error.code == .cannotOpen, "\(error)")
            #expect(!connection.isConnected)
        }
    }

    // MARK: Pipelines

    @Test func aPipelineReturnsWhatEachStatementDid() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY, name text)")
            let results = try connection.pipeline([
                .init("INSERT INTO t VALUES ($1, $2), ($3, $4) RETURNING id", [.integer(1), .text("a"), .integer(2), .text("b")]),
                .init("UPDATE t SET name = $1 WHERE id = $2", [.text("z"), .integer(2)]),
                .init("DELETE FROM t WHERE id = $1", [.integer(99)]),
                .init("SELECT id, name FROM t ORDER BY id"),
            ])
            #expect(
                results == [
                    PostgresStatementResult(rowsAffected: 2, rows: [[.integer(1)], [.integer(2)]]),
                    PostgresStatementResult(rowsAffected: 1, rows: []),
                    PostgresStatementResult(rowsAffected: 0, rows: []),
                    PostgresStatementResult(rowsAffected: 2, rows: [[.integer(1), .text("a")], [.integer(2), .text("z")]]),
                ])
            #expect(try connection.pipeline([]) == [])
        }
    }

    /// Outside a transaction a pipeline is one implicit transaction: a failure keeps nothing of
    /// it, and the connection goes on.
    @Test func aFailingStatementOutsideATransactionUndoesTheWholePipeline() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY)")
            let insert = "INSERT INTO t VALUES ($1)"
            let failure = try #require(throws: PostgresPipelineError.self) {
                try connection.pipeline([.init(insert, [.integer(1)]), .init(insert, [.integer(1)]), .init(insert, [.integer(2)])])
            }
            #expect(failure.statementIndex == 1)
            #expect(failure.error.code == .constraint)
            #expect(failure.error.sql == insert)
            #expect(!connection.isInTransaction)
            #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(0)]])
            let syntax = try #require(throws: PostgresPipelineError.self) {
                try connection.pipeline([.init(insert, [.integer(1)]), .init("SELEC 1")])
            }
            #expect(syntax.statementIndex == 1)
            #expect(syntax.error.description == #"syntax error at or near "SELEC" (while running a statement)"#)
            #expect(try connection.pipeline([.init(insert, [.integer(3)])]).count == 1)
            #expect(try connection.rows("SELECT id FROM t") == [[.integer(3)]])
        }
    }

    /// Inside a transaction a failure leaves the transaction failed; rolling back to a savepoint
    /// taken before the pipeline makes it usable again, with the work before it kept.
    @Test func aFailingStatementInsideATransactionLeavesItFailedUntilRolledBackToASavepoint() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY)")
            let insert = "INSERT INTO t VALUES ($1)"
            try connection.beginWrite(lockTimeout: 5)
            try connection.run(insert, [.integer(1)])
            try connection.savepoint("merge")
            let failure = try #require(throws: PostgresPipelineError.self) {
                try connection.pipeline([.init(insert, [.integer(2)]), .init(insert, [.integer(1)]), .init(insert, [.integer(3)])])
            }
            #expect(failure.statementIndex == 1)
            #expect(connection.isInFailedTransaction)
            let aborted = try #require(throws: StoreError.self) { try connection.run(insert, [.integer(4)]) }
            #expect(aborted.code == .postgres)
            try connection.rollbackTo("merge")
            try connection.release("merge")
            try connection.run(insert, [.integer(5)])
            try connection.commit()
            #expect(try connection.rows("SELECT id FROM t ORDER BY id") == [[.integer(1)], [.integer(5)]])
        }
    }

    @Test func committingAFailedTransactionThrowsAndKeepsNothing() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY)")
            try connection.beginWrite(lockTimeout: 5)
            try connection.run("INSERT INTO t VALUES (1)")
            #expect(throws: StoreError.self) { try connection.run("INSERT INTO t VALUES (1)") }
            let error = try #require(throws: StoreError.self) { try connection.commit() }
            #expect(error.code == .postgres)
            #expect(
                error.description
                    == "store '\(connection.name)': the transaction was rolled back, a statement in it had failed (while committing)")
            #expect(!connection.isInTransaction)
            #expect(try connection.rows("SELECT count(*) FROM t") == [[.integer(0)]])
        }
    }

    // MARK: Transactions and locks

    @Test func aSecondWriterOfTheStoreIsBusyPastItsLockTimeoutAndProceedsOnceTheFirstCommits() throws {
        try TestPostgres.withSchema { url, _ in
            let first = try PostgresConnection(url: url)
            try first.execute("CREATE TABLE t (id int8)")
            try first.beginWrite(lockTimeout: 5)
            try first.run("INSERT INTO t VALUES (1)")

            let second = try PostgresConnection(url: url)
            for timeout in [0.2, 0] {
                let busy = try #require(throws: StoreError.self) { try second.beginWrite(lockTimeout: timeout) }
                #expect(busy.code == .busy)
                let shown = timeout == 0 ? "0" : "0.2"
                #expect(
                    busy.description
                        == "store '\(second.name)' is busy: another importer held it past \(shown) s (while starting a transaction)")
                #expect(!second.isInTransaction)
            }

            // A writer of another store does not wait.
            try TestPostgres.withSchema { otherURL, _ in
                let other = try PostgresConnection(url: otherURL)
                try other.beginWrite(lockTimeout: 0)
                try other.commit()
            }

            // A writer that waits long enough gets the lock when the first commits.
            let waiting = PthreadMutex<(pid: StoredValue?, outcome: String?)>((nil, nil))
            let done = DispatchSemaphore(value: 0)
            Thread {
                defer { done.signal() }
                do {
                    let third = try PostgresConnection(url: url)
                    let pid = try third.rows("SELECT pg_backend_pid()")[0][0]
                    waiting.withLock { $0.pid = pid }
                    try third.beginWrite(lockTimeout: 60)
                    let seen = try third.rows("SELECT count(*) FROM t")
                    try third.commit()
                    waiting.withLock { $0.outcome = "\(seen)" }
                } catch {
                    waiting.withLock { $0.outcome = "\(error)" }
                }
            }.start()
            let observer = try PostgresConnection(url: url)
            var isWaiting = false
            while !isWaiting, waiting.withLock({ $0.outcome }) == nil {
                if let pid = waiting.withLock({ $0.pid }) {
                    let locks = try observer.rows(
                        "SELECT count(*) FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND NOT granted", [pid])
                    isWaiting = locks == [[.integer(1)]]
                }
                if !isWaiting { usleep(10_000) }
            }
            try first.commit()
            done.wait()
            #expect(waiting.withLock { $0.outcome } == "[[1]]")
        }
    }

    @Test func aReadTransactionSeesOneSnapshotAndWritesNothing() throws {
        try TestPostgres.withSchema { url, _ in
            let reader = try PostgresConnection(url: url)
            let writer = try PostgresConnection(url: url)
            try writer.execute("CREATE TABLE t (id int8)")
            try writer.run("INSERT INTO t VALUES (1)")
            try reader.beginRead()
            #expect(try reader.rows("SELECT count(*) FROM t") == [[.integer(1)]])
            try writer.beginWrite(lockTimeout: 5)
            try writer.run("INSERT INTO t VALUES (2)")
            try writer.commit()
            #expect(try reader.rows("SELECT count(*) FROM t") == [[.integer(1)]])
            try reader.commit()
            #expect(try reader.rows("SELECT count(*) FROM t") == [[.integer(2)]])
        }
    }

    @Test func writeTransactionsRunOnGenericPlansAndReadsOnTheServersSetting() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            let setting = "SELECT current_setting('plan_cache_mode')"
            let serverSetting = try connection.rows(setting)
            try connection.beginWrite(lockTimeout: 5)
            #expect(try connection.rows(setting) == [[.text("force_generic_plan")]])
            try connection.rollback()
            try connection.beginWrite(lockTimeout: 0)
            #expect(try connection.rows(setting) == [[.text("force_generic_plan")]])
            try connection.commit()
            try connection.beginRead()
            #expect(try connection.rows(setting) == serverSetting)
            try connection.commit()
            #expect(try connection.rows(setting) == serverSetting)
        }
    }

    @Test func aReleasedSavepointKeepsItsWorkAndOneRolledBackToUndoesOnlyItsOwn() throws {
        try TestPostgres.withSchema { url, _ in
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE t (id int8)")
            try connection.beginWrite(lockTimeout: 5)
            try connection.run("INSERT INTO t VALUES (1)")
            try connection.savepoint("kept")
            try connection.run("INSERT INTO t VALUES (2)")
            try connection.release("kept")
            try connection.savepoint("undone")
            try connection.run("INSERT INTO t VALUES (3)")
            try connection.rollbackTo("undone")
            try connection.release("undone")
            try connection.commit()
            #expect(try connection.rows("SELECT id FROM t ORDER BY id") == [[.integer(1)], [.integer(2)]])
        }
    }

    // MARK: Notifications

    @Test func aListenerReceivesANotifyWithItsPayload() throws {
        try TestPostgres.withSchema { url, schema in
            let listener = try PostgresConnection(url: url)
            let sender = try PostgresConnection(url: url)
            // Channels are per database, not per schema: one per test.
            let channel = "changes_\(schema)"
            try listener.listen(channel)
            #expect(try listener.nextNotification(timeout: 0.05) == nil)
            try sender.beginWrite(lockTimeout: 5)
            try sender.notify(channel, payload: "import 7 committed")
            try sender.commit()
            let senderPID = try sender.rows("SELECT pg_backend_pid()")[0][0]
            let notification = try #require(try listener.nextNotification(timeout: 30))
            #expect(notification.channel == channel)
            #expect(notification.payload == "import 7 committed")
            #expect(senderPID == .integer(Int64(notification.senderProcessID)))
            try listener.unlisten(channel)
            try sender.notify(channel)
            #expect(try listener.nextNotification(timeout: 0.05) == nil)
        }
    }
}
