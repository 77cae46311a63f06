import Foundation

/// Runs the built `jsonimport` binary as a child process, the way a user's shell would.
///
/// ```swift
/// let result = try CLI.run(["validate"], env: ["JSONIMPORT_MAPPINGS": dir.path])
/// #expect(result == CLIResult(exitCode: 0, stdout: "...", stderr: ""))
/// ```
enum CLI {
    /// Runs `jsonimport` with `args` and waits for it to exit (see ``Subprocess/run``).
    ///
    /// - Parameters:
    ///   - args: the arguments after the tool's name.
    ///   - env: variables set for the child, over the test's environment with every
    ///     `JSONIMPORT_*` variable removed (so the caller's shell cannot change a result).
    ///   - stdin: bytes on the child's standard input; without it stdin is `/dev/null`.
    ///   - directory: the child's working directory; the test's own when `nil`.
    ///   - timeout: seconds before the child is killed and the run fails.
    /// - Returns: the exit status and everything written to stdout and stderr (against PostgreSQL,
    ///   with each store's URL replaced by the path the test gave, as SQLite would print it).
    /// - Throws: ``SubprocessFailure`` when the binary cannot be found, started, or times out.
    static func run(
        _ args: [String], env: [String: String] = [:], stdin: String? = nil, in directory: URL? = nil,
        timeout: TimeInterval = 120
    ) throws -> CLIResult {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("JSONIMPORT_") }
        environment.merge(env) { _, new in new }
        var args = args
        // The URLs put in for store paths, each with the path the tool would have printed.
        var stores: [(url: String, path: String)] = []
        if !TestStore.isSQLite {
            // Every store path the test names, and the default one, stands for a PostgreSQL schema.
            let cwd = directory?.path
            for index in args.indices.dropLast() where args[index] == "--store" {
                let url = TestStore.argument(args[index + 1], in: cwd)
                stores.append((url, args[index + 1]))
                args[index + 1] = url
            }
            let path = environment["JSONIMPORT_STORE"] ?? "./jsonimport.sqlite"
            let url = TestStore.argument(path, in: cwd)
            stores.append((url, path))
            environment["JSONIMPORT_STORE"] = url
        }
        var result = try Subprocess.run(binary(), args, environment: environment, stdin: stdin, in: directory, timeout: timeout)
        // Longest first: one URL may begin another.
        for (url, path) in stores.sorted(by: { $0.url.count > $1.url.count }) where url != path {
            result.stdout = result.stdout.replacingOccurrences(of: url, with: path)
            result.stderr = result.stderr.replacingOccurrences(of: url, with: path)
        }
        return result
    }

    /// The `jsonimport` executable built with the tests.
    ///
    /// Looked up, in order: `$JSONIMPORT_BINARY`; next to the test bundle (the build's products
    /// directory, wherever `--scratch-path` put it); `.build/debug` of this package.
    static func binary() throws -> URL {
        if let explicit = ProcessInfo.processInfo.environment["JSONIMPORT_BINARY"] {
            return URL(fileURLWithPath: explicit)
        }
        let candidates = productDirectories().map { $0.appendingPathComponent("jsonimport") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            let paths = candidates.map(\.path).joined(separator: ", ")
            throw SubprocessFailure("jsonimport binary not found; looked in: \(paths)")
        }
        return found
    }

    private static func productDirectories() -> [URL] {
        var directories: [URL] = []
        // macOS: the tests are a bundle, JSONImportPackageTests.xctest, in the products directory.
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        // Linux: the tests are an executable, JSONImportPackageTests.xctest, in the products directory.
        if let executable = Bundle.main.executableURL {
            directories.append(executable.deletingLastPathComponent())
        }
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        var package = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { package.deleteLastPathComponent() }  // Support, EndToEndTests, Tests, file
        directories.append(package.appendingPathComponent(".build/debug"))
        return directories
    }
}
