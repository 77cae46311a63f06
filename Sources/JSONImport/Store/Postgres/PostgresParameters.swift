/// The values of a statement's parameters, encoded for the types the server gave them when it
/// prepared the statement: binary where the value fits the type (integers, floats, booleans,
/// text, dates, UUIDs), otherwise the value's text, which the server converts as it converts a
/// literal (`'42'` for a `numeric`, `'{1,2}'` for an `int8[]`) and refuses in its own words.
///
/// A date parameter (`timestamptz`, `timestamp`) takes `.real` (or `.integer`) seconds since
/// 1970, rounded to the microsecond; `bool` takes `.integer` 0 or 1 (any other integer is true).
struct PostgresParameters {
    /// Every value's bytes, one after the other (text ones NUL-terminated), and one more byte.
    private var bytes: [UInt8] = []
    /// Where each value starts in ``bytes``; `nil` for NULL.
    private var starts: [Int?] = []
    private var lengths: [Int32] = []
    /// 1 for a value in binary, 0 for text.
    private var formats: [Int32] = []

    var count: Int { starts.count }

    init(_ values: [StoredValue], types: [UInt32]) {
        precondition(values.count == types.count, "\(values.count) values for \(types.count) parameters")
        for (value, type) in zip(values, types) { append(value, as: type) }
        // Keeps the base address valid when the last value is empty, which must not be a null
        // pointer (that would be NULL).
        bytes.append(0)
    }

    private mutating func append(_ value: StoredValue, as type: UInt32) {
        switch (value, type) {
        case (.null, _):
            starts.append(nil)
            lengths.append(0)
            formats.append(0)
        case (.integer(let v), PostgresType.int8): binary { $0.append(bigEndian: v) }
        case (.integer(let v), PostgresType.int4) where Int32(exactly: v) != nil: binary { $0.append(bigEndian: Int32(v)) }
        case (.integer(let v), PostgresType.int2) where Int16(exactly: v) != nil: binary { $0.append(bigEndian: Int16(v)) }
        case (.integer(let v), PostgresType.oid) where UInt32(exactly: v) != nil: binary { $0.append(bigEndian: UInt32(v)) }
        case (.integer(let v), PostgresType.bool): binary { $0.append(v == 0 ? 0 : 1) }
        case (.integer(let v), PostgresType.float8): binary { $0.append(bigEndian: Double(v).bitPattern) }
        case (.real(let v), PostgresType.float8): binary { $0.append(bigEndian: v.bitPattern) }
        case (.real(let v), PostgresType.float4): binary { $0.append(bigEndian: Float(v).bitPattern) }
        case (.integer(let v), PostgresType.timestamptz), (.integer(let v), PostgresType.timestamp):
            appendDate(Double(v))
        case (.real(let v), PostgresType.timestamptz), (.real(let v), PostgresType.timestamp):
            appendDate(v)
        case (.text(let v), let type) where PostgresType.textLike.contains(type):
            binary { $0.append(contentsOf: v.utf8) }
        case (.text(let v), PostgresType.uuid):
            guard let uuid = PostgresUUID.bytes(v) else { return text(v) }
            binary { $0.append(contentsOf: uuid) }
        case (.integer(let v), _): text(String(v))
        case (.real(let v), _): text(String(v))
        case (.text(let v), _): text(v)
        }
    }

    /// A date as microseconds; one out of their range goes as text for the server to refuse.
    private mutating func appendDate(_ seconds: Double) {
        guard let microseconds = PostgresTimestamp.microseconds(fromSeconds: seconds) else { return text(String(seconds)) }
        binary { $0.append(bigEndian: microseconds) }
    }

    private mutating func binary(_ encode: (inout [UInt8]) -> Void) {
        let start = bytes.count
        encode(&bytes)
        starts.append(start)
        lengths.append(Int32(bytes.count - start))
        formats.append(1)
    }

    private mutating func text(_ value: String) {
        starts.append(bytes.count)
        bytes.append(contentsOf: value.utf8)
        bytes.append(0)
        lengths.append(0)
        formats.append(0)
    }

    /// Calls `body` with libpq's arrays of value pointers, lengths and formats, valid only
    /// during the call.
    func withArrays<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            let values: [UnsafePointer<CChar>?] = starts.map { $0.map { base + $0 } }
            return values.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
