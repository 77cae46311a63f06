/// Orders the stored text of `decimal` values by the numbers it spells, exactly: no digit is
/// rounded, however many there are, so `10.5`, `10.50` and `1.05e1` are equal and
/// `0.1000000000000000000000000001` is greater than `0.1`.
///
/// Values are JSON number text (what `decimal` accepts). Text that is not a number sorts after
/// every number, bytewise among itself, so the order stays total whatever a column holds.
enum DecimalOrder {
    /// `-1`, `0` or `1` as `a` is less than, equal to or greater than `b`.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        switch (Number(a), Number(b)) {
        case (let x?, let y?): return x.compare(to: y, a, b)
        case (nil, nil): return bytewise(a, b)
        case (nil, _): return 1
        case (_, nil): return -1
        }
    }

    /// `true` when `a` and `b` spell the same number or, for the stored text of two `[decimal]`
    /// values (`isArray`: JSON arrays of strings and nulls), the same numbers and nulls in the
    /// same order: `["10.5",null]` and `["10.50",null]` are equal. Array text of any other form
    /// is equal only to the same bytes.
    static func areEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, isArray: Bool) -> Bool {
        guard isArray else { return compare(a, b) == 0 }
        guard let x = elements(a), let y = elements(b), x.count == y.count else { return bytewise(a, b) == 0 }
        return zip(x, y).allSatisfy { x, y in
            guard let x, let y else { return x == nil && y == nil }
            return compare(UnsafeBufferPointer(rebasing: a[x]), UnsafeBufferPointer(rebasing: b[y])) == 0
        }
    }

    /// The ranges of the elements' text in a JSON array of strings without escapes and nulls
    /// (`nil` ranges); `nil` for anything else.
    private static func elements(_ text: UnsafeBufferPointer<UInt8>) -> [Range<Int>?]? {
        var ranges: [Range<Int>?] = []
        var i = 0
        func skipSpace() { while i < text.count, text[i] == 0x20 || text[i] == 0x0A || text[i] == 0x0D || text[i] == 0x09 { i += 1 } }
        func isNull() -> Bool {
            guard text.count - i >= 4, text[i] == UInt8(ascii: "n"), text[i + 1] == UInt8(ascii: "u"),
                text[i + 2] == UInt8(ascii: "l"), text[i + 3] == UInt8(ascii: "l")
            else { return false }
            i += 4
            return true
        }
        skipSpace()
        guard i < text.count, text[i] == UInt8(ascii: "[") else { return nil }
        i += 1
        skipSpace()
        if i < text.count, text[i] == UInt8(ascii: "]") {
            i += 1
        } else {
            while true {
                if isNull() {
                    ranges.append(nil)
                } else {
                    guard i < text.count, text[i] == UInt8(ascii: "\"") else { return nil }
                    let start = i + 1
                    i = start
                    while i < text.count, text[i] != UInt8(ascii: "\""), text[i] != UInt8(ascii: "\\") { i += 1 }
                    guard i < text.count, text[i] == UInt8(ascii: "\"") else { return nil }
                    ranges.append(start..<i)
                    i += 1
                }
                skipSpace()
                guard i < text.count else { return nil }
                if text[i] == UInt8(ascii: "]") { i += 1; break }
                guard text[i] == UInt8(ascii: ",") else { return nil }
                i += 1
                skipSpace()
            }
        }
        skipSpace()
        return i == text.count ? ranges : nil
    }

    private static func bytewise(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// A number as `±0.d₁d₂… × 10^exponent` with `d₁ ≠ 0`, its digits left in the text.
    private struct Number {
        let isNegative: Bool
        /// `nil` for zero.
        let exponent: Int?
        /// Byte offsets of the first and last significant digit (a `.` between is skipped).
        let first: Int
        let last: Int

        /// Parses JSON number text; `nil` when `text` is not one.
        init?(_ text: UnsafeBufferPointer<UInt8>) {
            guard NumberSyntax.isJSONNumber(text) else { return nil }
            var i = 0
            isNegative = text.first == UInt8(ascii: "-")
            if isNegative { i = 1 }
            var mantissaEnd = i
            while mantissaEnd < text.count, text[mantissaEnd] != UInt8(ascii: "e"), text[mantissaEnd] != UInt8(ascii: "E") {
                mantissaEnd += 1
            }
            var integerDigits = 0
            var seenDot = false
            var leadingZeros = 0
            var first = -1, last = -1
            for j in i..<mantissaEnd {
                let byte = text[j]
                if byte == UInt8(ascii: ".") {
                    seenDot = true
                    continue
                }
                if !seenDot { integerDigits += 1 }
                if byte != UInt8(ascii: "0") {
                    if first < 0 { first = j }
                    last = j
                } else if first < 0 {
                    leadingZeros += 1
                }
            }
            self.first = first
            self.last = last
            guard first >= 0 else {
                exponent = nil
                return
            }
            exponent = integerDigits - leadingZeros + Self.exponent(text, from: mantissaEnd)
        }

        /// The value after `e`, saturated far beyond any digit count a text can hold.
        private static func exponent(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            guard start < text.count else { return 0 }
            var i = start + 1
            var isNegative = false
            if text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
                isNegative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            var value = 0
            while i < text.count {
                value = min(value * 10 + Int(text[i] - UInt8(ascii: "0")), 1 << 50)
                i += 1
            }
            return isNegative ? -value : value
        }

        func compare(to other: Number, _ text: UnsafeBufferPointer<UInt8>, _ otherText: UnsafeBufferPointer<UInt8>) -> Int {
            let sign = isNegative && exponent != nil ? -1 : 1
            let otherSign = other.isNegative && other.exponent != nil ? -1 : 1
            guard let exponent, let otherExponent = other.exponent else {
                // At least one is zero.
                let mine = self.exponent == nil ? 0 : sign
                let theirs = other.exponent == nil ? 0 : otherSign
                return mine == theirs ? 0 : (mine < theirs ? -1 : 1)
            }
            if sign != otherSign { return sign < otherSign ? -1 : 1 }
            return sign * magnitudeOrder(exponent, otherExponent, other, text, otherText)
        }

        private func magnitudeOrder(
            _ exponent: Int, _ otherExponent: Int, _ other: Number, _ text: UnsafeBufferPointer<UInt8>,
            _ otherText: UnsafeBufferPointer<UInt8>
        ) -> Int {
            if exponent != otherExponent { return exponent < otherExponent ? -1 : 1 }
            var i = first, j = other.first
            while i <= last && j <= other.last {
                if text[i] == UInt8(ascii: ".") {
                    i += 1
                    continue
                }
                if otherText[j] == UInt8(ascii: ".") {
                    j += 1
                    continue
                }
                if text[i] != otherText[j] { return text[i] < otherText[j] ? -1 : 1 }
                i += 1
                j += 1
            }
            // Both runs end on a non-zero digit: the one with digits left is larger.
            if i <= last { return 1 }
            if j <= other.last { return -1 }
            return 0
        }
    }
}
