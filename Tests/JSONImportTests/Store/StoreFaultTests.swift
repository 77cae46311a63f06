import Foundation
import Testing

@testable import JSONImport

/// Through the Swift API, a store that cannot take a write throws ``StoreError`` naming the
/// cause, never an ``ImportError`` for the record being written, under either error policy; the
/// store keeps what it held.
@Suite(.tags(.sqliteOnly), .sqliteStore) struct StoreFaultTests {
    /// 1,500 users of 8 KB each: 12 MB of rows, past the 8 MB page cache, so SQLite writes
    /// pages out while records are being imported, not only when the import commits.
    static let bulk: Data = {
        let name = String(repeating: "n", count: 8000)
        return Data(("[" + (2...1501).map { #"{"id": \#($0), "name": "\#(name)"}"# }.joined(separator: ",\n") + "]").utf8)
    }()

    @Test func aFullDiskThrowsAStoreErrorNotARecordErrorUnderEitherPolicy() throws {
        try Mounts.withTmpfs(size: "2m") { folder in
            let path = folder + "/store.sqlite"
            let mapper = try makeFileMapper(path)
            try mapper.importJSON(#"{"id": 1}"#, as: "User")
            for policy in ImportOptions.ErrorPolicy.allCases {
                let error = try #require(throws: StoreError.self) {
                    try mapper.importData(Self.bulk, as: "User", options: ImportOptions(onError: policy))
                }
                #expect(error.code == .full, "\(policy)")
                #expect(error.description.hasPrefix("store '\(path)': disk full (while "), "\(error)")
                #expect(!error.description.contains("INSERT") && !error.description.contains("committing"), "\(error)")
                #expect(try mapper.storedRows("User", "id") == [[.integer(1)]])
            }
        }
    }

    @Test func aReadOnlyStoreThrowsAStoreErrorNamingIt() throws {
        try withTemporaryStore { path in
            try makeFileMapper(path).importJSON(#"{"id": 1}"#, as: "User")
            let folder = (path as NSString).deletingLastPathComponent
            try Mounts.withReadOnlyView(of: folder) { view in
                let store = view + "/store.sqlite"
                let error = try #require(throws: StoreError.self) {
                    try makeFileMapper(store).importJSON(#"{"id": 2}"#, as: "User")
                }
                #expect(error.code == .readOnly)
                #expect(error.description.hasPrefix("store '\(store)': read-only, the file or its folder cannot be written"), "\(error)")
            }
            #expect(try makeFileMapper(path).count(APIUser.self) == 1)
        }
    }

    @Test func storeErrorsNameTheOperationNotTheStatement() {
        let cases: [(sql: String, operation: String)] = [
            (#"INSERT INTO "User" ("id") VALUES (?) ON CONFLICT("id") DO NOTHING"#, "inserting into User"),
            (#"UPDATE "Repo" SET "name" = ? WHERE "id" = ?"#, "updating Repo"),
            (#"DELETE FROM "User_followers" WHERE "source" = ?"#, "deleting from User_followers"),
            (#"SELECT "id", "login" FROM "User" WHERE "id" = ?"#, "reading User"),
            (#"WITH RECURSIVE doomed(id) AS (SELECT 1) DELETE FROM "Tag" WHERE "_id" IN doomed"#, "deleting from Tag"),
            (#"CREATE TABLE "User" ("id" INTEGER PRIMARY KEY)"#, "creating table User"),
            (#"CREATE UNIQUE INDEX "Tag_key" ON "Tag" ("name")"#, "creating index Tag_key"),
            (#"DROP INDEX IF EXISTS "Repo_tags_target""#, "dropping index Repo_tags_target"),
            ("COMMIT", "committing"),
            ("BEGIN IMMEDIATE", "starting a transaction"),
            ("PRAGMA journal_mode = WAL", "setting journal_mode"),
        ]
        for (sql, operation) in cases {
            let error = StoreError(.full, "store 's.sqlite': disk full", sql: sql)
            #expect(error.operation == operation, "\(sql)")
            #expect(error.description == "store 's.sqlite': disk full (while \(operation))")
        }
        #expect(StoreError(.busy, "database is locked").description == "database is locked")
    }
}
