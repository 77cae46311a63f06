import Foundation

/// A real HTTP API on 127.0.0.1 for the fetch tests: `server.py` beside this file, started on a
/// free port with the routes a test gives and stopped when the server is released.
///
/// ```swift
/// let api = try TestAPIServer([
///     "/users": [.init(body: #"[{"id": 1}]"#, headers: ["Link": #"<{base}/users?page=2>; rel="next""#])],
///     "/users?page=2": [.init(status: 503), .init(body: "[]")],
/// ])
/// let result = try CLI.run(["fetch", "User", api.url("/users")])
/// #expect(api.requests().map(\.target) == ["/users", "/users?page=2", "/users?page=2"])
/// ```
///
/// `@unchecked Sendable` without a lock: its stored properties are set once, in `init`, and
/// never change; the server process is only stopped, in `deinit`.
public final class TestAPIServer: @unchecked Sendable {
    /// `http://127.0.0.1:PORT`.
    public let base: String
    private let process: Process
    private let directory: URL

    /// One answer of a route (see `server.py`); `{base}` in header values and the body stands
    /// for ``base``.
    public struct Response: Sendable {
        public var status: Int
        public var body: String
        public var headers: [String: [String]]
        public var etag: String?
        public var lastModified: String?
        /// Seconds the server waits before answering.
        public var delay: Double
        /// Bytes of the body sent before the server closes the connection.
        public var truncate: Int?

        public init(
            status: Int = 200, body: String = "", headers: [String: String] = [:], etag: String? = nil,
            lastModified: String? = nil, delay: Double = 0, truncate: Int? = nil
        ) {
            self.status = status
            self.body = body
            self.headers = headers.mapValues { [$0] }
            self.etag = etag
            self.lastModified = lastModified
            self.delay = delay
            self.truncate = truncate
        }

        /// The same response, also sending header `name` once per value of `values`.
        public func repeatingHeader(_ name: String, _ values: [String]) -> Response {
            var response = self
            response.headers[name] = values
            return response
        }

        fileprivate var json: [String: Any] {
            var object: [String: Any] = ["status": status, "body": body, "headers": headers, "delay": delay]
            if let etag { object["etag"] = etag }
            if let lastModified { object["lastModified"] = lastModified }
            if let truncate { object["truncate"] = truncate }
            return object
        }
    }

    /// A request the server got.
    public struct Request: Sendable {
        /// The request target: `/users?page=2`.
        public let target: String
        /// Header values by lower-cased name.
        public let headers: [String: String]
        /// When it arrived, in seconds since 1970.
        public let time: Double
    }

    /// Starts the server with `routes`: request target → its answers, in turn (the last one
    /// again and again).
    public init(_ routes: [String: [Response]]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("test-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scenario = directory.appendingPathComponent("scenario.json")
        try JSONSerialization.data(withJSONObject: ["routes": routes.mapValues { $0.map(\.json) }]).write(to: scenario)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("server.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, scenario.path, directory.appendingPathComponent("log.jsonl").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                Self.stop(process)
                throw ServerFailure("the test API server did not start")
            }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("port "), let port = Int(text.dropFirst(5)) else {
            Self.stop(process)
            throw ServerFailure("the test API server printed '\(text)' instead of its port")
        }
        base = "http://127.0.0.1:\(port)"
    }

    deinit {
        Self.stop(process)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills the server: SIGKILL, since the test runner starts its children with SIGTERM blocked.
    private static func stop(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `base` followed by `target`.
    public func url(_ target: String) -> String { base + target }

    /// Every request the server got so far, in order.
    public func requests() throws -> [Request] {
        let log = directory.appendingPathComponent("log.jsonl")
        guard let data = FileManager.default.contents(atPath: log.path) else { return [] }
        return try data.split(separator: 0x0A).map { line in
            guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any],
                let target = object["target"] as? String, let headers = object["headers"] as? [String: String],
                let time = object["time"] as? Double
            else { throw ServerFailure("unreadable request log line") }
            return Request(target: target, headers: headers, time: time)
        }
    }

    /// The targets of every request so far, in order.
    public func targets() throws -> [String] { try requests().map(\.target) }
}

/// The test server could not start or be read.
public struct ServerFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
