/// A byte of flags per row id, stored in pages of consecutive ids: about one byte per row for
/// the dense ids SQLite hands out, so counting the rows of a very large import stays small
/// next to a hash map (which costs over a dozen bytes per row).
struct RowFlagMap {
    private static let pageBits = 10
    private static let pageSize = 1 << pageBits
    private var pages: [Int64: [UInt8]] = [:]
    /// Rows with non-zero flags.
    private(set) var count = 0

    /// The flags of `row`; `nil` (stored as zero) when it has none.
    subscript(row: Int64) -> UInt8? {
        get {
            guard let page = pages[row >> Self.pageBits] else { return nil }
            let flags = page[Int(row & Int64(Self.pageSize - 1))]
            return flags == 0 ? nil : flags
        }
        set {
            let value = newValue ?? 0
            let slot = Int(row & Int64(Self.pageSize - 1))
            let key = row >> Self.pageBits
            if pages[key] == nil {
                guard value != 0 else { return }
                pages[key] = [UInt8](repeating: 0, count: Self.pageSize)
            }
            let old = pages[key]![slot]
            pages[key]![slot] = value
            count += (old == 0 ? 1 : 0) - (value == 0 ? 1 : 0)
        }
    }

    @discardableResult
    mutating func removeValue(forKey row: Int64) -> UInt8? {
        let old = self[row]
        self[row] = nil
        return old
    }

    /// Every row with flags, with them (in no particular order).
    func compactMap<T>(_ transform: (Int64, UInt8) -> T?) -> [T] {
        var result: [T] = []
        for (key, page) in pages {
            for (slot, flags) in page.enumerated() where flags != 0 {
                if let value = transform(key << Self.pageBits | Int64(slot), flags) { result.append(value) }
            }
        }
        return result
    }
}
