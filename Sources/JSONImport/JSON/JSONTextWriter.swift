/// Writes minified JSON text.
struct JSONTextWriter {
    private(set) var bytes: [UInt8] = []

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ raw: StaticString) {
        raw.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func appendRaw(_ raw: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: raw) }

    mutating func appendRaw(_ raw: String) { bytes.append(contentsOf: raw.utf8) }

    /// A JSON string literal, escaped.
    mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendString(utf8: $0) }
    }

    mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                          hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A parsed JSON value, minified; numbers keep their source text.
    mutating func append(_ json: JSONValue) {
        switch json.kind {
        case .null: append("null")
        case .bool: json.bool == true ? append("true") : append("false")
        case .number: appendRaw(json.numberText!)
        case .string: appendString(utf8: json.stringBytes!)
        case .array:
            append("[")
            for (i, element) in json.elements.enumerated() {
                if i > 0 { append(",") }
                append(element)
            }
            append("]")
        case .object:
            append("{")
            for (i, member) in json.members.enumerated() {
                if i > 0 { append(",") }
                appendString(utf8: member.key)
                append(":")
                append(member.value)
            }
            append("}")
        }
    }
}
