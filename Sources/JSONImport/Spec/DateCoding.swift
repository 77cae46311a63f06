/// Reads and writes `date` values, stored as seconds since 1970 UTC, in each ``DateFormat``.
///
/// Hand-written parsers (no `DateFormatter`): ISO 8601 accepts `yyyy-MM-dd`, then optionally
/// `T` (or a space) and `HH:mm`, `:ss`, a fraction of any length after `.` or `,`, and `Z` or an
/// offset (`+02:00`, `+0200`, `+02`); no offset means UTC. Patterns use `yyyy`, `M`/`MM`,
/// `d`/`dd`, `H`/`HH`, `m`/`mm`, `s`/`ss`, `S…` (fraction digits) and literal text (`'T'`,
/// punctuation), read in UTC.
///
/// ```swift
/// DateCoding.parse("2024-01-02T03:04:05.5+01:00", format: .iso8601)  // 1704161045.5
/// DateCoding.format(1704161045.5, format: .iso8601)                   // "2024-01-02T02:04:05.5Z"
/// ```
enum DateCoding {
    /// Seconds since 1970 UTC for `text` in `format`, or `nil` when it does not match.
    static func parse(_ text: String, format: DateFormat) -> Double? {
        withBytes(text) { parse(utf8: $0, format: format) }
    }

    /// Seconds since 1970 UTC for `text` in `format`, or `nil` when it does not match.
    static func parse(_ text: Substring, format: DateFormat) -> Double? {
        withBytes(text) { parse(utf8: $0, format: format) }
    }

    /// Seconds since 1970 UTC for the UTF-8 `bytes` in `format`, or `nil` when they do not match.
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, format: DateFormat) -> Double? {
        switch format {
        case .iso8601: return parseISO8601(bytes)
        case .epoch: return parseNumber(bytes)
        case .epochMillis: return parseNumber(bytes).map { $0 / 1000 }
        case .pattern(let pattern):
            guard case .success(let tokens) = compile(pattern) else { return nil }
            return parse(bytes, tokens: tokens)
        }
    }

    /// `seconds` (since 1970 UTC) written in `format`. ISO 8601 output is UTC with `Z`, with
    /// fractional seconds (to the microsecond, trailing zeros dropped) only when non-zero.
    static func format(_ seconds: Double, format: DateFormat) -> String {
        guard seconds.isFinite else { return String(seconds) }
        switch format {
        case .epoch: return numberText(seconds, digits: 6)
        case .epochMillis: return numberText(seconds, digits: 3)
        // Far outside the range a date may hold (a store written before it was checked), its
        // microseconds would not fit in 64 bits: the number of seconds, not a calendar date.
        case _ where abs(seconds) >= 9e12: return String(seconds)
        case .iso8601: return formatISO8601(seconds)
        case .pattern(let pattern):
            guard case .success(let tokens) = compile(pattern) else { return formatISO8601(seconds) }
            return Self.format(seconds, tokens: tokens)
        }
    }

    /// `nil` when `pattern` is a usable date pattern, else what is wrong with it.
    static func problem(inPattern pattern: String) -> String? {
        if case .failure(let problem) = compile(pattern) { return problem.message }
        return nil
    }

    // MARK: Calendar

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    // MARK: ISO 8601

    private static func parseISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var c = DateCursor(bytes)
        guard let year = c.digits(4), c.skip("-"), let month = c.digits(2), c.skip("-"), let day = c.digits(2),
            isValid(year: year, month: month, day: day)
        else { return nil }
        let midnight = Double(days(year: year, month: month, day: day) * 86_400)
        if c.isAtEnd { return midnight }
        guard c.skip("T") || c.skip("t") || c.skip(" "), let hour = c.digits(2), hour < 24, c.skip(":"),
            let minute = c.digits(2), minute < 60
        else { return nil }
        var second = 0
        var fraction = 0.0
        if c.skip(":") {
            guard let s = c.digits(2), s < 60 else { return nil }
            second = s
            if c.skip(".") || c.skip(",") {
                guard let f = c.fraction() else { return nil }
                fraction = f
            }
        }
        var offset = 0
        if c.skip("Z") || c.skip("z") {
            offset = 0
        } else if let sign = c.sign() {
            guard let hours = c.digits(2), hours < 24 else { return nil }
            var minutes = 0
            if !c.isAtEnd {
                _ = c.skip(":")
                guard let m = c.digits(2), m < 60 else { return nil }
                minutes = m
            }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard c.isAtEnd else { return nil }
        return midnight + Double(hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// Whether `seconds` (since 1970 UTC) names an instant a `date` may hold: from
    /// 0000-01-01T00:00:00Z up to the end of 9999, the instants ISO 8601 writes with a
    /// four-digit year, which every store keeps (PostgreSQL's `timestamptz` ends in 294276).
    static func isInRange(_ seconds: Double) -> Bool {
        seconds >= earliest && seconds < 253_402_300_800
    }

    /// 0000-01-01T00:00:00Z, the earliest instant a date may hold.
    static let earliest: Double = -62_167_219_200

    /// How errors name the range of ``isInRange(_:)``.
    static let rangeDescription = "in years 0000 to 9999 (UTC)"

    private static func formatISO8601(_ seconds: Double) -> String {
        let (whole, fraction) = split(seconds, scale: 1_000_000)
        var text = formatDateTime(Int(whole))
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    private static func formatDateTime(_ seconds: Int) -> String {
        let (dayCount, secondOfDay) = floorDivision(Int64(seconds), 86_400)
        let date = civil(days: Int(dayCount))
        let s = Int(secondOfDay)
        return "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))T"
            + "\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))"
    }

    // MARK: Numbers and helpers

    private static func parseNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard NumberSyntax.isJSONNumber(bytes) else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
    }

    /// `seconds` to the microsecond, in seconds (`digits` 6) or milliseconds (`digits` 3): the
    /// whole units, then the fraction's `digits` digits without trailing zeros. Written from
    /// whole microseconds, so that no rounding error of the `Double` shows (`1.9999999` is `2`).
    private static func numberText(_ seconds: Double, digits: Int) -> String {
        // Past what 64 bits of microseconds hold (a store written before dates were checked).
        guard abs(seconds) < 9e12 else { return String(digits == 6 ? seconds : seconds * 1000) }
        let total = microseconds(seconds)
        let micros = total.magnitude
        let unit: UInt64 = digits == 6 ? 1_000_000 : 1_000
        var text = (total < 0 ? "-" : "") + String(micros / unit)
        var decimals = pad(Int(micros % unit), digits)
        while decimals.hasSuffix("0") { decimals.removeLast() }
        if !decimals.isEmpty { text += "." + decimals }
        return text
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
        return value < 0 ? "-" + padded : padded
    }

    /// `seconds` to the nearest microsecond, what every store keeps of a date (PostgreSQL's
    /// `timestamptz` holds microseconds), so that stores compare and print dates alike.
    static func roundedToMicroseconds(_ seconds: Double) -> Double {
        guard abs(seconds) < 9e12 else { return seconds }
        return Double(microseconds(seconds)) / 1_000_000
    }

    /// The microseconds since 1970 nearest `seconds` (at most 9.2e12 from 0, which 64 bits
    /// hold); `roundedToMicroseconds` and PostgreSQL's `timestamptz` go through it alike.
    static func microseconds(_ seconds: Double) -> Int64 {
        let (whole, fraction) = split(seconds, scale: 1_000_000)
        return whole * 1_000_000 + fraction
    }

    /// `seconds` as whole seconds and a fraction in units of 1/`scale` second, rounded. The
    /// fraction is scaled alone, so that the rounding is the only one: the whole time in
    /// microseconds is past what a `Double` holds exactly after 2255.
    static func split(_ seconds: Double, scale: Int64) -> (whole: Int64, fraction: Int64) {
        let whole = seconds.rounded(.down)
        let fraction = Int64(((seconds - whole) * Double(scale)).rounded())
        return fraction == scale ? (Int64(whole) + 1, 0) : (Int64(whole), fraction)
    }

    static func floorDivision(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func withBytes<S: StringProtocol>(_ text: S, _ body: (UnsafeBufferPointer<UInt8>) -> Double?)
        -> Double?
    {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
