import Foundation
import Synchronization

/// The child could not be run as asked.
struct SubprocessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a child process with captured output, without ever deadlocking on a full pipe.
enum Subprocess {
    /// Runs `executable` with `arguments` and waits for it to exit.
    ///
    /// Both output pipes are drained on threads of their own while the child runs, and stdin is
    /// written from a third, so a child that fills a pipe buffer never blocks the test.
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment.
    ///   - stdin: bytes on the child's standard input; without it stdin is `/dev/null`.
    ///   - directory: the child's working directory; the test's own when `nil`.
    ///   - timeout: seconds before the child is killed and the run fails.
    /// - Returns: the exit status and everything written to stdout and stderr (as UTF-8).
    /// - Throws: ``SubprocessFailure`` when the child cannot be started or times out.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String],
        stdin: String? = nil, in directory: URL? = nil, timeout: TimeInterval = 120
    ) throws -> CLIResult {
        let (launched, launchArguments, script) = try throughShellIfLong(executable, arguments)
        defer { if let script { try? FileManager.default.removeItem(at: script) } }
        let process = Process()
        process.executableURL = launched
        process.arguments = launchArguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let input = stdin.map { _ in Pipe() }
        process.standardInput = input ?? FileHandle.nullDevice

        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try launch(process)
        } catch {
            throw SubprocessFailure("cannot start \(executable.path): \(error)")
        }
        let stdoutDrain = PipeDrain(output.fileHandleForReading)
        let stderrDrain = PipeDrain(error.fileHandleForReading)
        if let input, let stdin { feed(Data(stdin.utf8), to: input.fileHandleForWriting) }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            let command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
            throw SubprocessFailure("\(command) did not exit within \(timeout)s")
        }
        // Until then the Process holds itself, and its pipes, for good: without it every run
        // would leave descriptors open, and Process.run's walk of /proc/self/fd reads past the
        // end of its buffer (a crash) once the test process holds about 1,300 of them.
        process.waitUntilExit()
        return CLIResult(
            exitCode: process.terminationStatus, stdout: stdoutDrain.waitForText(),
            stderr: stderrDrain.waitForText(),
            signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
    }

    /// Arguments past this many bytes go through a shell script.
    private static let longArguments = 32 * 1024

    /// `executable` and `arguments` as given, or, when the arguments are long (100,000 ids),
    /// `/bin/sh` running a script that execs them: Foundation's `Process.run` has been seen to
    /// read past the end of a buffer copying a long argument list, while the shell hands it to
    /// the kernel as is. Returns the script to delete afterwards.
    private static func throughShellIfLong(_ executable: URL, _ arguments: [String]) throws -> (URL, [String], URL?) {
        guard arguments.reduce(0, { $0 + $1.utf8.count + 1 }) > longArguments else { return (executable, arguments, nil) }
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("jsonimport-args-\(UUID().uuidString).sh")
        let text = "exec " + ([executable.path] + arguments).map(quoted).joined(separator: " ") + "\n"
        try text.write(to: script, atomically: true, encoding: .utf8)
        return (URL(fileURLWithPath: "/bin/sh"), [script.path], script)
    }

    /// Writes `data` to the child's stdin on a thread of its own, then closes it.
    private static func feed(_ data: Data, to handle: FileHandle) {
        _ = ignoreBrokenPipes
        Thread.detachNewThread {
            // A child that exits without reading its input closes the pipe: not a failure.
            try? handle.write(contentsOf: data)
            try? handle.close()
        }
    }

    /// Writing to a pipe whose reader has exited must fail with EPIPE, not kill the test runner.
    private static let ignoreBrokenPipes: Bool = {
        _ = signal(SIGPIPE, SIG_IGN)
        return true
    }()
}

/// Reads one pipe to its end on a thread of its own.
private final class PipeDrain: Sendable {
    private let data = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let bytes = (try? handle.readToEnd()) ?? Data()
            try? handle.close()
            data.withLock { $0 = bytes }
            done.signal()
        }
    }

    /// Waits until the writer closed the pipe, and returns what it wrote.
    func waitForText() -> String {
        done.wait()
        return data.withLock { String(decoding: $0, as: UTF8.self) }
    }
}

/// Serializes `Process.run` across the test process (see `Subprocess.run`).
private let launchLock = NSLock()

extension Subprocess {
    /// Starts `process`, set up by the caller; writing to its stdin after it has exited fails
    /// rather than killing the test runner. Foundation's `Process.run` walks /proc/self/fd
    /// while other threads open and close descriptors: starting one process at a time keeps
    /// parallel tests from crashing it.
    static func launch(_ process: Process) throws {
        _ = ignoreBrokenPipes
        try launchLock.withLock { try process.run() }
    }
}
