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
    ///
    /// One value is switched over at a time, not a pair of them: a pair is a copy of both,
    /// which retains and releases a stored text.
    func matches(_ stored: StoredValue) -> Bool {
        switch self {
        case .null:
            guard case .null = stored else { return false }
            return true
        case .integer(let a):
            guard case .integer(let b) = stored else { return false }
            return a == b
        case .real(let a):
            guard case .real(let b) = stored else { return false }
            return a == b
        case .bytes(let a):
            guard case .text(let b) = stored, b.utf8.count == a.count else { return false }
            return a.isEmpty || b.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, a.baseAddress!, a.count) == 0 }
                ?? b.utf8.elementsEqual(a)
        case .text(let a):
            guard case .text(let b) = stored else { return false }
            return a.hasSameCodePoints(as: b)
        }
    }

    /// The UTF-8 length of a `bytes` or `text` value; 0 for other values.
    var textLength: Int {
        switch self {
        case .bytes(let b): return b.count
        case .text(let s): return s.utf8.count
        default: return 0
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
