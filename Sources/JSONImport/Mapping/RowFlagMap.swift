/// A byte of flags per row id, stored in pages of consecutive ids: about one byte per row for
/// the dense ids SQLite hands out, so counting the rows of a very large import stays small next
/// to a hash map (which costs over a dozen bytes per row). Pages sit in fixed 64 KB blocks, so
/// growing never copies what is there (a copy would briefly double the memory), and the page
/// last written is remembered, so runs of nearby rows cost no hashing.
struct RowFlagMap {
    private static let pageBits = 10
    private static let pageSize = 1 << pageBits
    private static let pagesPerBlock = 64
    /// Page number → index of the page in `blocks` (block `index / pagesPerBlock`).
    private var pageIndex: [Int64: Int] = [:]
    private var blocks: [[UInt8]] = []
    private var lastPage = Int64.min
    private var lastIndex = 0
    /// Rows with non-zero flags.
    private(set) var count = 0

    /// The flags of `row`; `nil` (stored as zero) when it has none.
    subscript(row: Int64) -> UInt8? {
        get {
            let page = row >> Self.pageBits
            guard let index = page == lastPage ? lastIndex : pageIndex[page] else { return nil }
            let flags = blocks[index / Self.pagesPerBlock][Self.offset(index, row)]
            return flags == 0 ? nil : flags
        }
        set {
            let value = newValue ?? 0
            let page = row >> Self.pageBits
            if page != lastPage {
                if let index = pageIndex[page] {
                    lastIndex = index
                } else {
                    guard value != 0 else { return }
                    lastIndex = pageIndex.count
                    pageIndex[page] = lastIndex
                    if lastIndex % Self.pagesPerBlock == 0 {
                        blocks.append([UInt8](repeating: 0, count: Self.pagesPerBlock * Self.pageSize))
                    }
                }
                lastPage = page
            }
            let offset = Self.offset(lastIndex, row)
            let old = blocks[lastIndex / Self.pagesPerBlock][offset]
            blocks[lastIndex / Self.pagesPerBlock][offset] = value
            count += (old == 0 ? 1 : 0) - (value == 0 ? 1 : 0)
        }
    }

    /// Where `row` sits in the block of page number `index`.
    private static func offset(_ index: Int, _ row: Int64) -> Int {
        (index % pagesPerBlock) * pageSize + Int(row & Int64(pageSize - 1))
    }

    @discardableResult
    mutating func removeValue(forKey row: Int64) -> UInt8? {
        let old = self[row]
        self[row] = nil
        return old
    }

    /// Calls `body` with every row that has flags, in ascending order.
    func forEach<E: Error>(_ body: (Int64, UInt8) throws(E) -> Void) throws(E) {
        for (page, index) in pageIndex.sorted(by: { $0.key < $1.key }) {
            let block = blocks[index / Self.pagesPerBlock]
            let start = Self.offset(index, page << Self.pageBits)
            for slot in 0..<Self.pageSize where block[start + slot] != 0 {
                try body(page << Self.pageBits | Int64(slot), block[start + slot])
            }
        }
    }
}
