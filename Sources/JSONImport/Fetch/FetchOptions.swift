import Foundation

/// How a fetch from an HTTP API runs: the import options, and how pages are requested and
/// followed.
///
/// ```swift
/// var options = FetchOptions(pagination: .cursor(keyPath: "meta.next", parameter: "after"))
/// options.headers = [try HTTPHeader(expanding: "Authorization: Bearer $API_TOKEN")]
/// options.importOptions.prune = true
/// let report = try await mapper.fetch(from: url, as: "User", options: options)
/// ```
public struct FetchOptions: Sendable, Hashable {
    /// How the records are imported: root key path, format, prune, error policy, clean-up, dry
    /// run, explanation, limits. Prune works across all pages of the fetch.
    public var importOptions: ImportOptions
    /// Headers sent with every request, after `Accept: application/json` and a `User-Agent`
    /// (a header of the same name replaces those).
    public var headers: [HTTPHeader]
    /// How the URL of the next page is found.
    public var pagination: Pagination
    /// The most pages fetched (1 or more); `nil` for no limit.
    public var maxPages: Int?
    /// Incremental sync: sends the largest stored value of an attribute as a query parameter.
    public var since: Since?
    /// How many times a request is sent again after a `429`, a `5xx`, a timeout or a cut
    /// connection (0 or more).
    public var retries: Int
    /// Seconds before the first retry, doubled for each one after it, unless the response says
    /// how long to wait in `Retry-After`.
    public var retryDelay: Double
    /// Seconds a request may take, from sending it to the last byte of the response.
    public var timeout: Double

    /// Creates fetch options; the defaults match ``default``.
    ///
    /// - Parameters:
    ///   - importOptions: how the records are imported; ``ImportOptions/default`` by default.
    ///   - headers: headers for every request; none by default.
    ///   - pagination: how the next page is found; `Link` headers by default.
    ///   - maxPages: the most pages fetched; no limit by default.
    ///   - since: the incremental sync parameter; none by default.
    ///   - retries: how many times a failed request is sent again; 3 by default.
    ///   - retryDelay: seconds before the first retry, doubled after each; 1 by default.
    ///   - timeout: seconds a request may take; 30 by default.
    public init(
        importOptions: ImportOptions = .default, headers: [HTTPHeader] = [], pagination: Pagination = .linkHeader,
        maxPages: Int? = nil, since: Since? = nil, retries: Int = 3, retryDelay: Double = 1, timeout: Double = 30
    ) {
        self.importOptions = importOptions
        self.headers = headers
        self.pagination = pagination
        self.maxPages = maxPages
        self.since = since
        self.retries = retries
        self.retryDelay = retryDelay
        self.timeout = timeout
    }

    /// The import defaults, `Link` header pagination without a page limit, 3 retries a second
    /// apart and doubling, 30 seconds per request.
    public static let `default` = FetchOptions()

    /// The longest wait a `Retry-After` may ask for: a response asking more ends the fetch.
    public static let longestRetryAfter: Double = 300

    /// How a fetch finds the next page.
    public enum Pagination: Sendable, Hashable {
        /// The `Link: <…>; rel="next"` header of each response (RFC 8288); the last page has none.
        case linkHeader
        /// A URL in the body at `keyPath` (`links.next`), relative to the page's URL or
        /// absolute; the last page has `null`, an empty string or nothing there.
        case nextLink(keyPath: String)
        /// A cursor value in the body at `keyPath` (a string or a number), sent back as the query
        /// parameter `parameter` of the first URL, percent-encoded; the last page has `null`, an
        /// empty string or nothing there.
        case cursor(keyPath: String, parameter: String)
        /// Page numbers in the query parameter `parameter`, from 1, until a page without
        /// records.
        case pageNumber(parameter: String)
    }

    /// An incremental sync: the largest value of `attribute` among the rows the first URL
    /// returned the last time it returned any is sent as the query parameter `parameter`; a
    /// date as ISO 8601 UTC with `Z`, a number as its digits. Nothing is sent on the first
    /// fetch.
    public struct Since: Sendable, Hashable {
        /// An attribute of the fetched entity, by property name.
        public var attribute: String
        /// The query parameter that carries it.
        public var parameter: String

        /// Creates an incremental sync parameter.
        ///
        /// - Parameters:
        ///   - attribute: an attribute of the fetched entity, by property name.
        ///   - parameter: the query parameter that carries its largest stored value.
        public init(attribute: String, parameter: String) {
            self.attribute = attribute
            self.parameter = parameter
        }
    }

    /// Refuses values out of range, naming them.
    func validate() throws(ImportError) {
        var problems: [String] = []
        if let maxPages, maxPages < 1 { problems.append("maxPages must be at least 1, got \(maxPages)") }
        if retries < 0 { problems.append("retries must be 0 or more, got \(retries)") }
        if !(retryDelay >= 0 && retryDelay.isFinite) { problems.append("retryDelay must be 0 or more seconds, got \(retryDelay)") }
        if !(timeout > 0 && timeout.isFinite) { problems.append("timeout must be more than 0 seconds, got \(timeout)") }
        switch pagination {
        case .linkHeader: break
        case .nextLink(let keyPath): if keyPath.isEmpty { problems.append("the next-link key path is empty") }
        case .cursor(let keyPath, let parameter):
            if keyPath.isEmpty { problems.append("the cursor key path is empty") }
            if parameter.isEmpty { problems.append("the cursor parameter is empty") }
        case .pageNumber(let parameter): if parameter.isEmpty { problems.append("the page parameter is empty") }
        }
        if let since, since.parameter.isEmpty { problems.append("the since parameter is empty") }
        if importOptions.format == .jsonl, pagination.readsBodyKey {
            problems.append("a next link or cursor is not read from JSON Lines pages")
        }
        guard problems.isEmpty else {
            throw ImportError(code: .usage, message: "invalid fetch options: " + problems.joined(separator: "; "), report: ImportReport(entity: nil))
        }
    }
}

extension FetchOptions.Pagination {
    /// Whether the next page is found at a key path of the body.
    var readsBodyKey: Bool {
        switch self {
        case .nextLink, .cursor: return true
        case .linkHeader, .pageNumber: return false
        }
    }
}
