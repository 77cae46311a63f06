/// The PostgreSQL types the connection knows by their fixed OIDs (`pg_type`), and the binary
/// encodings it writes and reads.
enum PostgresType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let char: UInt32 = 18
    static let name: UInt32 = 19
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let oid: UInt32 = 26
    static let json: UInt32 = 114
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let unknown: UInt32 = 705
    static let bpchar: UInt32 = 1042
    static let varchar: UInt32 = 1043
    static let date: UInt32 = 1082
    static let timestamp: UInt32 = 1114
    static let timestamptz: UInt32 = 1184
    static let numeric: UInt32 = 1700
    static let regclass: UInt32 = 2205
    static let void: UInt32 = 2278
    static let uuid: UInt32 = 2950
    static let jsonb: UInt32 = 3802

    /// Types whose binary form is their text in UTF-8.
    static let textLike: Set<UInt32> = [text, varchar, bpchar, name, unknown]
}

/// Dates: a store holds them as seconds since 1970 (`StoredValue.real`, as the SQLite store
/// does); PostgreSQL's `timestamptz` holds microseconds since 2000-01-01 UTC. A value read back
/// is the `Double` nearest its microseconds, so it survives any number of round trips unchanged.
enum PostgresTimestamp {
    /// Microseconds from 1970-01-01 to 2000-01-01.
    static let offset: Int64 = 946_684_800_000_000

    /// The microseconds since 2000 nearest `seconds` since 1970; `infinity` and `-infinity`
    /// are PostgreSQL's own; `nil` for NaN or a date past the range of 64-bit microseconds.
    static func microseconds(fromSeconds seconds: Double) -> Int64? {
        if seconds == .infinity { return .max }
        if seconds == -.infinity { return .min }
        guard !seconds.isNaN, abs(seconds.rounded(.down)) < 9.2e12 else { return nil }
        return DateCoding.microseconds(seconds) - offset
    }

    /// Seconds since 1970 for PostgreSQL's microseconds since 2000.
    static func seconds(fromMicroseconds microseconds: Int64) -> Double {
        if microseconds == .max { return .infinity }
        if microseconds == .min { return -.infinity }
        return Double(microseconds + offset) / 1_000_000
    }
}

/// UUIDs as the store writes them: lowercase text, 8-4-4-4-12.
enum PostgresUUID {
    /// The 16 bytes of `text` (hex digits in either case, with the four dashes or none);
    /// `nil` when it is not a UUID.
    static func bytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        let digits: [UInt8]
        if utf8.count == 36 {
            guard [8, 13, 18, 23].allSatisfy({ utf8[$0] == UInt8(ascii: "-") }) else { return nil }
            digits = utf8.enumerated().filter { ![8, 13, 18, 23].contains($0.offset) }.map(\.element)
        } else {
            digits = utf8
        }
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for i in stride(from: 0, to: 32, by: 2) {
            guard let high = HexDigit.value(digits[i]), let low = HexDigit.value(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// The lowercase text of 16 bytes.
    static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        var text = ""
        text.reserveCapacity(36)
        for (i, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(i) { text.append("-") }
            text.append(HexDigit.lowercase[Int(byte >> 4)])
            text.append(HexDigit.lowercase[Int(byte & 0xF)])
        }
        return text
    }
}

/// Hexadecimal digits, as UUIDs and percent-encoded URLs spell bytes.
enum HexDigit {
    /// The value of the ASCII hex digit `byte`, in either case; `nil` for any other byte.
    static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The lowercase digits.
    static let lowercase = Array("0123456789abcdef")
}

extension [UInt8] {
    /// Appends `value` in network byte order, as PostgreSQL's binary formats take it.
    mutating func append<T: FixedWidthInteger>(bigEndian value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}

extension UnsafeRawBufferPointer {
    /// The integer in network byte order at `offset`.
    func bigEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int = 0) -> T {
        T(bigEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
