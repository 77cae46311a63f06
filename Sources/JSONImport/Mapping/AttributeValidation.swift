import Foundation

/// `enum`, `min`/`max` and `pattern` checks on a converted, transformed value (SPEC 1.2).
enum AttributeValidation {
    /// A message when `value` breaks a rule of `attribute`, else `nil`.
    /// The most bytes of text one index entry holds (the values of a key, an `index`ed or a
    /// `unique` attribute): PostgreSQL's B-tree refuses an entry past about 2,700 bytes, and
    /// would then refuse the index a store already holds such a value in. Every store keeps to
    /// it, so that a record one store takes, every store takes.
    static let longestIndexedText = 2_600

    /// What is wrong with `values`, which make one index entry together (one value, or a
    /// composite key's): more than ``longestIndexedText`` bytes of text; `nil` when nothing is.
    static func checkIndexedLength(_ values: [Value]) -> String? {
        let length = values.reduce(0) { $0 + $1.textLength }
        guard length > longestIndexedText else { return nil }
        let what = values.count == 1 ? "the value is" : "the key's values are"
        return "\(what) \(length) bytes long; a key, 'index' or 'unique' value holds at most \(longestIndexedText) bytes "
            + "(what PostgreSQL indexes, kept by every store)"
    }

    static func check(_ value: Value, _ attribute: AttributePlan) -> String? {
        let spec = attribute.spec
        if let allowed = spec.allowedValues, !isAllowed(value.stored, allowed, decimal: spec.type == .decimal) {
            let list = allowed.map(\.description).joined(separator: ", ")
            return "\(value.stored.shown) is not one of the allowed values (\(list))"
        }
        if spec.minimum != nil || spec.maximum != nil, let measure = measure(value, spec.type) {
            if let minimum = spec.minimum, measure.amount < minimum {
                return "\(measure.what) \(format(measure.amount)) is below the minimum \(format(minimum))"
            }
            if let maximum = spec.maximum, measure.amount > maximum {
                return "\(measure.what) \(format(measure.amount)) is above the maximum \(format(maximum))"
            }
        }
        if let regex = attribute.regex, let text = value.string {
            let range = NSRange(text.startIndex..., in: text)
            if regex.firstMatch(in: text, range: range) == nil {
                return "\(StoredValue.text(text).shown) does not match the pattern \(spec.pattern ?? "")"
            }
        }
        return nil
    }

    /// Whether `value` is one of `allowed`: a decimal when it spells the same number as one
    /// (`1.50` is `1.5`), as decimals compare everywhere (SPEC 1.2).
    private static func isAllowed(_ value: StoredValue, _ allowed: [StoredValue], decimal: Bool) -> Bool {
        guard decimal, case .text(var text) = value else { return allowed.contains(value) }
        return allowed.contains { candidate in
            guard case .text(var other) = candidate else { return false }
            return text.withUTF8 { x in other.withUTF8 { DecimalOrder.compare(x, $0) == 0 } }
        }
    }

    /// What `min`/`max` compare: the number, the string's length, or the array's count.
    private static func measure(_ value: Value, _ type: AttributeType) -> (what: String, amount: Double)? {
        switch (type, value) {
        case (_, .integer(let v)): return ("value", Double(v))
        case (_, .real(let v)): return ("value", v)
        case (.array, _):
            guard let text = value.string, let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
                return nil
            }
            return ("count", Double(array.count))
        case (.scalar(.decimal), _): return value.string.flatMap(Double.init).map { ("value", $0) }
        default: return value.string.map { ("length", Double($0.count)) }
        }
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
