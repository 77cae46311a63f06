/// What a fetch of an HTTP API keeps between runs, per page it fetched (SPEC 7): the page's
/// `ETag` and `Last-Modified`, the next page's URL and the keys of its root records, so that the
/// next fetch sends conditional requests and counts a `304` as the same records again; and the
/// `since` value of an incremental sync.
///
/// The pages live in the bookkeeping table `_jsonimport_fetch`, one row per entity, first URL
/// (`origin`) and page URL, created by the first fetch that writes it (in its transaction, so a
/// failed or dry-run fetch leaves no table behind). The storage of the mappings does not hold it:
/// `schema` does not print it and migrations leave it alone; its keys stay valid when a
/// migration rebuilds the entity's table.
extension Store {
    /// One page as the last successful fetch of its first URL left it.
    struct FetchPageState: Equatable {
        /// The page's URL as it was requested.
        var url: String
        /// 0-based position of the page in its fetch.
        var page: Int
        var etag: String?
        var lastModified: String?
        /// The URL of the page after it; `nil` on the last page.
        var next: String?
        /// The primary keys of the page's root records as JSON text, in payload order (the
        /// fetch stage reads and writes it).
        var keys: String
        /// The value an incremental sync sends next time, in the form it is sent (on page 0).
        var since: String?
    }

    static let fetchStateTable = "_jsonimport_fetch"

    /// The pages the last successful fetch of `origin` as records of `entity` left, in order;
    /// empty when there is none. Creates the table when it does not exist yet, in the open
    /// transaction.
    func fetchPages(entity: String, origin: String) throws(StoreError) -> [FetchPageState] {
        try createFetchStateTable()
        let rows = try engine.rows(
            "SELECT \"url\", \"page\", \"etag\", \"last_modified\", \"next\", \"keys\", \"since\" FROM \(quote(Self.fetchStateTable)) "
                + "WHERE \"entity\" = ? AND \"origin\" = ? ORDER BY \"page\"",
            [.text(entity), .text(origin)])
        return rows.compactMap { row in
            guard case .text(let url) = row[0], case .integer(let page) = row[1], case .text(let keys) = row[5] else { return nil }
            return FetchPageState(
                url: url, page: Int(page), etag: row[2].text, lastModified: row[3].text, next: row[4].text, keys: keys,
                since: row[6].text)
        }
    }

    /// Replaces what the last fetch of `origin` as records of `entity` left with `pages`.
    func replaceFetchPages(entity: String, origin: String, with pages: [FetchPageState]) throws(StoreError) {
        try createFetchStateTable()
        let table = quote(Self.fetchStateTable)
        try engine.run("DELETE FROM \(table) WHERE \"entity\" = ? AND \"origin\" = ?", [.text(entity), .text(origin)])
        for page in pages {
            try engine.run(
                "INSERT INTO \(table) (\"entity\", \"origin\", \"url\", \"page\", \"etag\", \"last_modified\", \"next\", \"keys\", \"since\") "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(entity), .text(origin), .text(page.url), .integer(Int64(page.page)), .optionalText(page.etag),
                    .optionalText(page.lastModified), .optionalText(page.next), .text(page.keys), .optionalText(page.since),
                ])
        }
    }

    private func createFetchStateTable() throws(StoreError) {
        let text = engine.dialect.typeName(of: .scalar(.string))
        let integer = engine.dialect.typeName(of: .scalar(.int))
        try engine.run(
            """
            CREATE TABLE IF NOT EXISTS \(quote(Self.fetchStateTable)) (
              "entity" \(text) NOT NULL,
              "origin" \(text) NOT NULL,
              "url" \(text) NOT NULL,
              "page" \(integer) NOT NULL,
              "etag" \(text),
              "last_modified" \(text),
              "next" \(text),
              "keys" \(text) NOT NULL,
              "since" \(text),
              PRIMARY KEY ("entity", "origin", "url")
            )
            """, [])
    }
}

extension StoredValue {
    /// The text, or `nil` for anything else.
    fileprivate var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    fileprivate static func optionalText(_ text: String?) -> StoredValue { text.map(StoredValue.text) ?? .null }
}
