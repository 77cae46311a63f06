import Foundation

extension String {
    /// Whether this text holds the same code points as `other`: how the stores compare text
    /// (bytewise), where `==` takes canonically equivalent texts (`"é"` and `"e\u{301}"`) for one.
    func hasSameCodePoints(as other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        let same = a.withContiguousStorageIfAvailable { x in
            b.withContiguousStorageIfAvailable { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
        return (same ?? nil) ?? a.elementsEqual(b)
    }

    /// Feeds this text's code points (its UTF-8 bytes) and their count to `hasher`, agreeing with
    /// ``hasSameCodePoints(as:)``.
    func hashCodePoints(into hasher: inout Hasher) {
        var text = self
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(text.utf8.count)
    }
}
