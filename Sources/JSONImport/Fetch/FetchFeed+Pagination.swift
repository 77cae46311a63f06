import Foundation

/// Finding the next page (SPEC 7 pagination): from the `Link` header, a link or a cursor in the
/// body, or the page number.
extension FetchFeed {
    /// The URL of the first page: the base URL, with `PARAM=1` for page numbers.
    func firstURL() -> URL {
        guard case .pageNumber(let parameter) = options.pagination else { return base }
        return Self.url(base, setting: parameter, to: "1")
    }

    /// The page after the one `response` answered for `url`; `nil` on the last page.
    ///
    /// - Throws: ``ImportError`` `http` for a next link that is not a string or not an http(s)
    ///   URL, or a cursor that is neither a string nor a number.
    func nextURL(after url: URL, _ response: HTTPResponse) throws -> URL? {
        switch options.pagination {
        case .linkHeader:
            guard let target = response.header("Link").flatMap({ LinkHeader($0).target(of: "next") }) else { return nil }
            return try checkedLink(target, after: response.url, named: "the Link header's next link")
        case .nextLink(let keyPath):
            guard let link = try bodyValue(at: keyPath, of: response, for: url, as: "next-page link", allowsNumber: false) else {
                return nil
            }
            return try checkedLink(link, after: response.url, named: "the next-page link at '\(keyPath)'")
        case .cursor(let keyPath, let parameter):
            guard let cursor = try bodyValue(at: keyPath, of: response, for: url, as: "cursor", allowsNumber: true) else {
                return nil
            }
            return Self.url(base, setting: parameter, to: cursor)
        case .pageNumber(let parameter):
            guard recordCount(in: response.body) > 0 else { return nil }
            // This page is not among `pages` yet: it is page `pages.count + 1`.
            return Self.url(base, setting: parameter, to: String(pages.count + 2))
        }
    }

    /// A link made absolute against the page's URL, if it is an http(s) URL.
    private func checkedLink(_ link: String, after page: URL, named what: String) throws -> URL {
        guard let url = URL(string: link, relativeTo: page)?.absoluteURL, ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        else {
            throw failure(page, "\(what), '\(TerminalText.escaped(link))', is not an http or https URL")
        }
        return url
    }

    /// The string (or, with `allowsNumber`, number as written) at `keyPath` of the body; `nil`
    /// for `null`, an empty string, nothing there, or a body that is not JSON (which the import
    /// then reports).
    private func bodyValue(
        at keyPath: String, of response: HTTPResponse, for url: URL, as what: String, allowsNumber: Bool
    ) throws -> String? {
        guard let document = try? parser.parse(JSONInput(bytes: response.body)) else { return nil }
        // Values point into the document's tape and bytes: both live to the end of the scope.
        defer { withExtendedLifetime(document) {} }
        var value = document.root
        for segment in JSONKeyPath(dotted: keyPath).segments {
            guard let member = value[segment] else { return nil }
            value = member
        }
        switch value.kind {
        case .null: return nil
        case .string: return value.string.flatMap { $0.isEmpty ? nil : $0 }
        case .number where allowsNumber: return value.numberText.map { String(decoding: $0, as: UTF8.self) }
        default:
            throw failure(url, "the \(what) at '\(keyPath)' is not a string\(allowsNumber ? " or a number" : ""): found \(value.summary)")
        }
    }

    /// The root records in `body`: elements of the array at the root key path, 1 for an object,
    /// non-empty lines of JSON Lines; 0 for a body that is not JSON (which the import reports).
    private func recordCount(in body: Data) -> Int {
        if options.importOptions.format == .jsonl {
            return body.split(separator: 0x0A).count { line in !line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
        }
        guard let document = try? parser.parse(JSONInput(bytes: body)) else { return 0 }
        // Values point into the document's tape and bytes: both live to the end of the scope.
        defer { withExtendedLifetime(document) {} }
        var value = document.root
        let root = options.importOptions.root.map(JSONKeyPath.init(dotted:)) ?? entity.spec.root
        for segment in root?.segments ?? [] {
            guard let member = value[segment] else { return 0 }
            value = member
        }
        switch value.kind {
        case .array: return value.count
        case .object: return 1
        default: return 0
        }
    }

    /// `url` with the query parameter `name` set to `value` (replacing any of that name), both
    /// percent-encoded: every byte but letters, digits and `-._~` as `%XX`.
    static func url(_ url: URL, setting name: String, to value: String) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        let encodedName = percentEncoded(name)
        var items = (components.percentEncodedQuery ?? "").split(separator: "&", omittingEmptySubsequences: true).filter { item in
            let itemName = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return itemName.removingPercentEncoding != name && String(itemName) != encodedName
        }.map(String.init)
        items.append("\(encodedName)=\(percentEncoded(value))")
        components.percentEncodedQuery = items.joined(separator: "&")
        return components.url ?? url
    }

    /// `text` with every UTF-8 byte outside the URI's unreserved characters written `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Reads a `Retry-After` header: seconds (`120`) or an HTTP date.
enum RetryAfter {
    /// The seconds to wait from now (0 or more), `nil` when there is no usable header.
    static func seconds(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.allSatisfy({ $0.isASCII && $0.isNumber }) { return Double(value) }
        // RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
