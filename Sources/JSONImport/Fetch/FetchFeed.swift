import Foundation

/// The pages of one fetch from an HTTP API (SPEC 7), handed to the import one at a time: the
/// first URL, then each next page as the pagination finds it, until the last page or
/// ``FetchOptions/maxPages``.
///
/// The next page is requested as soon as its URL is known, so it downloads while the importer
/// reads the page before. Each request is conditional when the store holds the page from an
/// earlier fetch; a `304` hands over that page's stored keys instead of a body. Failed requests
/// are sent again as ``FetchOptions/retries`` allows. The feed reads what the last fetch left
/// when the import's transaction begins, and writes what this one leaves after its last page,
/// in the same transaction (so a failed or dry-run fetch keeps nothing of it).
///
/// Used by the one thread that runs the import.
final class FetchFeed: PayloadFeed {
    let store: Store
    let entity: EntityPlan
    /// The first URL, as given.
    let origin: URL
    let options: FetchOptions
    let client: HTTPClient
    /// The flag of the async call running the fetch, checked while waiting for the network.
    let cancellation: CancellationFlag?
    /// Parses bodies for the pagination (next links, cursors, empty pages).
    let parser: JSONParser
    /// Whether the pages' bodies are kept for a second pass over them (an import under `skip`
    /// with unique attributes may read its payloads twice).
    private let keepsBodies: Bool

    /// What the last fetch of ``origin`` left: its pages by URL, and its `since` value.
    var stored: [String: Store.FetchPageState] = [:]
    var storedSince: String?
    /// The first URL with the `since` parameter, if any: what cursors and page numbers go on.
    var base: URL
    private var hasBegun = false

    /// A page of this fetch, as the import got it.
    struct Page {
        let url: URL
        /// The status of the answer used: 2xx, or 304.
        let status: Int
        let etag: String?
        let lastModified: String?
        /// The URL of the page after it, `nil` on the last.
        let next: URL?
        /// The primary keys of its root records, in payload order.
        var keys: [[StoredValue]]
        /// The body, for a page with one while it may be read again.
        var body: Data?
    }

    /// The pages handed over so far, in order.
    private(set) var pages: [Page] = []
    /// During a later pass over the pages: the next one to hand over again.
    private var replayPosition: Int?
    /// The request for the page after the last handed over, sent ahead.
    private var upcoming: (url: URL, exchange: HTTPExchange)?
    /// Every page URL requested, to catch an API linking back to a page.
    private var requested: Set<String> = []

    /// Every HTTP request sent whose answer the fetch used, retries included.
    private(set) var requests = 0
    /// The `304` answers among them.
    private(set) var notModified = 0

    /// - Throws: ``ImportError`` `usage` for a URL that is not http(s), or a `since` attribute
    ///   the entity does not have or cannot order by.
    init(store: Store, entity: EntityPlan, origin: URL, options: FetchOptions) throws(ImportError) {
        try Self.check(origin, options.since, of: entity)
        self.store = store
        self.entity = entity
        self.origin = origin
        self.options = options
        self.base = origin
        self.client = HTTPClient(timeout: options.timeout, maxBodySize: options.importOptions.maxPayloadSize)
        self.cancellation = CancellationFlag.current
        self.parser = JSONParser(maxDepth: options.importOptions.maxDepth)
        self.keepsBodies = options.importOptions.onError == .skip && store.plan.hasUniqueAttributes
    }

    deinit { upcoming?.exchange.cancel() }

    var knownSources: [ImportSource]? { nil }
    var collectsKeys: Bool { true }

    func rewind() throws {
        guard hasBegun else {
            hasBegun = true
            try loadState()
            let first = firstURL()
            upcoming = (first, send(first))
            return
        }
        precondition(keepsBodies, "a fetch read twice keeps its pages' bodies")
        replayPosition = 0
    }

    func next() throws -> FeedPayload? {
        if let position = replayPosition {
            guard position < pages.count else {
                try saveState()
                return nil
            }
            replayPosition = position + 1
            return payload(of: pages[position])
        }
        guard let (url, exchange) = upcoming else {
            try saveState()
            return nil
        }
        upcoming = nil
        let page = try receive(url, exchange)
        pages.append(page)
        if !keepsBodies { pages[pages.count - 1].body = nil }
        if let next = page.next, pages.count < options.maxPages ?? .max {
            guard !requested.contains(next.absoluteString) else {
                throw failure(url, "the next page, \(next.absoluteString), was fetched already: the pages link back")
            }
            upcoming = (next, send(next))
        }
        return payload(of: page)
    }

    func finished(keys: [[StoredValue]]) {
        let position = (replayPosition ?? pages.count) - 1
        pages[position].keys = keys
    }

    private func payload(of page: Page) -> FeedPayload {
        guard page.status != 304 else { return .unchanged(keys: page.keys) }
        return .source(.data(page.body ?? Data(), name: page.url.absoluteString))
    }

    // MARK: Requests

    /// Sends `GET url`: conditional when the store holds the page.
    private func send(_ url: URL) -> HTTPExchange {
        requested.insert(url.absoluteString)
        var headers: [(name: String, value: String)] = [
            ("Accept", "application/json"), ("User-Agent", "jsonimport/\(JSONImportVersion.current)"),
        ]
        headers += options.headers.map { ($0.name, $0.value) }
        if let state = stored[url.absoluteString] {
            if let etag = state.etag { headers.append(("If-None-Match", etag)) }
            if let lastModified = state.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        }
        return client.send(url, headers: headers)
    }

    /// The page `exchange` answers, sending the request again after an answer worth retrying
    /// as ``FetchOptions/retries`` allows.
    private func receive(_ url: URL, _ exchange: HTTPExchange) throws -> Page {
        var exchange = exchange
        var attempts = 1
        while true {
            let outcome = try exchange.wait(cancellation: cancellation)
            requests += 1
            let delay: Double
            switch outcome {
            case .success(let response) where (200..<300).contains(response.status):
                return try page(url, answeredBy: response)
            case .success(let response) where response.status == 304:
                return try storedPage(url, answeredBy: response)
            case .success(let response):
                let status = "HTTP status \(response.status)"
                guard response.status == 429 || (500..<600).contains(response.status), attempts <= options.retries else {
                    throw failure(url, status + Self.attemptsNote(attempts))
                }
                if let wait = RetryAfter.seconds(response.header("Retry-After")) {
                    guard wait <= FetchOptions.longestRetryAfter else {
                        throw failure(
                            url, "\(status) asking to retry after \(Int(wait)) s, longer than a fetch waits (\(Int(FetchOptions.longestRetryAfter)) s)")
                    }
                    delay = wait
                } else {
                    delay = backoff(after: attempts)
                }
            case .failure(let problem):
                guard problem.isRetryable, attempts <= options.retries else {
                    throw failure(url, problem, attempts: attempts)
                }
                delay = backoff(after: attempts)
            }
            try pause(delay)
            attempts += 1
            exchange = send(url)
        }
    }

    /// Seconds before the retry after attempt `attempts`: the retry delay, doubled per retry.
    private func backoff(after attempts: Int) -> Double {
        options.retryDelay * Double(1 << min(attempts - 1, 20))
    }

    /// Sleeps `seconds`, waking early to throw `CancellationError` when the fetch is cancelled.
    private func pause(_ seconds: Double) throws {
        let end = Date().addingTimeInterval(seconds)
        while true {
            try cancellation?.check()
            let left = end.timeIntervalSinceNow
            guard left > 0 else { return }
            Thread.sleep(forTimeInterval: min(left, 0.05))
        }
    }

    /// A page answered with a body.
    private func page(_ url: URL, answeredBy response: HTTPResponse) throws -> Page {
        Page(
            url: url, status: response.status, etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
            next: try nextURL(after: url, response), keys: [], body: response.body)
    }

    /// A page answered `304 Not Modified`: the page as the store holds it, with the validators
    /// the answer updates.
    private func storedPage(_ url: URL, answeredBy response: HTTPResponse) throws -> Page {
        guard let state = stored[url.absoluteString] else {
            throw failure(url, "HTTP status 304 for a page this store holds no copy of")
        }
        notModified += 1
        return Page(
            url: url, status: 304, etag: response.header("ETag") ?? state.etag,
            lastModified: response.header("Last-Modified") ?? state.lastModified,
            next: state.next.flatMap { URL(string: $0) }, keys: try decodeKeys(state.keys), body: nil)
    }

    private static func check(_ origin: URL, _ since: FetchOptions.Since?, of entity: EntityPlan) throws(ImportError) {
        func usage(_ message: String) -> ImportError {
            ImportError(code: .usage, message: message, report: ImportReport(entity: entity.spec.name))
        }
        guard ["http", "https"].contains(origin.scheme?.lowercased() ?? ""), origin.host != nil else {
            throw usage("'\(TerminalText.escaped(origin.absoluteString))' is not an http or https URL")
        }
        guard let since else { return }
        guard let attribute = entity.spec.attribute(named: since.attribute) else {
            let hint = Suggestion.hint(for: since.attribute, among: entity.spec.attributes.map(\.name))
            throw usage("unknown attribute '\(since.attribute)' of \(entity.spec.name) for since\(hint)")
        }
        guard sinceTypes.contains(attribute.type) else {
            throw usage("since needs an attribute of type int, double, decimal, date or string; \(entity.spec.name).\(attribute.name) is \(attribute.type)")
        }
    }

    private static func attemptsNote(_ attempts: Int) -> String { attempts > 1 ? " (\(attempts) attempts)" : "" }
}
