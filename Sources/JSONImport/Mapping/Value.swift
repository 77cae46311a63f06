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

extension SQLiteStatement {
    func bind(_ value: Value, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let v): bind(v, at: index)
        case .real(let v): bind(v, at: index)
        case .bytes(let b): bind(borrowing: b, at: index)
        case .text(let s): bind(s, at: index)
        }
    }

    /// The text of column `column` of the current row when it spells the same number as the
    /// decimal `value`; `nil` otherwise.
    func decimalText(equalTo value: Value, at column: Int) -> String? {
        guard columnType(at: column) == .text else { return nil }
        let stored = textBytes(at: column)
        guard value.withUTF8({ DecimalOrder.compare($0, stored) == 0 }) == true else { return nil }
        return String(decoding: stored, as: UTF8.self)
    }

    /// `true` when column `column` of the current row holds exactly `value`.
    func holds(_ value: Value, at column: Int) -> Bool {
        switch value {
        case .null: return isNull(at: column)
        case .integer(let v): return columnType(at: column) == .integer && int64(at: column) == v
        case .real(let v):
            let type = columnType(at: column)
            return (type == .real || type == .integer) && double(at: column) == v
        case .bytes, .text:
            guard columnType(at: column) == .text else { return false }
            let stored = textBytes(at: column)
            return value.withUTF8 { $0.elementsEqual(stored) } ?? false
        }
    }
}
