/// What a read's result decodes to (``PostgresImportRows/Load/decode(_:)``): decoding reads
/// the result alone, so the worker thread of a background hand-over decodes what it read while
/// the row path goes on (see ``BackgroundHandOver``).
extension PostgresImportRows {
    /// How a read's result decodes: rows read by ``selectColumns(_:)`` of an entity with
    /// `attributes` attributes and `links` link columns, links (source, target, position), or
    /// row ids.
    enum Decoding {
        case rows(attributes: Int, links: Int)
        case lists
        case ids
    }

    /// A row read by ``selectColumns(_:)``: its id, attributes, link columns and stub mark.
    typealias DecodedRow = (id: Int64, values: [StoredValue], columns: [Int64?], isStub: Bool)

    /// A read's result, decoded: rows in the order read; the link list of each source read;
    /// row ids (`nil` for a NULL).
    enum Decoded {
        case rows([DecodedRow])
        case lists([(source: Int64, list: PostgresRowCache.LinkList)])
        case ids([Int64?])

        consuming func rows() -> [DecodedRow] {
            guard case .rows(let rows) = consume self else { preconditionFailure("links decoded where rows were read") }
            return rows
        }

        consuming func lists() -> [(source: Int64, list: PostgresRowCache.LinkList)] {
            guard case .lists(let lists) = consume self else { preconditionFailure("rows decoded where links were read") }
            return lists
        }

        consuming func ids() -> [Int64?] {
            guard case .ids(let ids) = consume self else { preconditionFailure("rows or links decoded where ids were read") }
            return ids
        }
    }

    /// Row id, attributes, link columns and stub mark.
    func selectColumns(_ entity: EntityPlan) -> String {
        (["r.\(entity.rowID)"] + entity.spec.attributes.map { "r.\(quote($0.name))" }
            + entity.selfColumns.map { "r.\(quote(entity.relationships[$0].columnName!))" }
            + [entity.spec.isOwned ? "false" : "r.\"_stub\""])
            .joined(separator: ", ")
    }

    /// How the rows of `entity` read by ``selectColumns(_:)`` decode.
    static func rowDecoding(_ entity: EntityPlan) -> Decoding {
        .rows(attributes: entity.attributes.count, links: entity.selfColumns.count)
    }

    /// The rows of a result of ``selectColumns(_:)``.
    static func decodeRows(_ result: PostgresResult, attributes: Int, links: Int) -> [DecodedRow] {
        let first = 1 + attributes
        var decoded: [DecodedRow] = []
        decoded.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount {
            guard let id = result.integer(row: row, column: 0) else { preconditionFailure("a row id that is not an integer") }
            var values: [StoredValue] = []
            values.reserveCapacity(attributes)
            for column in 1..<first { values.append(result.value(row: row, column: column)) }
            let columns = (0..<links).map { result.integer(row: row, column: first + $0) }
            decoded.append((id, values, columns, result.value(row: row, column: first + links) == .integer(1)))
        }
        return decoded
    }

    /// The lists of the sources of links read (source, target, position) in any order, put in
    /// source and position order here, on the thread that decodes: an `ORDER BY` cost the
    /// server a sort of every read, on the path the importer waits on (half of the read of a
    /// batch's 3,300 tag links). Links come grouped by source (a range of sources is read in
    /// key order, source then target), so only a list whose positions are not in target order
    /// is sorted, unless they come otherwise (sources read one by one, then ranges): then all
    /// are. Each list is made at its size at once.
    static func decodeLists(_ links: PostgresResult) -> [(source: Int64, list: PostgresRowCache.LinkList)] {
        var sources: [Int64] = [], targets: [Int64] = [], positions: [Int64] = []
        sources.reserveCapacity(links.rowCount)
        targets.reserveCapacity(links.rowCount)
        positions.reserveCapacity(links.rowCount)
        var runs = 0
        var isGrouped = true
        for link in 0..<links.rowCount {
            guard let source = links.integer(row: link, column: 0), let target = links.integer(row: link, column: 1),
                let position = links.integer(row: link, column: 2)
            else { continue }
            if let last = sources.last, last != source {
                if last > source { isGrouped = false }
                runs += 1
            }
            sources.append(source)
            targets.append(target)
            positions.append(position)
        }
        if !isGrouped {
            let order = sources.indices.sorted { (sources[$0], positions[$0]) < (sources[$1], positions[$1]) }
            (sources, targets, positions) = (order.map { sources[$0] }, order.map { targets[$0] }, order.map { positions[$0] })
        }
        var lists: [(source: Int64, list: PostgresRowCache.LinkList)] = []
        lists.reserveCapacity(runs + 1)
        var start = 0
        while start < sources.count {
            let source = sources[start]
            var end = start + 1
            var isInPositionOrder = true
            while end < sources.count && sources[end] == source {
                if positions[end] < positions[end - 1] { isInPositionOrder = false }
                end += 1
            }
            if isInPositionOrder {
                lists.append((source, PostgresRowCache.LinkList(
                    isStored: true, targets: Array(targets[start..<end]), positions: positions[start..<end])))
            } else {
                let order = (start..<end).sorted { positions[$0] < positions[$1] }
                lists.append((source, PostgresRowCache.LinkList(
                    isStored: true, targets: order.map { targets[$0] }, positions: ArraySlice(order.map { positions[$0] }))))
            }
            start = end
        }
        return lists
    }
}
