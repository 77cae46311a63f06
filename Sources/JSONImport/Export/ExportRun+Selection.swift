extension ExportRun {
    /// The root rows the request selects, a page at a time in key order.
    ///
    /// - Throws: ``QueryError`` for a malformed filter or unknown name in it, or a key that
    ///   does not convert.
    static func selection(of request: ExportRequest, entity: EntityPlan, store: Store) throws -> KeyOrderPages {
        let filter = try parsedFilter(request.filter)
        let keys = try request.ids.map { try store.key(of: entity, from: $0) }
        return KeyOrderPages(store: store, entity: entity, filter: filter, keys: keys)
    }

    private static func parsedFilter(_ text: String?) throws(QueryError) -> FilterExpression? {
        guard let text else { return nil }
        do throws(FilterError) {
            return try FilterParser.parse(text)
        } catch {
            throw QueryError(error)
        }
    }
}
