import Foundation

/// The kinds of scalar JSON values the samples held at one place, and the attribute type that
/// accepts every one of them.
///
/// Each value is sorted into one ``Kind`` by the same rules an import converts by (dates through
/// ``DateCoding``, uuids and urls through ``ValueConversion``), so the type chosen converts every
/// value seen. Strings are classified only while that can still change the outcome: once a
/// string of no special form is seen, the type is `string` whatever follows.
struct ScalarKinds: Sendable, Hashable {
    /// One kind of scalar value.
    struct Kind: OptionSet, Sendable, Hashable {
        let rawValue: UInt16

        static let bool = Kind(rawValue: 1 << 0)
        /// A JSON integer within 64 bits.
        static let integer = Kind(rawValue: 1 << 1)
        /// A JSON integer beyond 64 bits.
        static let bigInteger = Kind(rawValue: 1 << 2)
        /// A JSON number with a fraction or an exponent.
        static let fraction = Kind(rawValue: 1 << 3)
        static let emptyString = Kind(rawValue: 1 << 4)
        /// A string holding an integer within 64 bits (`"1643673600"`).
        static let integerString = Kind(rawValue: 1 << 5)
        /// A string holding any other JSON number (`"19.99"`).
        static let numberString = Kind(rawValue: 1 << 6)
        /// A string that reads as an ISO 8601 date.
        static let dateString = Kind(rawValue: 1 << 7)
        static let uuidString = Kind(rawValue: 1 << 8)
        /// A string holding an absolute URL with `://`.
        static let urlString = Kind(rawValue: 1 << 9)
        /// Any other string.
        static let otherString = Kind(rawValue: 1 << 10)

        static let numbers: Kind = [.integer, .bigInteger, .fraction]
        static let strings: Kind = [.emptyString, .integerString, .numberString, .dateString, .uuidString, .urlString, .otherString]
    }

    /// Every kind seen.
    private(set) var seen: Kind = []
    /// A number was written with a trailing zero in a fraction of two or more digits (`4.90`):
    /// its text matters.
    private(set) var hasTrailingZero = false
    /// The smallest and largest integer seen, as a number or in a string.
    private(set) var smallest = Int64.max
    private(set) var largest = Int64.min

    /// `true` when no scalar was seen.
    var isEmpty: Bool { seen.isEmpty }

    /// Adds a scalar value (`null`, arrays and objects are counted elsewhere).
    mutating func observe(_ value: JSONValue) {
        switch value.kind {
        case .bool: seen.insert(.bool)
        case .number: observeNumber(value)
        case .string:
            guard !seen.contains(.otherString), let bytes = value.stringBytes else { return }
            observeString(bytes)
        case .null, .array, .object: break
        }
    }

    /// Adds what `other` saw.
    mutating func formUnion(_ other: ScalarKinds) {
        seen.formUnion(other.seen)
        hasTrailingZero = hasTrailingZero || other.hasTrailingZero
        smallest = min(smallest, other.smallest)
        largest = max(largest, other.largest)
    }

    private mutating func observeNumber(_ value: JSONValue) {
        guard let text = value.numberText else { return }
        if !text.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            if let integer = value.exactInt64 {
                seen.insert(.integer)
                note(integer)
            } else {
                seen.insert(.bigInteger)
            }
            return
        }
        seen.insert(.fraction)
        if Self.hasTrailingZero(text) { hasTrailingZero = true }
    }

    private mutating func observeString(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let first = bytes.first else {
            seen.insert(.emptyString)
            return
        }
        let isDigit = first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")
        if isDigit || first == UInt8(ascii: "-"), NumberSyntax.isJSONNumber(bytes) {
            if let integer = Self.integer(bytes) {
                seen.insert(.integerString)
                note(integer)
            } else {
                seen.insert(.numberString)
                if Self.hasTrailingZero(bytes) { hasTrailingZero = true }
            }
            return
        }
        if isDigit, bytes.count >= 10, DateCoding.parse(utf8: bytes, format: .iso8601) != nil {
            seen.insert(.dateString)
        } else if bytes.count == 36, bytes[8] == UInt8(ascii: "-"), Self.converts(bytes, to: .uuid) {
            seen.insert(.uuidString)
        } else if Self.containsSchemeSeparator(bytes), Self.converts(bytes, to: .url) {
            seen.insert(.urlString)
        } else {
            seen.insert(.otherString)
        }
    }

    private mutating func note(_ integer: Int64) {
        smallest = min(smallest, integer)
        largest = max(largest, integer)
    }

    // MARK: Choosing a type

    /// The type an attribute of these values gets.
    ///
    /// - Parameter isTimeName: the property's name ends in a word such as `at`, `date` or
    ///   `time`, so integers in the range of recent epoch seconds or milliseconds are dates.
    /// - Returns: the type, with its date format and whether `""` is read as `null`; `nil`
    ///   when no scalar was seen.
    func inferredType(isTimeName: Bool) -> InferredScalar? {
        var kinds = seen
        let hasEmptyString = kinds.remove(.emptyString) != nil
        guard !kinds.isEmpty else { return hasEmptyString ? InferredScalar(type: .string) : nil }
        var inferred = Self.joined(kinds, isTimeName: isTimeName, hasTrailingZero: hasTrailingZero, range: smallest...max(smallest, largest))
        // "" meaning "none" beside dates, numbers or urls: read as null rather than widen to string.
        if hasEmptyString && inferred.type != .string { inferred.readsEmptyAsNull = true }
        return inferred
    }

    /// The type a primary key of these values gets: `int`, `uuid` or `string`; `nil` when a value
    /// cannot be a key (a Boolean, a fraction).
    var keyType: ScalarType? {
        guard !seen.isEmpty, seen.isDisjoint(with: [.bool, .fraction]) else { return nil }
        if seen.contains(.integer) && seen.isSubset(of: [.integer, .integerString]) { return .int }
        if seen == .uuidString { return .uuid }
        return .string
    }

    /// Whether every value seen reads as a key of type `type` (a reference by key).
    func areKeys(of type: ScalarType) -> Bool {
        switch type {
        case .int: return seen.isSubset(of: [.integer, .integerString])
        case .uuid: return seen == .uuidString
        default: return !seen.contains(.bool) && !seen.contains(.fraction)
        }
    }

    private static func joined(_ kinds: Kind, isTimeName: Bool, hasTrailingZero: Bool, range: ClosedRange<Int64>) -> InferredScalar {
        if kinds == .bool { return InferredScalar(type: .bool) }
        if kinds == [.bool, .integer] && range.lowerBound >= 0 && range.upperBound <= 1 { return InferredScalar(type: .bool) }
        if kinds.isSubset(of: [.integer, .integerString]) {
            if isTimeName, let format = epochFormat(of: range) {
                return InferredScalar(type: .date, format: format, note: format == .epoch ? "epoch seconds" : "epoch milliseconds")
            }
            // Integers only as strings are names and codes more often than numbers (ids, zip codes).
            return InferredScalar(type: kinds.contains(.integer) ? .int : .string)
        }
        if kinds.isSubset(of: Kind.numbers.union([.integerString, .numberString])) {
            let exact = hasTrailingZero || kinds.isDisjoint(with: .numbers) || kinds.contains(.bigInteger)
            return InferredScalar(type: exact ? .decimal : .double)
        }
        switch kinds {
        case .dateString: return InferredScalar(type: .date)
        case .uuidString: return InferredScalar(type: .uuid)
        case .urlString: return InferredScalar(type: .url)
        default: return InferredScalar(type: .string, note: mixture(kinds))
        }
    }

    /// Epoch seconds or milliseconds when every integer falls between 2000 and 2100.
    private static func epochFormat(of range: ClosedRange<Int64>) -> DateFormat? {
        let seconds: ClosedRange<Int64> = 946_684_800...4_102_444_800
        if seconds.contains(range.lowerBound) && seconds.contains(range.upperBound) { return .epoch }
        let millis = (seconds.lowerBound * 1000)...(seconds.upperBound * 1000)
        if millis.contains(range.lowerBound) && millis.contains(range.upperBound) { return .epochMillis }
        return nil
    }

    /// `mixed: numbers and strings` when values of several JSON types were widened to text.
    private static func mixture(_ kinds: Kind) -> String? {
        var parts: [String] = []
        if !kinds.isDisjoint(with: .numbers) { parts.append("numbers") }
        if kinds.contains(.bool) { parts.append("bools") }
        if !kinds.isDisjoint(with: .strings) { parts.append("strings") }
        guard parts.count > 1 else { return nil }
        return "mixed: " + parts.joined(separator: " and ")
    }

    // MARK: Text

    /// A number with two or more fraction digits, the last a `0` (`4.90`, `0.00`): written so
    /// to keep a scale. `12.0` is how many encoders write any integral double, and says nothing.
    private static func hasTrailingZero(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let dot = text.firstIndex(of: UInt8(ascii: ".")) else { return false }
        let end = text[dot...].firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } ?? text.endIndex
        return end - dot > 2 && text[end - 1] == UInt8(ascii: "0")
    }

    /// The integer that `text`, in JSON number syntax, spells, when it has no fraction or
    /// exponent and fits in 64 bits.
    private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let isNegative = text.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in text.dropFirst(isNegative ? 1 : 0) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = isNegative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !overflow2 else { return nil }
            value = next
        }
        return value
    }

    private static func containsSchemeSeparator(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count > 3 else { return false }
        for i in 1..<(bytes.count - 2) where bytes[i] == UInt8(ascii: ":") {
            return bytes[i + 1] == UInt8(ascii: "/") && bytes[i + 2] == UInt8(ascii: "/")
        }
        return false
    }

    private static func converts(_ bytes: UnsafeBufferPointer<UInt8>, to type: ScalarType) -> Bool {
        if case .success = ValueConversion.convert(.string(String(decoding: bytes, as: UTF8.self)), to: type, format: .iso8601) {
            return true
        }
        return false
    }
}

/// The scalar type inferred for an attribute or for the elements of an array.
struct InferredScalar: Sendable, Hashable {
    var type: ScalarType
    var format: DateFormat = .iso8601
    /// Some values were `""` beside values of `type`: the attribute gets `nullIf: ""`.
    var readsEmptyAsNull = false
    /// What the draft's comment says about the choice, if anything.
    var note: String?
}
