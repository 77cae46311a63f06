import Foundation
import Testing

/// `import` creates a missing store (SPEC 4) only for an import that succeeds: one that fails,
/// whatever the failure, leaves no file behind.
@Suite struct NewStoreTests {
    @Test func aFirstImportThatFailsLeavesNoStore() throws {
        let cases: [(payload: String, mappings: [String: String], exitCode: Int32)] = [
            ("[{\"id\": 1},\n {\"id\": 2,]", MappingFixtures.valid, 1),  // invalid JSON
            (#"[{"id": 1}, {"id": "two"}]"#, MappingFixtures.valid, 1),  // an invalid record under abort
            (#"[{"id": 1, "repos": [{"id": 5}]}]"#, MappingFixtures.valid, 1),  // a required attribute missing
            (#"[{"id": 1}]"#, MappingFixtures.invalid, 1),  // invalid mappings
        ]
        for (payload, mappings, exitCode) in cases {
            let workspace = try Workspace(mappings: mappings)
            try workspace.write(payload, to: "users.json")
            let result = try workspace.run(["import", "User", "users.json"])
            #expect(result.exitCode == exitCode, "\(result)")
            #expect(try workspace.directory.contents() == ["Mappings", "users.json"], "\(payload)")
            #expect(try !workspace.hasStore(), "\(payload)")
        }
        // One that succeeds leaves the store alone, no other file.
        let workspace = try Workspace()
        try workspace.write(#"[{"id": 1, "login": "ana"}]"#, to: "users.json")
        #expect(try workspace.run(["--quiet", "import", "User", "users.json"]) == CLIResult(exitCode: 0, stdout: "", stderr: ""))
        #expect(try workspace.hasStore())
        #expect(try workspace.directory.contents() == ["Mappings"] + (TestStore.isSQLite ? ["jsonimport.sqlite"] : []) + ["users.json"])
        let query = try workspace.run(["query", "User", "--fields", "id,login", "--format", "jsonl"])
        #expect(query == CLIResult(exitCode: 0, stdout: #"{"id":1,"login":"ana"}"# + "\n", stderr: ""))
    }

    @Test(.sqliteStore("a new store file on a full disk (a small tmpfs)"))
    func aFirstImportOntoAFullDiskLeavesNoStore() throws {
        let workspace = try Workspace()
        try workspace.write(StoreFaultTests.bulk, to: "bulk.json")
        try Mounts.withTmpfs(size: "2m") { folder in
            let result = try workspace.run(["--store", folder + "/store.sqlite", "import", "User", "bulk.json"])
            #expect(result.exitCode == 3, "\(result)")
            #expect(result.stderr.hasPrefix("error: store '\(folder)/store.sqlite': disk full (while "), "\(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
        }
    }
}
