extension PostgresRowCache {
    /// The ids of the cached rows pointing at one row through a link column, never empty. One
    /// id, the common case (and the only one for a unique column), is held without a hash table
    /// of its own.
    enum RowSet {
        case one(Int64)
        case many(RowIDSet)

        /// The ids in increasing order.
        var sorted: [Int64] {
            switch self {
            case .one(let id): return [id]
            case .many(let ids): return ids.sorted()
            }
        }

        mutating func insert(_ id: Int64) {
            switch self {
            case .one(let other):
                if other != id { self = .many([other, id]) }
            case .many(var ids):
                // Let go of the set first, so that it is changed in place.
                self = .one(id)
                ids.insert(id)
                self = .many(ids)
            }
        }

        /// Removes `id`; `false` when that leaves none.
        mutating func remove(_ id: Int64) -> Bool {
            switch self {
            case .one(let other):
                return other != id
            case .many(var ids):
                self = .one(id)
                ids.remove(id)
                self = ids.count == 1 ? .one(ids.first!) : .many(ids)
                return true
            }
        }
    }
}

extension RowTable<PostgresRowCache.RowSet> {
    /// Adds row `id` to the rows pointing at `pointee`.
    func insert(pointer id: Int64, at pointee: Int64) {
        if self[pointee]?.insert(id) == nil { self[pointee] = .one(id) }
    }
}
