internal import CLibPQ

/// One result of libpq, cleared with its owner.
final class PostgresResult {
    let raw: OpaquePointer

    init(_ raw: OpaquePointer) { self.raw = raw }

    deinit { PQclear(raw) }

    var status: ExecStatusType { PQresultStatus(raw) }

    /// Whether the statement succeeded (with or without rows).
    var isSuccess: Bool { status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY }

    /// The rows the statement inserted, updated, deleted, copied or returned; 0 for a
    /// statement that reports none.
    var rowsAffected: Int { Int(String(cString: PQcmdTuples(raw))) ?? 0 }

    /// The command tag, such as `INSERT 0 1` or `ROLLBACK`.
    var commandStatus: String { String(cString: PQcmdStatus(raw)) }

    /// The five-character SQLSTATE of a failed statement; `nil` for a failure libpq found
    /// itself (a lost connection).
    var sqlState: String? { field(clibpq_diag_sqlstate()) }

    /// The server's one-line message for a failed statement, else libpq's.
    var errorMessage: String {
        field(clibpq_diag_message_primary()) ?? String(cString: PQresultErrorMessage(raw))
    }

    private func field(_ code: Int32) -> String? {
        PQresultErrorField(raw, code).map { String(cString: $0) }
    }

    /// Every row, each column decoded from its binary form by its type.
    ///
    /// - Throws: ``StoreError`` `other` when a column has a type the store does not read
    ///   (cast it to `text` in the query).
    func rows(sql: String) throws(StoreError) -> [[StoredValue]] {
        try checkReadable(sql: sql)
        let columnCount = Int(PQnfields(raw))
        let types = (0..<columnCount).map { PQftype(raw, Int32($0)) }
        var rows: [[StoredValue]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            rows.append(types.indices.map { column in value(row: row, column: Int32(column), type: types[column]) })
        }
        return rows
    }

    /// The rows the statement returned.
    var rowCount: Int { Int(PQntuples(raw)) }

    /// Checks that every column has a type ``value(row:column:)`` decodes.
    ///
    /// - Throws: ``StoreError`` `other` naming the first column that has not (cast it to `text`
    ///   in the query).
    func checkReadable(sql: String) throws(StoreError) {
        for column in 0..<PQnfields(raw) where !Self.readableTypes.contains(PQftype(raw, column)) {
            let name = String(cString: PQfname(raw, column))
            throw StoreError(
                .other, "column '\(name)' has a type the store cannot read (OID \(PQftype(raw, column))); cast it to text", sql: sql)
        }
    }

    /// Column `column` of row `row`, decoded as ``rows(sql:)`` decodes it, without making the
    /// whole row (a checked result: ``checkReadable(sql:)``).
    func value(row: Int, column: Int) -> StoredValue {
        value(row: Int32(row), column: Int32(column), type: PQftype(raw, Int32(column)))
    }

    /// Column `column` of row `row` when it is a non-null integer (`int8`, `int4`, `int2`).
    func integer(row: Int, column: Int) -> Int64? {
        let row = Int32(row), column = Int32(column)
        guard PQgetisnull(raw, row, column) == 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: PQgetvalue(raw, row, column), count: Int(PQgetlength(raw, row, column)))
        switch PQftype(raw, column) {
        case PostgresType.int8: return bytes.bigEndian(Int64.self)
        case PostgresType.int4: return Int64(bytes.bigEndian(Int32.self))
        case PostgresType.int2: return Int64(bytes.bigEndian(Int16.self))
        default: return nil
        }
    }

    /// The types ``value(row:column:type:)`` decodes.
    static let readableTypes: Set<UInt32> = PostgresType.textLike.union([
        PostgresType.bool, PostgresType.bytea, PostgresType.char, PostgresType.int8, PostgresType.int2,
        PostgresType.int4, PostgresType.oid, PostgresType.regclass, PostgresType.json, PostgresType.jsonb,
        PostgresType.float4, PostgresType.float8, PostgresType.date, PostgresType.timestamp,
        PostgresType.timestamptz, PostgresType.numeric, PostgresType.void, PostgresType.uuid,
    ])

    private func value(row: Int32, column: Int32, type: UInt32) -> StoredValue {
        guard PQgetisnull(raw, row, column) == 0 else { return .null }
        let bytes = UnsafeRawBufferPointer(
            start: PQgetvalue(raw, row, column), count: Int(PQgetlength(raw, row, column)))
        return Self.value(bytes, type: type)
    }

    /// The stored value of a binary field of `type`: integers (and `bool`, as 0 or 1),
    /// floating-point numbers, dates as seconds since 1970 (`.real`), and text for the rest:
    /// UUIDs in lowercase, `numeric` as PostgreSQL prints it, `bytea` as `\x` and hex digits.
    static func value(_ bytes: UnsafeRawBufferPointer, type: UInt32) -> StoredValue {
        switch type {
        case PostgresType.bool: return .integer(bytes[0] == 0 ? 0 : 1)
        case PostgresType.int8: return .integer(bytes.bigEndian(Int64.self))
        case PostgresType.int4: return .integer(Int64(bytes.bigEndian(Int32.self)))
        case PostgresType.int2: return .integer(Int64(bytes.bigEndian(Int16.self)))
        case PostgresType.oid, PostgresType.regclass: return .integer(Int64(bytes.bigEndian(UInt32.self)))
        case PostgresType.float8: return .real(Double(bitPattern: bytes.bigEndian(UInt64.self)))
        case PostgresType.float4: return .real(Double(Float(bitPattern: bytes.bigEndian(UInt32.self))))
        case PostgresType.timestamptz, PostgresType.timestamp:
            return .real(PostgresTimestamp.seconds(fromMicroseconds: bytes.bigEndian(Int64.self)))
        case PostgresType.date:
            let days = bytes.bigEndian(Int32.self)
            if days == .max { return .real(.infinity) }
            if days == .min { return .real(-.infinity) }
            return .real(Double(days) * 86_400 + Double(PostgresTimestamp.offset / 1_000_000))
        case PostgresType.uuid: return .text(PostgresUUID.text(bytes))
        case PostgresType.numeric: return .text(PostgresNumeric.text(bytes))
        case PostgresType.bytea:
            var text = "\\x"
            text.reserveCapacity(2 + 2 * bytes.count)
            for byte in bytes {
                text.append(HexDigit.lowercase[Int(byte >> 4)])
                text.append(HexDigit.lowercase[Int(byte & 0xF)])
            }
            return .text(text)
        case PostgresType.jsonb: return .text(String(decoding: bytes.dropFirst(), as: UTF8.self))
        case PostgresType.void: return .null
        default: return .text(String(decoding: bytes, as: UTF8.self))
        }
    }
}

/// `numeric` values in PostgreSQL's binary form: base-10000 digits with a weight, a sign and
/// the number of decimal places to show.
enum PostgresNumeric {
    /// The value as `numeric_out` prints it: `-12.50`, `0.001`, `NaN`, `Infinity`.
    static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        let count = Int(bytes.bigEndian(Int16.self, at: 0))
        let weight = Int(bytes.bigEndian(Int16.self, at: 2))
        let sign = bytes.bigEndian(UInt16.self, at: 4)
        let scale = Int(bytes.bigEndian(Int16.self, at: 6))
        switch sign {
        case 0xC000: return "NaN"
        case 0xD000: return "Infinity"
        case 0xF000: return "-Infinity"
        default: break
        }
        // Digit i is worth 10000^(weight - i); digits past the stored ones are zeros.
        func digit(_ i: Int) -> Int { i >= 0 && i < count ? Int(bytes.bigEndian(Int16.self, at: 8 + 2 * i)) : 0 }
        func padded(_ group: Int) -> String {
            let digits = String(group)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
        var text = sign == 0x4000 ? "-" : ""
        if weight < 0 {
            text += "0"
        } else {
            text += String(digit(0))
            for i in stride(from: 1, through: weight, by: 1) { text += padded(digit(i)) }
        }
        guard scale > 0 else { return text }
        var fraction = ""
        var i = weight + 1
        while fraction.count < scale {
            fraction += padded(digit(i))
            i += 1
        }
        return text + "." + fraction.prefix(scale)
    }
}
