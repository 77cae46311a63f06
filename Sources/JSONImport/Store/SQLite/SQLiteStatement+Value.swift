/// Binding and comparing the importer's values in place, without copying stored values out.
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
    /// decimal `value`, or the same numbers as the `[decimal]` `value` when `isArray`; `nil`
    /// otherwise.
    func decimalText(equalTo value: Value, at column: Int, isArray: Bool = false) -> String? {
        guard columnType(at: column) == .text else { return nil }
        let stored = textBytes(at: column)
        guard value.withUTF8({ DecimalOrder.areEqual($0, stored, isArray: isArray) }) == true else { return nil }
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
