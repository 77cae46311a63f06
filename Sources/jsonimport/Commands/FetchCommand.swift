import Foundation
import JSONImport

/// `jsonimport fetch ENTITY URL`: imports the pages of an HTTP API in one transaction.
struct FetchCommand: Command {
    static let importsInBulk = true

    static let signature = CommandSignature(
        name: "fetch",
        overview: "Imports what an HTTP API returns, page after page, in one transaction.",
        discussion: [
            "Pages are followed by their 'Link: <URL>; rel=\"next\"' header, unless --next, --cursor or --page "
                + "says how. The store keeps each page's ETag, Last-Modified, next link and record keys: the next "
                + "fetch of the same URL sends conditional requests, and a 304 Not Modified counts as the same "
                + "records again. A 429, a 5xx, a timeout or a cut connection is retried with exponential backoff, "
                + "honouring Retry-After; any other failure names the URL and the status, exits with 1, and nothing "
                + "of the fetch is kept. The store is created when it does not exist.",
        ],
        arguments: [
            ArgumentSpec("ENTITY", help: "The root entity the records belong to."),
            ArgumentSpec("URL", help: "The first page: an http:// or https:// URL."),
        ],
        options: [
            .value(
                "--header", "HEADER",
                help: "'Name: value' sent with every request; $VAR and ${VAR} in the value are read from the environment, and never shown.",
                isRepeatable: true),
            .value("--next", "KEYPATH", help: "Follows the next page's URL at this key path of the body (links.next)."),
            .value("--cursor", "KEYPATH=PARAM", help: "Sends the cursor at KEYPATH of the body back as the query parameter PARAM."),
            .value("--page", "PARAM", help: "Numbers the pages in the query parameter PARAM, from 1 until a page without records."),
            .value("--max-pages", "N", help: "Fetches at most N pages."),
            .value(
                "--since", "ATTRIBUTE=PARAM",
                help: "Incremental sync: sends the largest stored ATTRIBUTE of the rows this URL returned before as the query parameter PARAM."),
            .value("--retries", "N", help: "How many times a request is sent again after a 429, a 5xx, a timeout or a cut connection.", default: "3"),
            .value(
                "--retry-delay", "SECONDS",
                help: "Wait before the first retry, doubled for each one after it, unless Retry-After says how long.", default: "1"),
            .value("--timeout", "SECONDS", help: "How long one request may take, to the last byte of its response.", default: "30"),
        ] + ImportCommand.payloadOptions(formatDefault: "json"))

    let entity: String
    let url: URL
    /// The `--header` values as written; variables are expanded when the command runs.
    let headers: [String]
    let options: FetchOptions
    let reportFormat: ReportFormat

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        entity = arguments.argument("ENTITY") ?? ""
        let text = arguments.argument("URL") ?? ""
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw .usage("invalid URL '\(text)': expected an http:// or https:// URL")
        }
        self.url = url
        headers = arguments.values(of: "--header")
        var options = FetchOptions(importOptions: try ImportCommand.importOptions(arguments, defaultFormat: nil))
        options.pagination = try Self.pagination(arguments)
        options.maxPages = try arguments.integer(of: "--max-pages", minimum: 1)
        if let since = arguments.value(of: "--since") {
            let (attribute, parameter) = try Self.pair(since, of: "--since", expected: "ATTRIBUTE=PARAM (updatedAt=since)")
            options.since = FetchOptions.Since(attribute: attribute, parameter: parameter)
        }
        options.retries = try arguments.integer(of: "--retries", minimum: 0) ?? options.retries
        options.retryDelay = try arguments.number(of: "--retry-delay", minimum: 0) ?? options.retryDelay
        if let timeout = try arguments.number(of: "--timeout", minimum: 0) {
            guard timeout > 0 else { throw .invalidValue(arguments.value(of: "--timeout")!, for: "--timeout", expected: "a number of seconds above 0") }
            options.timeout = timeout
        }
        self.options = options
        reportFormat = ReportFormat(arguments)
    }

    /// `--next`, `--cursor` or `--page`, at most one of them; the `Link` header by default.
    private static func pagination(_ arguments: ParsedArguments) throws(CLIError) -> FetchOptions.Pagination {
        let given = ["--next", "--cursor", "--page"].filter(arguments.isSet)
        guard given.count <= 1 else {
            throw .usage("\(given.joined(separator: " and ")) both choose how pages are followed: give one of them")
        }
        if let keyPath = arguments.value(of: "--next") { return .nextLink(keyPath: keyPath) }
        if let cursor = arguments.value(of: "--cursor") {
            let (keyPath, parameter) = try pair(cursor, of: "--cursor", expected: "KEYPATH=PARAM (meta.next_cursor=cursor)")
            return .cursor(keyPath: keyPath, parameter: parameter)
        }
        if let parameter = arguments.value(of: "--page") {
            guard !parameter.isEmpty else { throw .invalidValue(parameter, for: "--page", expected: "a query parameter name") }
            return .pageNumber(parameter: parameter)
        }
        return .linkHeader
    }

    /// `A=B` split at its last `=`, both sides non-empty.
    private static func pair(_ text: String, of option: String, expected: String) throws(CLIError) -> (String, String) {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
            throw .invalidValue(text, for: option, expected: expected)
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    func run(in context: CommandContext) throws -> ImportReport {
        var options = options
        options.headers = try headers.map { try HTTPHeader(expanding: $0, environment: context.environment) }
        let bar = context.showsProgress ? ProgressBar(countsPages: true) : nil
        var progress: ImportProgress.Handler?
        if let bar { progress = { bar.draw($0) } }
        return try reportFormat.reportingFailure(of: entity, dryRun: options.importOptions.dryRun, command: Self.signature.name, to: context.output) {
            defer { bar?.clear() }
            return try context.withStoreCreatedOnSuccess { mapper in
                try mapper.fetch(from: url, as: entity, options: options, progress: progress)
            }
        }
    }

    func render(_ report: ImportReport, to output: Output) {
        reportFormat.render(report, to: output)
    }
}
