import Foundation

/// File systems mounted for one test: a small tmpfs, to fill a disk, or a read-only view of a
/// folder. Mounting needs root, which the CI has; elsewhere the test fails saying so.
///
/// ```swift
/// try Mounts.withTmpfs(size: "2m") { folder in
///     let mapper = try Mapper(spec: spec, store: .file(folder + "/store.sqlite"))
/// }
/// ```
enum Mounts {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `body` with the path of a new tmpfs of `size` (`mount -o size=`), unmounted after.
    static func withTmpfs<R>(size: String, _ body: (String) throws -> R) throws -> R {
        try withMountPoint { point in
            try run(["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", point], doing: "mount a \(size) tmpfs")
            defer { unmount(point) }
            return try body(point)
        }
    }

    /// Runs `body` with the path of a read-only view of `folder` (a read-only bind mount),
    /// unmounted after: writes through it fail with EROFS, whoever runs them.
    static func withReadOnlyView<R>(of folder: String, _ body: (String) throws -> R) throws -> R {
        try withMountPoint { point in
            try run(["--bind", folder, point], doing: "bind-mount \(folder)")
            defer { unmount(point) }
            try run(["-o", "remount,bind,ro", point], doing: "make the bind mount read-only")
            return try body(point)
        }
    }

    private static func withMountPoint<R>(_ body: (String) throws -> R) throws -> R {
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("jsonimport-mount-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: point, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: point) }
        return try body(point.path)
    }

    private static func run(_ arguments: [String], doing what: String) throws {
        let (status, stderr) = try launch("/bin/mount", arguments)
        guard status == 0 else {
            throw Failure(
                description: "cannot \(what) (this test mounts file systems, which needs root; uid is \(getuid())): \(stderr)")
        }
    }

    private static func unmount(_ point: String) {
        _ = try? launch("/bin/umount", ["-l", point])
    }

    private static func launch(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
