/// A byte of flags per row id. Rows whose ids are dense (as SQLite hands them out, or keys like
/// 1, 2, 3) live in pages of consecutive ids, about one byte per row; a page is made only once
/// `densePageRows` of its rows have flags, and until then its rows sit in a sorted list
/// (``SparseRows``), so sparse keys (random 64-bit ids) cost 9 to 13 bytes per row rather than a
/// page each. Pages sit in fixed 64 KB blocks, so growing never copies what is there (a copy
/// would briefly double the memory), and the page last used is remembered, so runs of nearby
/// rows cost no hashing.
struct RowFlagMap {
    private static let pageBits = 10
    private static let pageSize = 1 << pageBits
    private static let pagesPerBlock = 64
    private static let densePageRows = 16
    /// Page number → index of the page in `blocks` (block `index / pagesPerBlock`).
    private var pageIndex: [Int64: Int] = [:]
    private var blocks: [[UInt8]] = []
    private var lastPage = Int64.min
    private var lastIndex = 0
    /// Flags of the rows of pages not made yet.
    private var sparse = SparseRows()
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
            blocks[lastIndex / Self.pagesPerBlock][Self.offset(lastIndex, row)] = value
        }
    }

    /// Where `row` sits in the block of page number `index`.
    private static func offset(_ index: Int, _ row: Int64) -> Int {
        (index % pagesPerBlock) * pageSize + Int(row & Int64(pageSize - 1))
    }

    /// Makes page `page` when giving `row` flags brings it to `densePageRows` rows, moving its
    /// rows out of `sparse`; returns its index, or `nil` when the page stays sparse.
    private mutating func makePageIfDense(_ page: Int64, adding row: Int64, _ value: UInt8) -> Int? {
        let rows = Self.rows(of: page)
        guard value != 0, sparse[row] == nil, sparse.count(in: rows, upTo: Self.densePageRows) + 1 >= Self.densePageRows
        else { return nil }
        let index = pageIndex.count
        pageIndex[page] = index
        if index % Self.pagesPerBlock == 0 {
            blocks.append([UInt8](repeating: 0, count: Self.pagesPerBlock * Self.pageSize))
        }
        for (row, flags) in sparse.removeRows(in: rows) {
            blocks[index / Self.pagesPerBlock][Self.offset(index, row)] = flags
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
