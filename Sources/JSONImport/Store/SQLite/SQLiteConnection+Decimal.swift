internal import CSQLite

extension SQLiteConnection {
    /// The collation that orders `decimal` text by numeric value (``DecimalOrder``). Filters and
    /// orderings name it on decimal columns; the schema does not, so other tools can still read
    /// a store without it.
    static let decimalCollation = "ji_decimal"

    /// Registers ``decimalCollation`` on this connection.
    func registerDecimalCollation() throws(StoreError) {
        let rc = sqlite3_create_collation_v2(
            handle, Self.decimalCollation, SQLITE_UTF8, nil,
            { _, count1, bytes1, count2, bytes2 in
                let a = UnsafeBufferPointer(start: bytes1?.assumingMemoryBound(to: UInt8.self), count: Int(count1))
                let b = UnsafeBufferPointer(start: bytes2?.assumingMemoryBound(to: UInt8.self), count: Int(count2))
                return Int32(DecimalOrder.compare(a, b))
            }, nil)
        guard rc == SQLITE_OK else { throw error(rc, String(cString: sqlite3_errmsg(handle)), sql: nil) }
    }
}
