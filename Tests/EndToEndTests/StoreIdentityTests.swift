import Foundation
import Testing

/// What a command finds at `--store` before it writes (SPEC 5): another application's database
/// and a store of a newer or unreadable format are refused (exit 3) and left byte for byte as
/// they were.
@Suite struct StoreIdentityTests {
    /// Every command that opens the store, run on `store`.
    private static let commands: [[String]] = [
        ["import", "User", "users.json"], ["import", "User", "users.json", "--on-error", "skip"],
        ["query", "User"], ["export", "User"], ["stats"], ["delete", "User", "--id", "1"], ["clean"], ["migrate"],
        ["migrate", "--allow-data-loss"],
    ]

    /// The files of `folder` named `name` or starting with it (the store and its -wal, -shm).
    private static func storeFiles(_ name: String, in workspace: Workspace) throws -> [String] {
        try workspace.directory.contents().filter { $0.hasPrefix(name) }
    }

    @Test func anotherApplicationsDatabaseIsRefusedAndLeftByteForByte() throws {
        let workspace = try Workspace()
        try workspace.write(#"[{"id": 1, "login": "ana"}]"#, to: "users.json")
        let other = workspace.path("other.sqlite")
        try TestStore.sql("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');", on: other)
        let before = try #require(try TestStore.state(other))
        for command in Self.commands {
            let result = try workspace.run(["--store", "other.sqlite"] + command)
            #expect(
                result == CLIResult(exitCode: 3, stdout: "", stderr: "error: 'other.sqlite' is a database but not a JSONImport store\n"),
                "\(command)")
            #expect(try TestStore.state(other) == before, "\(command) changed the database")
            // No file beside it (-wal, -shm), nor any file for a PostgreSQL schema.
            #expect(try Self.storeFiles("other.sqlite", in: workspace) == (TestStore.isSQLite ? ["other.sqlite"] : []), "\(command)")
        }
    }

    @Test func aStoreOfANewerFormatIsRefusedNamingBothVersionsAndLeftByteForByte() throws {
        for (recorded, message) in [
            ("'2'", "format version 2 is newer than this build's format version 1"),
            ("'one'", "format version \"one\" cannot be read; this build's format version is 1"),
            ("''", "format version \"\" cannot be read; this build's format version is 1"),
        ] {
            let workspace = try Workspace()
            try workspace.importing(#"[{"id": 1, "login": "ana"}]"#, as: "User", file: "users.json")
            let store = workspace.path("jsonimport.sqlite")
            try TestStore.sql(#"UPDATE "_jsonimport_meta" SET "value" = \#(recorded) WHERE "key" = 'format'"#, on: store)
            try workspace.write(#"[{"id": 2, "login": "bo"}]"#, to: "users.json")
            let before = try #require(try TestStore.state(store))
            for command in Self.commands {
                let result = try workspace.run(command)
                let expected = "error: store './jsonimport.sqlite': \(message)\n"
                #expect(result == CLIResult(exitCode: 3, stdout: "", stderr: expected), "\(command)")
                #expect(try TestStore.state(store) == before, "\(command) changed the store")
            }
        }
    }

    @Test func aStoreRecordingNoFormatVersionIsRefused() throws {
        let workspace = try Workspace()
        try workspace.importing(#"[{"id": 1, "login": "ana"}]"#, as: "User", file: "users.json")
        let store = workspace.path("jsonimport.sqlite")
        try TestStore.sql(#"DELETE FROM "_jsonimport_meta" WHERE "key" = 'format'"#, on: store)
        let before = try #require(try TestStore.state(store))
        let result = try workspace.run(["import", "User", "users.json"])
        let expected = "error: store './jsonimport.sqlite': no format version recorded; this build's format version is 1\n"
        #expect(result == CLIResult(exitCode: 3, stdout: "", stderr: expected))
        #expect(try TestStore.state(store) == before)
    }
}
