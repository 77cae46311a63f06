import Foundation

/// A converted attribute value on its way into the store.
///
/// `bytes` points into the JSON document being imported (no copy); it is valid only while that
/// document is, so a `Value` never outlives the record being imported.
enum Value {
    case null
    case integer(Int64)
    case real(Double)
    case bytes(UnsafeBufferPointer<UInt8>)
    case text(String)

    init(_ stored: StoredValue) {
        switch stored {
        case .null: self = .null
        case .integer(let v): self = .integer(v)
        case .real(let v): self = .real(v)
        case .text(let v): self = .text(v)
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// An owned copy, safe to keep after the document is gone.
    var stored: StoredValue {
        switch self {
        case .null: return .null
        case .integer(let v): return .integer(v)
        case .real(let v): return .real(v)
        case .bytes(let b): return .text(String(decoding: b, as: UTF8.self))
        case .text(let s): return .text(s)
        }
    }

    /// `true` when this value is exactly `stored`.
    func matches(_ stored: StoredValue) -> Bool {
        switch (self, stored) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b
        case (.bytes(let a), .text(var b)):
            return b.utf8.count == a.count && b.withUTF8 { a.isEmpty || memcmp($0.baseAddress!, a.baseAddress!, a.count) == 0 }
        case (.text(let a), .text(let b)): return a == b
        default: return false
        }
    }

    /// The text of a `bytes` or `text` value.
    var string: String? {
        switch self {
        case .bytes(let b): return String(decoding: b, as: UTF8.self)
        case .text(let s): return s
        default: return nil
        }
    }

    /// Calls `body` with the UTF-8 bytes of a text value.
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        switch self {
        case .bytes(let b): return body(b)
        case .text(var s): return s.withUTF8(body)
        default: return nil
        }
    }
}
