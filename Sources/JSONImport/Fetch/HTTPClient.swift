import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends the GET requests of one fetch over one `URLSession` (connections are kept open
/// between pages) and waits for their answers: no cache, bodies up to a size limit, a deadline
/// per request.
///
/// A request is sent at once and answered in the background, so the next page downloads while
/// the importer reads the one before; ``HTTPExchange/wait(cancellation:)`` collects the answer.
final class HTTPClient {
    private let session: URLSession
    private let receiver: Receiver
    /// Seconds a request may take, from sending it to the last byte of its answer.
    let timeout: Double

    /// - Parameters:
    ///   - timeout: seconds a request may take.
    ///   - maxBodySize: the largest body accepted, in bytes; a larger one is cut off and fails.
    init(timeout: Double, maxBodySize: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        receiver = Receiver(maxBodySize: maxBodySize)
        session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: nil)
        self.timeout = timeout
    }

    deinit { session.invalidateAndCancel() }

    /// Sends `GET url` with `headers` (in order; a later one replaces an earlier one of the same
    /// name, case aside).
    func send(_ url: URL, headers: [(name: String, value: String)]) -> HTTPExchange {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        let task = session.dataTask(with: request)
        let exchange = HTTPExchange(task: task, deadline: Date().addingTimeInterval(timeout))
        receiver.add(exchange)
        task.resume()
        return exchange
    }

    /// The session's delegate: hands each task's response, bytes and end to its exchange.
    /// `@unchecked Sendable`: `exchanges` is behind its `Mutex`, and each exchange guards itself.
    private final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let maxBodySize: Int
        private let exchanges = Mutex<[Int: HTTPExchange]>([:])

        init(maxBodySize: Int) { self.maxBodySize = maxBodySize }

        func add(_ exchange: HTTPExchange) {
            exchanges.withLock { $0[exchange.task.taskIdentifier] = exchange }
        }

        private func exchange(of task: URLSessionTask) -> HTTPExchange? {
            exchanges.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            exchange(of: dataTask)?.received(response)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let exchange = exchange(of: dataTask) else { return }
            if !exchange.append(data, limit: maxBodySize) { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            exchange?.complete(error)
        }
    }
}

/// An HTTP answer: its status, headers and body.
struct HTTPResponse {
    /// The URL answered, after redirects: relative links resolve against it.
    let url: URL
    let status: Int
    /// Header values by lower-cased name; repeated headers joined with `, `.
    let headers: [String: String]
    let body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a request got no answer.
struct TransportFailure: Error {
    enum Kind {
        /// No complete answer within the timeout.
        case timedOut
        /// The connection closed or broke before the answer was complete.
        case connectionLost
        /// The body passed the size limit.
        case tooLarge
        /// The URL cannot be requested (a scheme URLSession does not speak).
        case unsupported
        /// Anything else (no connection, a host that cannot be found…).
        case other
    }

    let kind: Kind
    /// What the system said, for the message.
    let detail: String?

    /// Whether sending the request again may work.
    var isRetryable: Bool {
        switch kind {
        case .timedOut, .connectionLost, .other: return true
        case .tooLarge, .unsupported: return false
        }
    }
}

/// One request in flight and what has come back of it. `@unchecked Sendable`: every stored
/// value that changes is behind `state`'s `Mutex`; `task` and `deadline` never change.
final class HTTPExchange: @unchecked Sendable {
    let task: URLSessionDataTask
    /// When the request's time is up.
    let deadline: Date
    private let done = DispatchSemaphore(value: 0)

    private struct State {
        var response: HTTPURLResponse?
        var body = Data()
        var isTooLarge = false
        var error: (any Error)?
        var isComplete = false
    }
    private let state = Mutex(State())

    init(task: URLSessionDataTask, deadline: Date) {
        self.task = task
        self.deadline = deadline
    }

    fileprivate func received(_ response: URLResponse) {
        state.withLock { $0.response = response as? HTTPURLResponse }
    }

    /// Adds `data` to the body; `false` once the body is past `limit` bytes.
    fileprivate func append(_ data: Data, limit: Int) -> Bool {
        state.withLock { state in
            guard !state.isTooLarge else { return false }
            if state.body.count + data.count > limit {
                state.isTooLarge = true
                state.body = Data()
                return false
            }
            state.body.append(data)
            return true
        }
    }

    fileprivate func complete(_ error: (any Error)?) {
        let isFirst = state.withLock { state -> Bool in
            guard !state.isComplete else { return false }
            state.isComplete = true
            state.error = error
            return true
        }
        if isFirst { done.signal() }
    }

    /// Cancels the request; its answer is no longer wanted.
    func cancel() { task.cancel() }

    /// Waits for the answer until the deadline (then cancels the request: a timeout), or until
    /// `cancellation` is set.
    ///
    /// - Throws: `CancellationError` when the calling task was cancelled meanwhile.
    func wait(cancellation: CancellationFlag?) throws -> Result<HTTPResponse, TransportFailure> {
        while done.wait(timeout: .now() + 0.05) == .timedOut {
            if let cancellation, cancellation.isCancelled {
                cancel()
                throw CancellationError()
            }
            if Date() >= deadline {
                cancel()
                return .failure(TransportFailure(kind: .timedOut, detail: nil))
            }
        }
        return state.withLock { state in
            if state.isTooLarge { return .failure(TransportFailure(kind: .tooLarge, detail: nil)) }
            if let error = state.error { return .failure(Self.failure(error)) }
            guard let response = state.response, let url = response.url ?? task.originalRequest?.url else {
                return .failure(TransportFailure(kind: .other, detail: "no HTTP response"))
            }
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                guard let name = name as? String, let value = value as? String else { continue }
                let key = name.lowercased()
                headers[key] = headers[key].map { "\($0), \(value)" } ?? value
            }
            return .success(HTTPResponse(url: url, status: response.statusCode, headers: headers, body: state.body))
        }
    }

    private static func failure(_ error: any Error) -> TransportFailure {
        let detail = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String
        guard let error = error as? URLError else { return TransportFailure(kind: .other, detail: detail) }
        switch error.code {
        case .timedOut: return TransportFailure(kind: .timedOut, detail: nil)
        case .networkConnectionLost, .unknown, .badServerResponse, .cannotParseResponse:
            return TransportFailure(kind: .connectionLost, detail: detail)
        case .unsupportedURL, .badURL: return TransportFailure(kind: .unsupported, detail: detail)
        default: return TransportFailure(kind: .other, detail: detail)
        }
    }
}
