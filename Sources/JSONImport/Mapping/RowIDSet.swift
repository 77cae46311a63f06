/// A set of row ids. Up to ``scanLimit`` ids it is an array, scanned: most sets a record makes
/// (the targets of its links, the rows pointing at one row) hold a few ids, and a scan of
/// those costs less than hashing them. Past that, a ``RowTable`` holds them, hashed by one
/// multiplication an id where `Set` runs SipHash (some 90 instructions): the read-ahead of a
/// batch and the gathering of its keys build and probe such sets for every row and link a
/// batch names.
///
/// A value, as `Set` is: a copy shares the table until either side changes.
struct RowIDSet: Sequence, ExpressibleByArrayLiteral {
    private var small: [Int64] = []
    private var table: RowTable<Void>?
    static let scanLimit = 16

    /// An empty set with room for `minimumCapacity` ids before it grows.
    init(minimumCapacity: Int = 0) {
        if minimumCapacity > Self.scanLimit {
            table = RowTable(minimumCapacity: minimumCapacity)
        } else {
            small.reserveCapacity(minimumCapacity)
        }
    }

    init(_ ids: some Sequence<Int64>) {
        self.init(minimumCapacity: ids.underestimatedCount)
        for id in ids { insert(id) }
    }

    init(arrayLiteral ids: Int64...) {
        self.init(ids)
    }

    var count: Int { table?.count ?? small.count }
    var isEmpty: Bool { count == 0 }
    var underestimatedCount: Int { count }

    /// One of the ids, `nil` when the set is empty.
    var first: Int64? {
        guard let table else { return small.first }
        return table.first { _ in true }?.key
    }

    func contains(_ id: Int64) -> Bool {
        guard let table else { return small.contains(id) }
        return table.index(forKey: id) != nil
    }

    /// Adds `id`; `false` when the set has it already.
    @discardableResult
    mutating func insert(_ id: Int64) -> Bool {
        guard table != nil else {
            if small.contains(id) { return false }
            small.append(id)
            if small.count > Self.scanLimit {
                let table = RowTable<Void>(minimumCapacity: small.count * 2)
                for id in small { _ = table.insertIfAbsent((), forKey: id) }
                self.table = table
                small = []
            }
            return true
        }
        if !isKnownUniquelyReferenced(&table!) {
            guard !contains(id) else { return false }
            table = table!.copy()
        }
        return table!.insertIfAbsent((), forKey: id)
    }

    /// Removes `id`; `false` when the set did not have it.
    @discardableResult
    mutating func remove(_ id: Int64) -> Bool {
        guard table != nil else {
            guard let index = small.firstIndex(of: id) else { return false }
            small.remove(at: index)
            return true
        }
        guard contains(id) else { return false }
        if !isKnownUniquelyReferenced(&table!) { table = table!.copy() }
        return table!.removeValue(forKey: id) != nil
    }

    /// The ids in no particular order.
    func makeIterator() -> Iterator {
        Iterator(small: small.makeIterator(), table: table?.makeIterator())
    }

    struct Iterator: IteratorProtocol {
        fileprivate var small: IndexingIterator<[Int64]>
        fileprivate var table: RowTable<Void>.Iterator?

        mutating func next() -> Int64? {
            if table != nil { return table!.next()?.key }
            return small.next()
        }
    }
}
