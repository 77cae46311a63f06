import Foundation

/// File systems mounted for one test: a small tmpfs, to fill a disk, or a read-only view of a
/// folder. Mounting needs root, which the CI has; elsewhere the test fails saying so.
///
/// ```swift
/// try Mounts.withTmpfs(size: "2m") { folder in
///     let result = try CLI.run(["--store", folder + "/store.sqlite", "import", "User", payload])
/// }
/// ```
enum Mounts {
    /// Runs `body` with the path of a new tmpfs of `size` (`mount -o size=`), unmounted after.
    static func withTmpfs<R>(size: String, _ body: (String) throws -> R) throws -> R {
        let directory = try TemporaryDirectory()
        let point = directory.path("tmpfs")
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)
        try run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", point], doing: "mount a \(size) tmpfs")
        defer { unmount(point) }
        return try body(point)
    }

    /// Runs `body` with the path of a read-only view of `folder` (a read-only bind mount),
    /// unmounted after: writes through it fail with EROFS, whoever runs them.
    static func withReadOnlyView<R>(of folder: String, _ body: (String) throws -> R) throws -> R {
        let directory = try TemporaryDirectory()
        let point = directory.path("read-only")
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)
        try run("/bin/mount", ["--bind", folder, point], doing: "bind-mount \(folder)")
        defer { unmount(point) }
        try run("/bin/mount", ["-o", "remount,bind,ro", point], doing: "make the bind mount read-only")
        return try body(point)
    }

    private static func run(_ tool: String, _ arguments: [String], doing what: String) throws {
        let result = try Subprocess.run(
            URL(fileURLWithPath: tool), arguments, environment: ProcessInfo.processInfo.environment)
        guard result.exitCode == 0 else {
            throw SubprocessFailure(
                "cannot \(what) (this test mounts file systems, which needs root; uid is \(getuid())): \(result.stderr)")
        }
    }

    private static func unmount(_ point: String) {
        _ = try? Subprocess.run(
            URL(fileURLWithPath: "/bin/umount"), ["-l", point], environment: ProcessInfo.processInfo.environment)
    }
}
