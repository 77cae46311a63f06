/// A store's `postgres://` (or `postgresql://`) URL taken apart: what libpq connects with, the
/// schema that is the store, and the URL as messages show it.
///
/// The `schema` query parameter is the store's own (libpq refuses parameters it does not know,
/// so it is removed before connecting); every other part of the URL is libpq's, passed on as
/// written.
struct PostgresURL: Sendable, Hashable {
    /// The URL libpq connects with: the one given, without `schema=`.
    let connectionString: String
    /// The schema that holds the store; `public` unless the URL names one.
    let schema: String
    /// The URL as given, without its password (in the user part or as `password=`).
    let displayName: String

    /// The schema of a URL without a `schema` parameter.
    static let defaultSchema = "public"
    /// The longest schema name PostgreSQL keeps whole (longer names are cut short silently).
    static let maximumSchemaBytes = 63

    /// Takes `url` apart.
    ///
    /// - Throws: ``StoreError`` `cannotOpen` for a URL of another scheme, a `/` or `@` left
    ///   unencoded in the user part, or a `schema` parameter that is empty, too long or
    ///   wrongly percent-encoded.
    init(_ url: String) throws(StoreError) {
        let displayName = Self.withoutPassword(url)
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"), let schemeEnd = url.range(of: "://") else {
            throw StoreError(.cannotOpen, "cannot open store '\(displayName)': not a postgres:// or postgresql:// URL")
        }
        func refused(_ reason: String) -> StoreError {
            StoreError(.cannotOpen, "cannot open store '\(displayName)': \(reason)")
        }
        // libpq ends the user part at the first `/` or `@`, so it would take the rest of the
        // password for the host or the port, and show it in its message.
        let beforeQuery = url[schemeEnd.upperBound...].prefix { $0 != "?" }
        if let at = beforeQuery.lastIndex(of: "@"), beforeQuery[..<at].contains(where: { $0 == "/" || $0 == "@" }) {
            throw refused("a '/' or '@' in the user name or password must be percent-encoded (%2F, %40)")
        }
        var schema = Self.defaultSchema
        var connectionString = url
        if let mark = url.firstIndex(of: "?") {
            var kept: [Substring] = []
            for pair in url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false) {
                let (key, value) = Self.split(pair)
                guard Self.percentDecoded(key) == "schema" else {
                    kept.append(pair)
                    continue
                }
                guard let decoded = Self.percentDecoded(value ?? "") else {
                    throw refused("the schema parameter is not percent-encoded correctly")
                }
                schema = decoded
            }
            connectionString = String(url[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        guard !schema.isEmpty, !schema.utf8.contains(0) else { throw refused("the schema parameter names no schema") }
        guard schema.utf8.count <= Self.maximumSchemaBytes else {
            throw refused("schema name longer than \(Self.maximumSchemaBytes) bytes")
        }
        self.connectionString = connectionString
        self.schema = schema
        self.displayName = displayName
    }

    /// `url` without the password of its user part (`user:secret@`) or of a `password`
    /// parameter.
    static func withoutPassword(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
        var result = String(url[..<schemeEnd.upperBound])
        // The user part ends at the last `@` before the query, even when the password holds
        // a `/` that libpq itself would stumble on.
        if let at = rest[..<queryStart].lastIndex(of: "@") {
            let user = rest[..<at]
            result += user.firstIndex(of: ":").map { user[..<$0] } ?? user
            result += rest[at..<queryStart]
        } else {
            result += rest[..<queryStart]
        }
        guard queryStart < rest.endIndex else { return result }
        let pairs = rest[rest.index(after: queryStart)...].split(separator: "&", omittingEmptySubsequences: false)
        let kept = pairs.filter { percentDecoded(split($0).key) != "password" }
        return result + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    private static func split(_ pair: Substring) -> (key: Substring, value: Substring?) {
        guard let equals = pair.firstIndex(of: "=") else { return (pair, nil) }
        return (pair[..<equals], pair[pair.index(after: equals)...])
    }

    /// `text` with its `%XX` escapes decoded as libpq decodes them; `nil` when an escape is
    /// malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(HexDigit.value), let low = utf8.next().flatMap(HexDigit.value) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
