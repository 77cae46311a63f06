/// Estimates of the heap bytes that values kept across records hold, for the structures that
/// bound themselves by bytes (``KeyCaches``, the originals of ``RowTracker``).
enum MemoryEstimate {
    /// What a dictionary entry costs beyond what its key and value point at: its bucket at the
    /// dictionary's usual load, and a share of the space a growing dictionary leaves free.
    static let dictionaryEntry = 96

    /// Heap bytes `text` keeps alive: none for the short strings Swift keeps inline, else its
    /// UTF-8 and the header and rounding of its allocation.
    static func heapBytes(of text: String) -> Int { heapBytes(ofUTF8Count: text.utf8.count) }

    static func heapBytes(ofUTF8Count count: Int) -> Int { count <= 15 ? 0 : count + 48 }

    /// Heap bytes an array of `values` keeps alive.
    static func heapBytes(of values: [StoredValue?]) -> Int {
        var total = 32 + values.count * MemoryLayout<StoredValue?>.stride
        for case .text(let text)? in values { total += heapBytes(of: text) }
        return total
    }

    static func heapBytes(of values: [StoredValue]) -> Int {
        var total = 32 + values.count * MemoryLayout<StoredValue>.stride
        for case .text(let text) in values { total += heapBytes(of: text) }
        return total
    }

    /// Heap bytes `values` would keep alive once stored (``Value/stored``).
    static func heapBytes(of values: [Value?]) -> Int {
        var total = 32 + values.count * MemoryLayout<StoredValue?>.stride
        for value in values {
            switch value {
            case .bytes(let bytes)?: total += heapBytes(ofUTF8Count: bytes.count)
            case .text(let text)?: total += heapBytes(of: text)
            default: continue
            }
        }
        return total
    }
}
