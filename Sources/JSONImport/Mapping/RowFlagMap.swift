/// A byte of flags per row id. Rows whose ids are dense (as SQLite hands them out, or keys like
/// 1, 2, 3) live in pages of consecutive ids, about one byte per row; until a page is made its
/// rows sit in a sorted list (``SparseRows``, about 10 bytes a row), so sparse keys (random
/// 64-bit ids) cost that rather than a page each. A page is made once `densePageRows` of its
/// rows have flags, or `thinPageRows` while the pages made so far hold at least a row per
/// `maximumBytesPerRow` bytes on the whole: data with dense ids makes its pages early, and ids
/// that leave pages thin (one row in 64 ids) cannot make their pages cost more than the list.
/// Pages sit in fixed 64 KB blocks, so growing never copies what is there (a copy would
/// briefly double the memory), and the page last used is remembered, so runs of nearby rows
/// cost no hashing.
struct RowFlagMap {
    private static let pageBits = 10
    private static let pageSize = 1 << pageBits
    private static let pagesPerBlock = 64
    private static let thinPageRows = 16
    private static let maximumBytesPerRow = 8
    private static let densePageRows = pageSize / maximumBytesPerRow
    /// Page number → index of the page in `blocks` (block `index / pagesPerBlock`). A row table,
    /// which hashes a page number by one multiplication (a `Dictionary` runs SipHash, about 1 % of
    /// the importing thread's instructions in a re-import); copied before it changes when
    /// another map shares it.
    private var pageIndex = RowTable<Int>()
    private var blocks: [[UInt8]] = []
    private var lastPage = Int64.min
    private var lastIndex = 0
    /// Rows with flags in the pages made so far.
    private var rowsInPages = 0
    /// Flags of the rows of pages not made yet.
    private var sparse = SparseRows()
    /// The bytes the pages and the sorted list have allocated.
    var allocatedBytes: Int { blocks.count * Self.pagesPerBlock * Self.pageSize + sparse.allocatedBytes }

    /// Rows with non-zero flags (counted by walking them).
    var count: Int {
        var rows = 0
        forEach { _, _ in rows += 1 }
        return rows
    }

    /// The flags of `row`; `nil` (stored as zero) when it has none.
    subscript(row: Int64) -> UInt8? {
        get {
            let page = row >> Self.pageBits
            guard let index = page == lastPage ? lastIndex : pageIndex[page] else { return sparse[row] }
            let flags = blocks[index / Self.pagesPerBlock][Self.offset(index, row)]
            return flags == 0 ? nil : flags
        }
        set {
            let value = newValue ?? 0
            let page = row >> Self.pageBits
            if page != lastPage {
                guard let index = pageIndex[page] ?? makePageIfDense(page, adding: row, value) else {
                    setSparse(row, value)
                    return
                }
                lastPage = page
                lastIndex = index
            }
            let offset = Self.offset(lastIndex, row)
            let old = blocks[lastIndex / Self.pagesPerBlock][offset]
            blocks[lastIndex / Self.pagesPerBlock][offset] = value
            if (old == 0) != (value == 0) { rowsInPages += value == 0 ? -1 : 1 }
        }
    }

    /// Where `row` sits in the block of page number `index`.
    private static func offset(_ index: Int, _ row: Int64) -> Int {
        (index % pagesPerBlock) * pageSize + Int(row & Int64(pageSize - 1))
    }

    /// Makes page `page` when giving `row` flags brings it to `densePageRows` rows (or
    /// `thinPageRows` while the pages are dense on the whole), moving its rows out of `sparse`;
    /// returns its index, or `nil` when the page stays sparse.
    private mutating func makePageIfDense(_ page: Int64, adding row: Int64, _ value: UInt8) -> Int? {
        guard value != 0, sparse[row] == nil else { return nil }
        let rows = Self.rows(of: page)
        let pageRows = sparse.count(in: rows) + 1
        guard pageRows >= Self.thinPageRows else { return nil }
        let pagesAreDense = (pageIndex.count + 1) * Self.pageSize <= Self.maximumBytesPerRow * (rowsInPages + pageRows)
        guard pagesAreDense || pageRows >= Self.densePageRows else { return nil }
        let index = pageIndex.count
        if !isKnownUniquelyReferenced(&pageIndex) { pageIndex = pageIndex.copy() }
        pageIndex[page] = index
        if index % Self.pagesPerBlock == 0 {
            blocks.append([UInt8](repeating: 0, count: Self.pagesPerBlock * Self.pageSize))
        }
        for (row, flags) in sparse.removeRows(in: rows) {
            blocks[index / Self.pagesPerBlock][Self.offset(index, row)] = flags
            rowsInPages += 1
        }
        return index
    }

    /// The row ids of page number `page`.
    private static func rows(of page: Int64) -> ClosedRange<Int64> {
        (page << pageBits)...(page << pageBits | Int64(pageSize - 1))
    }

    private mutating func setSparse(_ row: Int64, _ value: UInt8) {
        sparse[row] = value == 0 ? nil : value
    }

    @discardableResult
    mutating func removeValue(forKey row: Int64) -> UInt8? {
        let old = self[row]
        self[row] = nil
        return old
    }

    /// Calls `body` with every row that has flags, in ascending order.
    func forEach<E: Error>(_ body: (Int64, UInt8) throws(E) -> Void) throws(E) {
        var sparseRows = sparse.makeIterator()
        var nextSparse = sparseRows.next()
        for (page, index) in pageIndex.sorted(by: { $0.key < $1.key }) {
            let first = page << Self.pageBits
            while let (row, flags) = nextSparse, row < first {
                try body(row, flags)
                nextSparse = sparseRows.next()
            }
            let block = blocks[index / Self.pagesPerBlock]
            let start = Self.offset(index, first)
            for slot in 0..<Self.pageSize where block[start + slot] != 0 {
                try body(first | Int64(slot), block[start + slot])
            }
        }
        while let (row, flags) = nextSparse {
            try body(row, flags)
            nextSparse = sparseRows.next()
        }
    }
}
