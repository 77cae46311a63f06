/// Checks number text against the JSON number grammar, the one syntax values accept for
/// "a string holding a number" (no `+`, no leading zeros, no `inf`/`nan`, no hex).
enum NumberSyntax {
    /// `true` when `text` is a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`.
    static func isJSONNumber(_ text: some StringProtocol) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable({ isJSONNumber($0) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { isJSONNumber($0) }
    }

    /// `true` when `bytes` is a JSON number.
    static func isJSONNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        func digitRun() -> Int {
            let start = i
            while i < n, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i - start
        }
        if i < n, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n else { return false }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digitRun() == 0 {
            return false
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digitRun() > 0 else { return false }
        }
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digitRun() > 0 else { return false }
        }
        return i == n
    }

    /// `true` when a JSON number's text has no fraction or exponent.
    static func isIntegerText(_ text: some StringProtocol) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}
