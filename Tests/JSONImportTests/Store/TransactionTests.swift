import Testing

@testable import JSONImport

/// The one transaction mechanism: closure-scoped, a throw undoes the scope and is rethrown as
/// thrown, inner write scopes are savepoints, a scope can undo its work without an error.
@Suite(.tags(.sqliteOnly), .sqliteStore) struct TransactionTests {
    private struct Refused: Error, Equatable {
        let reason: String
    }

    private func connection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: ":memory:", create: true, busyTimeout: 5)
        try connection.execute("CREATE TABLE t (v INTEGER)")
        return connection
    }

    private func values(_ connection: SQLiteConnection) throws -> [Int] {
        try connection.rows("SELECT v FROM t ORDER BY v").compactMap { $0.first?.integer }
    }

    @Test func aFailedInnerScopeUndoesOnlyItselfAndTheOuterOneCommits() throws {
        let connection = try connection()
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES (1)")
            #expect(throws: Refused(reason: "inner")) {
                try connection.transaction {
                    try connection.run("INSERT INTO t VALUES (2)")
                    throw Refused(reason: "inner")
                }
            }
            try connection.transaction { try connection.run("INSERT INTO t VALUES (3)") }
        }
        #expect(!connection.isInTransaction)
        #expect(try values(connection) == [1, 3])
    }

    @Test func aThrowUndoesTheWholeTransactionAndIsRethrownAsThrown() throws {
        let connection = try connection()
        #expect(throws: Refused(reason: "outer")) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES (1)")
                try connection.transaction { try connection.run("INSERT INTO t VALUES (2)") }
                throw Refused(reason: "outer")
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try values(connection) == [])
    }

    @Test func theBodysErrorWinsWhenTheTransactionIsAlreadyGone() throws {
        let connection = try connection()
        // The body's transaction ends under it (as SQLite ends one after a full disk): undoing
        // the savepoint and the transaction fails, and the body's error is what comes out.
        #expect(throws: Refused(reason: "first")) {
            try connection.transaction {
                try connection.transaction {
                    try connection.run("INSERT INTO t VALUES (1)")
                    try connection.execute("ROLLBACK")
                    throw Refused(reason: "first")
                }
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try values(connection) == [])
    }

    @Test func aScopeCanUndoItsWorkWithoutAnError() throws {
        let connection = try connection()
        let kept = try connection.transaction(.write) {
            try connection.run("INSERT INTO t VALUES (1)")
            let inner: String = try connection.transaction(.write, deciding: {
                try connection.run("INSERT INTO t VALUES (2)")
                return ScopeOutcome(value: "dry", keepsWork: false)
            })
            return inner
        }
        #expect(kept == "dry")
        #expect(try values(connection) == [1])
        let outer: Int = try connection.transaction(.write, deciding: {
            try connection.run("INSERT INTO t VALUES (5)")
            return ScopeOutcome(value: 5, keepsWork: false)
        })
        #expect(outer == 5)
        #expect(!connection.isInTransaction)
        #expect(try values(connection) == [1])
    }

    @Test func aReadScopeInsideAWriteSeesItsWork() throws {
        let connection = try connection()
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES (7)")
            #expect(try connection.transaction(.read) { try values(connection) } == [7])
            #expect(connection.isInTransaction)
        }
        #expect(try values(connection) == [7])
    }
}

/// A writer held up past the busy timeout is told so in the words the PostgreSQL store uses.
@Suite(.tags(.sqliteOnly), .sqliteStore) struct BusyStoreTests {
    @Test func aWriterWaitingPastTheTimeoutIsTheStoresBusyError() throws {
        try withTemporaryStore { path in
            _ = try makeFileMapper(path)
            let holder = try SQLiteConnection(path: path, create: false, busyTimeout: 5)
            try holder.execute("BEGIN IMMEDIATE")
            defer { try? holder.execute("ROLLBACK") }
            let waiting = try SQLiteConnection(path: path, create: false, busyTimeout: 0.2)
            let busy = try #require(throws: StoreError.self) { try waiting.transaction(.write) {} }
            #expect(busy.code == .busy)
            #expect(busy.description == "store '\(path)' is busy: another importer held it past 0.2 s (while starting a transaction)")
        }
    }
}
