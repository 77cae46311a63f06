/// Fixed date patterns such as `yyyy-MM-dd HH:mm:ss`, read and written in UTC.
extension DateCoding {
    /// One piece of a compiled pattern.
    enum PatternToken: Hashable {
        case year
        /// A 1–2 digit field; `width` 2 means exactly two digits.
        case month(width: Int)
        case day(width: Int)
        case hour(width: Int)
        case minute(width: Int)
        case second(width: Int)
        /// Exactly `digits` digits of the fraction of a second.
        case fraction(digits: Int)
        case literal([UInt8])
    }

    struct PatternProblem: Error {
        let message: String
    }

    /// Splits `pattern` into tokens; letters other than the supported fields are an error.
    static func compile(_ pattern: String) -> Result<[PatternToken], PatternProblem> {
        var tokens: [PatternToken] = []
        var chars = Array(pattern)[...]
        guard !chars.isEmpty else { return .failure(PatternProblem(message: "empty date pattern")) }
        while let c = chars.first {
            if c == "'" {
                chars = chars.dropFirst()
                var literal = ""
                while let q = chars.first {
                    chars = chars.dropFirst()
                    if q == "'" {
                        if chars.first == "'" { chars = chars.dropFirst() } else { break }
                    }
                    literal.append(q)
                }
                tokens.append(.literal(Array((literal.isEmpty ? "'" : literal).utf8)))
                continue
            }
            guard c.isASCII, c.isLetter else {
                tokens.append(.literal(Array(String(c).utf8)))
                chars = chars.dropFirst()
                continue
            }
            let run = chars.prefix { $0 == c }.count
            chars = chars.dropFirst(run)
            switch (c, run) {
            case ("y", 4): tokens.append(.year)
            case ("M", 1...2): tokens.append(.month(width: run))
            case ("d", 1...2): tokens.append(.day(width: run))
            case ("H", 1...2): tokens.append(.hour(width: run))
            case ("m", 1...2): tokens.append(.minute(width: run))
            case ("s", 1...2): tokens.append(.second(width: run))
            case ("S", 1...9): tokens.append(.fraction(digits: run))
            case ("y", _), ("M", _), ("d", _), ("H", _), ("m", _), ("s", _), ("S", _):
                let field = String(repeating: c, count: run)
                return .failure(PatternProblem(message: "unsupported field '\(field)' in date pattern '\(pattern)'"))
            default:
                return .failure(
                    PatternProblem(
                        message: "unknown field '\(c)' in date pattern '\(pattern)' "
                            + "(use yyyy, MM, dd, HH, mm, ss, SSS or 'quoted' text)"
                    ))
            }
        }
        return .success(tokens)
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, tokens: [PatternToken]) -> Double? {
        var c = DateCursor(bytes)
        var (year, month, day, hour, minute, second, fraction) = (1970, 1, 1, 0, 0, 0, 0.0)
        func field(_ width: Int) -> Int? { width == 2 ? c.digits(2) : c.digits(atLeast: 1, atMost: 2) }
        for token in tokens {
            switch token {
            case .year:
                guard let v = c.digits(4) else { return nil }
                year = v
            case .month(let w):
                guard let v = field(w) else { return nil }
                month = v
            case .day(let w):
                guard let v = field(w) else { return nil }
                day = v
            case .hour(let w):
                guard let v = field(w), v < 24 else { return nil }
                hour = v
            case .minute(let w):
                guard let v = field(w), v < 60 else { return nil }
                minute = v
            case .second(let w):
                guard let v = field(w), v < 60 else { return nil }
                second = v
            case .fraction(let n):
                guard let v = c.digits(n) else { return nil }
                fraction = Double(v) / DateCursor.powersOfTen[n]
            case .literal(let bytes):
                for byte in bytes { guard c.skip(byte) else { return nil } }
            }
        }
        guard c.isAtEnd, isValid(year: year, month: month, day: day) else { return nil }
        let whole = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Double(whole) + fraction
    }

    static func format(_ seconds: Double, tokens: [PatternToken]) -> String {
        let digits = tokens.reduce(0) { if case .fraction(let n) = $1 { max($0, n) } else { $0 } }
        let scale = Int64(DateCursor.powersOfTen[digits])
        // Past six digits, the microseconds a store keeps, then zeros.
        let kept = min(scale, 1_000_000)
        let (whole, keptFraction) = split(seconds, scale: kept)
        let fraction = keptFraction * (scale / kept)
        let (dayCount, secondOfDay) = floorDivision(whole, 86_400)
        let date = civil(days: Int(dayCount))
        let s = Int(secondOfDay)
        var text = ""
        for token in tokens {
            switch token {
            case .year: text += pad(date.year, 4)
            case .month(let w): text += pad(date.month, w)
            case .day(let w): text += pad(date.day, w)
            case .hour(let w): text += pad(s / 3600, w)
            case .minute(let w): text += pad(s / 60 % 60, w)
            case .second(let w): text += pad(s % 60, w)
            case .fraction(let n): text += pad(Int(fraction) / Int(DateCursor.powersOfTen[digits - n]), n)
            case .literal(let bytes): text += String(decoding: bytes, as: UTF8.self)
            }
        }
        return text
    }
}

/// Reads ASCII digits and punctuation from UTF-8 bytes, left to right.
struct DateCursor {
    static let powersOfTen: [Double] = (0...18).map { n in (0..<n).reduce(1.0) { r, _ in r * 10 } }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    /// Exactly `count` digits as a number.
    mutating func digits(_ count: Int) -> Int? {
        digits(atLeast: count, atMost: count)
    }

    mutating func digits(atLeast minimum: Int, atMost maximum: Int) -> Int? {
        var value = 0
        var read = 0
        while read < maximum, index < bytes.count, let d = digit(bytes[index]) {
            value = value * 10 + d
            read += 1
            index += 1
        }
        return read >= minimum ? value : nil
    }

    /// The digits after a decimal point, as a fraction; digits past the 15th are ignored.
    mutating func fraction() -> Double? {
        var value: Int64 = 0
        var count = 0
        var read = 0
        while index < bytes.count, let d = digit(bytes[index]) {
            if count < 15 {
                value = value * 10 + Int64(d)
                count += 1
            }
            read += 1
            index += 1
        }
        return read > 0 ? Double(value) / Self.powersOfTen[count] : nil
    }

    /// `+1` or `-1` for a sign, consumed; `nil` for anything else.
    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        skip(UInt8(ascii: character))
    }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
