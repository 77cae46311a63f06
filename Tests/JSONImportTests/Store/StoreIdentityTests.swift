import Foundation
import Testing

@testable import JSONImport

/// What the Swift API finds at a store's path before it writes: another application's database
/// and a store of a newer or unreadable format throw ``StoreError`` and are left byte for byte as
/// they were.
@Suite(.tags(.sqliteOnly), .sqliteStore) struct StoreIdentityTests {
    private static func spec() throws -> MappingSpec { try MappingSpec.load(yaml: githubYAML, file: "test.yml") }

    /// The files in the folder of `path`.
    private static func files(beside path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
    }

    @Test func anotherApplicationsDatabaseIsRefusedAndLeftByteForByte() throws {
        try withTemporaryStore { path in
            do {
                let other = try SQLiteConnection(path: path, create: true, busyTimeout: 5)
                try other.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')")
            }
            let before = try #require(FileManager.default.contents(atPath: path))
            let opened = try #require(throws: StoreError.self) { try Mapper(spec: Self.spec(), store: .file(path)) }
            #expect(opened.code == .notAStore)
            #expect(opened.description == "'\(path)' is a database but not a JSONImport store")
            let migrated = try #require(throws: StoreError.self) { try Mapper.migrate(store: path, to: Self.spec()) }
            #expect(migrated.code == .notAStore)
            #expect(FileManager.default.contents(atPath: path) == before)
            #expect(try Self.files(beside: path) == ["store.sqlite"])
        }
    }

    @Test func aStoreOfANewerFormatIsRefusedNamingBothVersions() throws {
        try withTemporaryStore { path in
            try makeFileMapper(path).importJSON(#"{"id": 1}"#, as: "User")
            do {
                let connection = try SQLiteConnection(path: path, create: false, busyTimeout: 5)
                try connection.execute(#"UPDATE "_jsonimport_meta" SET "value" = '7' WHERE "key" = 'format'"#)
            }
            let before = try #require(FileManager.default.contents(atPath: path))
            let opened = try #require(throws: StoreError.self) { try Mapper(spec: Self.spec(), store: .file(path)) }
            #expect(opened.code == .unsupportedFormat)
            #expect(opened.description == "store '\(path)': format version 7 is newer than this build's format version 1")
            let migrated = try #require(throws: StoreError.self) {
                try Mapper.migrate(store: path, to: Self.spec(), allowDataLoss: true)
            }
            #expect(migrated.code == .unsupportedFormat)
            #expect(FileManager.default.contents(atPath: path) == before)
        }
    }
}
