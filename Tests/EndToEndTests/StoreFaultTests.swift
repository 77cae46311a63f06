import Foundation
import Testing

/// A store that cannot take a write (SPEC 4, 5): a full disk, the file-size limit, a read-only
/// file system. Each is a store error (exit 3) naming its cause and the operation, never a
/// record error (exit 1) nor SQL text, under `--on-error abort` and `skip` alike, and the store
/// keeps what it held.
@Suite struct StoreFaultTests {
    /// 1,500 users of 8 KB each: 12 MB of rows, past the 8 MB page cache, so SQLite writes
    /// pages out while records are being imported, not only when the import commits.
    static let bulk: String = {
        let name = String(repeating: "n", count: 8000)
        return "[" + (2...1501).map { #"{"id": \#($0), "name": "\#(name)"}"# }.joined(separator: ",\n") + "]"
    }()

    /// A workspace whose store, in `folder` (the workspace by default), holds user 1; the bulk
    /// payload is written beside the mappings.
    private static func workspace(storeIn folder: String? = nil) throws -> (Workspace, store: String) {
        let workspace = try Workspace()
        try workspace.write(Self.bulk, to: "bulk.json")
        try workspace.write(#"[{"id": 1, "login": "ana"}]"#, to: "one.json")
        let store = (folder ?? workspace.directory.path) + "/store.sqlite"
        let created = try workspace.run(["--store", store, "--quiet", "import", "User", "one.json"])
        guard created.exitCode == 0 else { throw SubprocessFailure("setting up the store failed: \(created)") }
        return (workspace, store)
    }

    private static func importBulk(_ workspace: Workspace, into store: String, _ policy: String) -> [String] {
        ["--mappings", workspace.path("Mappings"), "--store", store, "--no-progress",
         "import", "User", workspace.path("bulk.json"), "--on-error", policy]
    }

    /// Expects exit 3 with one line `error: store 'STORE': CAUSE (while …)`, naming no record,
    /// savepoint or statement.
    private static func expectStoreFault(
        _ result: CLIResult, store: String, cause: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.exitCode == 3, "\(result)", sourceLocation: sourceLocation)
        #expect(result.signal == nil, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout == "", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("error: store '\(store)': \(cause) (while "), "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)", sourceLocation: sourceLocation)
        for word in ["record", "savepoint", "INSERT", "SELECT", "UPDATE", "COMMIT", "\""] {
            #expect(!result.stderr.contains(word), "\(result)", sourceLocation: sourceLocation)
        }
    }

    /// Expects the store to hold user 1 alone, as before the failed import.
    private static func expectUserOneAlone(
        in store: String, _ workspace: Workspace, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let query = try workspace.run(["--store", store, "query", "User", "--fields", "id", "--format", "jsonl"])
        #expect(query == CLIResult(exitCode: 0, stdout: "{\"id\":1}\n", stderr: ""), sourceLocation: sourceLocation)
    }

    @Test(.sqliteStore("the store file on a full disk (a small tmpfs)"))
    func aFullDiskIsAStoreErrorNamingItUnderEitherPolicy() throws {
        try Mounts.withTmpfs(size: "2m") { folder in
            let (workspace, store) = try Self.workspace(storeIn: folder)
            for policy in ["abort", "skip"] {
                let result = try CLI.run(Self.importBulk(workspace, into: store, policy))
                Self.expectStoreFault(result, store: store, cause: "disk full")
                try Self.expectUserOneAlone(in: store, workspace)
                // The disk filled while records were being written, not at the commit.
                #expect(!result.stderr.contains("committing"), "\(result)")
            }
        }
    }

    @Test(.sqliteStore("the store file and its WAL past the process's file-size limit"))
    func theFileSizeLimitIsAStoreErrorNamingItNotASignal() throws {
        let (workspace, store) = try Self.workspace()
        // A limit of 2 MB, which the write-ahead log reaches mid-import, and SIGXFSZ at its
        // default action and unblocked, which ends the process unless the tool ignores it (a
        // shell cannot restore a signal its parent ignored, and the test's threads block
        // signals, so Python sets this up before running the tool).
        let limited = """
            import os, resource, signal, sys
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ])
            resource.setrlimit(resource.RLIMIT_FSIZE, (2 << 20, resource.RLIM_INFINITY))
            os.execv(sys.argv[1], sys.argv[1:])
            """
        for policy in ["abort", "skip"] {
            let result = try Subprocess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3", "-c", limited, try CLI.binary().path] + Self.importBulk(workspace, into: store, policy),
                environment: ProcessInfo.processInfo.environment)
            Self.expectStoreFault(result, store: store, cause: "file too large, past the file-size limit")
            try Self.expectUserOneAlone(in: store, workspace)
            #expect(!result.stderr.contains("committing"), "\(result)")
        }
        // 1 MB of rows, which stay in the page cache until the commit writes them out.
        let name = String(repeating: "n", count: 1000)
        try workspace.write("[" + (2...1001).map { #"{"id": \#($0), "name": "\#(name)"}"# }.joined(separator: ",") + "]", to: "some.json")
        let atCommit = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", limited.replacingOccurrences(of: "2 << 20", with: "512 << 10"), try CLI.binary().path,
             "--mappings", workspace.path("Mappings"), "--store", store, "import", "User", workspace.path("some.json")],
            environment: ProcessInfo.processInfo.environment)
        #expect(atCommit.stderr == "error: store '\(store)': file too large, past the file-size limit (while committing)\n", "\(atCommit)")
        #expect(atCommit.exitCode == 3)
        try Self.expectUserOneAlone(in: store, workspace)
    }

    @Test(.sqliteStore("the store file on a read-only mount"))
    func aReadOnlyStoreIsAStoreErrorNamingIt() throws {
        let (workspace, _) = try Self.workspace()
        try Mounts.withReadOnlyView(of: workspace.directory.path) { view in
            let store = view + "/store.sqlite"
            let before = FileManager.default.contents(atPath: store)
            for policy in ["abort", "skip"] {
                let result = try CLI.run(Self.importBulk(workspace, into: store, policy))
                Self.expectStoreFault(result, store: store, cause: "read-only, the file or its folder cannot be written")
            }
            #expect(FileManager.default.contents(atPath: store) == before)
        }
        try Self.expectUserOneAlone(in: workspace.path("store.sqlite"), workspace)
    }
}
