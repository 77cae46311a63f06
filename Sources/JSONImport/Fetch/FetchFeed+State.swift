import Foundation

/// What a fetch reads from the last one and leaves for the next (SPEC 7): each page's `ETag`,
/// `Last-Modified`, next link and root-record keys, and the `since` value.
extension FetchFeed {
    /// Reads what the last fetch of the first URL left, and starts from its `since` value.
    func loadState() throws {
        let pages = try store.fetchPages(entity: entity.spec.name, origin: origin.absoluteString)
        stored = Dictionary(pages.map { ($0.url, $0) }) { first, _ in first }
        storedSince = pages.first { $0.page == 0 }?.since
        if let since = options.since, let value = storedSince {
            base = Self.url(origin, setting: since.parameter, to: value)
        }
    }

    /// Replaces what the last fetch of the first URL left with this fetch's pages.
    func saveState() throws {
        var since: String?
        if let parameter = options.since {
            since = try largestValue(of: parameter.attribute) ?? storedSince
        }
        let states = pages.enumerated().map { position, page in
            Store.FetchPageState(
                url: page.url.absoluteString, page: position, etag: page.etag, lastModified: page.lastModified,
                next: page.next?.absoluteString, keys: Self.encodeKeys(page.keys), since: position == 0 ? since : nil)
        }
        try store.replaceFetchPages(entity: entity.spec.name, origin: origin.absoluteString, with: states)
    }

    /// The largest stored value of `attribute` among the rows this fetch's pages returned, in
    /// the form it is sent; `nil` when none holds one.
    private func largestValue(of attribute: String) throws -> String? {
        guard let slot = entity.attributes.firstIndex(where: { $0.spec.name == attribute }) else { return nil }
        let type = entity.attributes[slot].spec.type
        let keys = pages.flatMap(\.keys)
        guard !keys.isEmpty else { return nil }
        let rows = try store.engine.rowIDs(entity, RecordReader.Selection(ids: keys), plan: store.plan)
        var largest: StoredValue?
        for (_, row) in try store.engine.storedRows(entity, rows: rows) {
            let value = row.values[slot]
            guard value != .null else { continue }
            if let current = largest, !Self.isLess(current, value, as: type) { continue }
            largest = value
        }
        return largest.map { Self.parameterText($0, as: type) }
    }

    /// Whether `a` orders before `b`, both stored values of an attribute of `type`.
    static func isLess(_ a: StoredValue, _ b: StoredValue, as type: AttributeType) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y
        case (.integer(let x), .real(let y)): return Double(x) < y
        case (.real(let x), .integer(let y)): return x < Double(y)
        case (.real(let x), .real(let y)): return x < y
        case (.text(var x), .text(var y)):
            if type == .decimal { return x.withUTF8 { a in y.withUTF8 { b in DecimalOrder.compare(a, b) < 0 } } }
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        default: return false
        }
    }

    /// A stored value as a query parameter: a date in ISO 8601 UTC with `Z`, a number as its
    /// digits, text as it is.
    static func parameterText(_ value: StoredValue, as type: AttributeType) -> String {
        switch (type, value) {
        case (.scalar(.date), .real(let seconds)): return DateCoding.format(seconds, format: .iso8601)
        case (.scalar(.date), .integer(let seconds)): return DateCoding.format(Double(seconds), format: .iso8601)
        case (_, .integer(let number)): return String(number)
        case (_, .real(let number)):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case (_, .text(let text)): return text
        case (_, .null): return ""
        }
    }

    /// The types an incremental sync can order by.
    static let sinceTypes: [AttributeType] = [.int, .double, .decimal, .date, .string]

    // MARK: Keys

    /// Keys as the store keeps them: a JSON array with one array of values per key.
    static func encodeKeys(_ keys: [[StoredValue]]) -> String {
        var out = JSONTextWriter()
        out.append("[")
        for (i, key) in keys.enumerated() {
            out.append(i == 0 ? "[" : ",[")
            for (j, value) in key.enumerated() {
                if j > 0 { out.append(",") }
                out.append(value)
            }
            out.append("]")
        }
        out.append("]")
        return out.text
    }

    /// Keys from their ``encodeKeys(_:)`` form.
    ///
    /// - Throws: ``StoreError`` `corrupt` when the text is not that form.
    func decodeKeys(_ text: String) throws -> [[StoredValue]] {
        let corrupt = StoreError(.corrupt, "the stored keys of a fetched page are not a JSON array of keys")
        guard let document = try? parser.parse(JSONInput(text)), document.root.kind == .array else { throw corrupt }
        // Values point into the document's tape and bytes: both live to the end of the scope.
        defer { withExtendedLifetime(document) {} }
        return try document.root.elements.map { key in
            guard key.kind == .array else { throw corrupt }
            return try key.elements.map { value in
                switch value.kind {
                case .null: return .null
                case .string: return .text(value.string ?? "")
                case .number:
                    if let integer = value.exactInt64 { return .integer(integer) }
                    return value.double.map(StoredValue.real) ?? .null
                default: throw corrupt
                }
            }
        }
    }
}
