/// A byte of flags per row id, stored in pages of consecutive ids laid end to end in one
/// buffer: about one byte per row for the dense ids SQLite hands out, so counting the rows of a
/// very large import stays small next to a hash map (which costs over a dozen bytes per row).
/// The page last written is remembered, so runs of nearby rows cost no hashing.
struct RowFlagMap {
    private static let pageBits = 10
    private static let pageSize = 1 << pageBits
    /// Page number → offset of the page in `bytes`.
    private var offsets: [Int64: Int] = [:]
    private var bytes: [UInt8] = []
    private var lastPage = Int64.min
    private var lastOffset = 0
    /// Rows with non-zero flags.
    private(set) var count = 0

    /// The flags of `row`; `nil` (stored as zero) when it has none.
    subscript(row: Int64) -> UInt8? {
        get {
            let page = row >> Self.pageBits
            guard let offset = page == lastPage ? lastOffset : offsets[page] else { return nil }
            let flags = bytes[offset + Int(row & Int64(Self.pageSize - 1))]
            return flags == 0 ? nil : flags
        }
        set {
            let value = newValue ?? 0
            let page = row >> Self.pageBits
            if page != lastPage {
                if let offset = offsets[page] {
                    lastOffset = offset
                } else {
                    guard value != 0 else { return }
                    lastOffset = bytes.count
                    offsets[page] = lastOffset
                    bytes.append(contentsOf: repeatElement(0, count: Self.pageSize))
                }
                lastPage = page
            }
            let index = lastOffset + Int(row & Int64(Self.pageSize - 1))
            let old = bytes[index]
            bytes[index] = value
            count += (old == 0 ? 1 : 0) - (value == 0 ? 1 : 0)
        }
    }

    @discardableResult
    mutating func removeValue(forKey row: Int64) -> UInt8? {
        let old = self[row]
        self[row] = nil
        return old
    }

    /// Calls `body` with every row that has flags, in ascending order.
    func forEach<E: Error>(_ body: (Int64, UInt8) throws(E) -> Void) throws(E) {
        for (page, offset) in offsets.sorted(by: { $0.key < $1.key }) {
            for slot in 0..<Self.pageSize where bytes[offset + slot] != 0 {
                try body(page << Self.pageBits | Int64(slot), bytes[offset + slot])
            }
        }
    }
}
