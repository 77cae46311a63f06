/// Reading large results without holding them: records a page at a time.
extension Query {
    /// Calls `body` with every matching record, in order, decoding them a page (1,000 records)
    /// at a time, so that memory holds one page whatever the number of matches. The whole
    /// loop reads one committed state (one read transaction).
    ///
    /// ```swift
    /// try mapper.query(User.self).order(by: "login").forEach { user in print(user.login) }
    /// ```
    ///
    /// - Parameter body: called once per record; a throw stops the loop and is rethrown.
    /// - Throws: as ``all()-6ni5f``, and what `body` throws.
    public func forEach(_ body: (Record) throws -> Void) throws {
        try mapper.store.withReader { store in
            let (entity, rows) = try rowIDs(in: store)
            try DecodingContext(store: store).forEach(Record.self, entity: entity, rows: rows, body)
        }
    }
}

extension Query where Record: Sendable {
    /// The matching records as an async sequence, decoded a page (1,000 records) at a time as
    /// the loop asks for them.
    ///
    /// ```swift
    /// for try await user in mapper.query(User.self).where("score > 50").values() {
    ///     await index.add(user)
    /// }
    /// ```
    ///
    /// The query selects its rows when the loop starts; each page is then read in a read
    /// transaction of its own, so a loop that takes long never holds one open. A row deleted
    /// after the loop started is left out, and a row changed meanwhile reads as it is when
    /// its page is read. Ending the loop early reads nothing more.
    public func values() -> QueryValues<Record> { QueryValues(query: self) }
}

/// The records of a query, a page at a time; see ``Query/values()``.
public struct QueryValues<Record: Decodable & Sendable>: AsyncSequence, Sendable {
    let query: Query<Record>

    public func makeAsyncIterator() -> Iterator { Iterator(query: query) }

    /// Reads the next page when the one it holds is used up.
    public struct Iterator: AsyncIteratorProtocol {
        let query: Query<Record>
        /// The rows selected, once the loop has started.
        private var rows: [Int64]?
        /// Where the next page starts in `rows`.
        private var nextPage = 0
        private var page: [Record] = []
        private var nextInPage = 0

        init(query: Query<Record>) { self.query = query }

        public mutating func next() async throws -> Record? {
            while nextInPage == page.count {
                let query = self.query
                if self.rows == nil {
                    self.rows = try await query.mapper.offExecutor {
                        try query.mapper.store.withReader { store in try query.rowIDs(in: store).rows }
                    }
                }
                let rows = self.rows!
                guard nextPage < rows.count else { return nil }
                let ids = Array(rows[nextPage..<Swift.min(nextPage + DecodingContext.pageSize, rows.count)])
                nextPage += ids.count
                page = try await query.mapper.offExecutor {
                    try query.mapper.store.withReader { store in
                        try DecodingContext(store: store).decodeExisting(Record.self, entity: store.entityPlan(query.entity), rows: ids)
                    }
                }
                nextInPage = 0
            }
            defer { nextInPage += 1 }
            return page[nextInPage]
        }
    }
}
