/// Stored values back in the JSON form an API sends them in (SPEC 4.4), so that importing the
/// exported text stores exactly the same values again.
///
/// ```swift
/// ExportValue.json(.real(1612137600), of: joinedAt)   // .number("1612137600") for `format: epoch`
/// ExportValue.json(.text("4.90"), of: price)          // .number("4.90") for a decimal
/// ```
enum ExportValue {
    /// `value`, stored for `attribute`, in the attribute's JSON form: dates in its `format`,
    /// decimals as JSON numbers when their text is one, `json` as the stored JSON, `[T]` as an
    /// array of elements in their JSON form.
    static func json(_ value: StoredValue, of attribute: AttributeSpec) -> RecordValue {
        // What imports back to the same value: the JSON value a map maps to it; a `present`
        // attribute's key with a value, or with none.
        if let key = attribute.mappedKey(of: value) { return RecordValue(key) }
        if attribute.isPresence { return value == .integer(1) ? .bool(true) : .null }
        switch (attribute.type, value) {
        case (_, .null): return .null
        case (.scalar(let type), _): return scalar(value, type: type, format: attribute.dateFormat)
        case (.array(let element), .text(let text)):
            guard case .array(let items) = RecordValue(jsonText: text) else { return .string(text) }
            return .array(items.map { Self.element($0, type: element, format: attribute.dateFormat) })
        case (.array, _): return RecordReader.jsonValue(value, of: attribute)
        }
    }

    private static func scalar(_ value: StoredValue, type: ScalarType, format: DateFormat) -> RecordValue {
        switch (type, value) {
        case (.bool, .integer(let v)): return .bool(v != 0)
        case (.date, .real(let seconds)): return date(seconds, format: format)
        case (.date, .integer(let seconds)): return date(Double(seconds), format: format)
        case (.decimal, .text(let text)): return NumberSyntax.isJSONNumber(text) ? .number(text) : .string(text)
        case (.json, .text(let text)): return RecordValue(jsonText: text)
        case (_, .integer(let v)): return .int(v)
        case (_, .real(let v)): return .double(v)
        case (_, .text(let s)): return .string(s)
        case (_, .null): return .null
        }
    }

    /// An element of a stored `[T]` array (numbers for dates, strings for decimals, see
    /// `ValueConversion.jsonElement`) in its JSON form.
    private static func element(_ item: RecordValue, type: ScalarType, format: DateFormat) -> RecordValue {
        switch (type, item) {
        case (.date, .number(let text)): return Double(text).map { date($0, format: format) } ?? item
        case (.decimal, .string(let text)) where NumberSyntax.isJSONNumber(text): return .number(text)
        default: return item
        }
    }

    /// A date in `format`: a string for ISO 8601 and patterns, a number for epoch formats.
    static func date(_ seconds: Double, format: DateFormat) -> RecordValue {
        switch format {
        case .epoch, .epochMillis: return .number(DateCoding.format(seconds, format: format))
        case .iso8601: return .string(exactISO8601(seconds))
        case .pattern: return .string(DateCoding.format(seconds, format: format))
        }
    }

    /// ISO 8601 text that reads back as exactly `seconds`: microseconds as `query` writes them,
    /// or more fraction digits for instants imported with a finer fraction.
    private static func exactISO8601(_ seconds: Double) -> String {
        let text = DateCoding.format(seconds, format: .iso8601)
        guard DateCoding.parse(text, format: .iso8601) != seconds else { return text }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole
        let base = DateCoding.format(whole, format: .iso8601).dropLast()  // without the "Z"
        for digits in 7...15 {
            let scale = pow10(digits)
            let scaled = (fraction * scale).rounded()
            guard scaled < scale else { break }
            let candidate = base + "." + DateCoding.pad(Int(scaled), digits) + "Z"
            if DateCoding.parse(candidate, format: .iso8601) == seconds { return candidate }
        }
        return text
    }

    private static func pow10(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }
}
