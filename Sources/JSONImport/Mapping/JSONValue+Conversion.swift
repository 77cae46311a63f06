import Foundation

/// Converts JSON values of a record to stored values per SPEC 1.2's type table.
///
/// The common cases (a string to `string`, an integer to `int`, a number to `double`, a Boolean
/// to `bool`) are read straight off the parsed document without copying; everything else goes
/// through ``ValueConversion``, which the mapping loader uses too, so both accept the same input.
extension JSONValue {
    func converted(to type: AttributeType, format: DateFormat) -> Result<Value, ConversionFailure> {
        switch type {
        case .scalar(let scalar): return converted(to: scalar, format: format)
        case .array(let element):
            guard kind == .array else {
                return .failure(ConversionFailure(expected: type.description, found: summary))
            }
            var out = JSONTextWriter()
            out.append("[")
            for (i, item) in elements.enumerated() {
                switch item.converted(to: element, format: format) {
                case .failure(var failure):
                    failure.elementIndex = i
                    return .failure(failure)
                case .success(let value):
                    if i > 0 { out.append(",") }
                    out.appendRaw(ValueConversion.jsonElement(value.stored, of: element))
                }
            }
            out.append("]")
            return .success(.text(out.text))
        }
    }

    func converted(to type: ScalarType, format: DateFormat) -> Result<Value, ConversionFailure> {
        switch (type, kind) {
        case (_, .null): return .success(.null)
        case (.string, .string):
            let bytes = stringBytes!
            // U+0000 can only come from a `\u0000` escape; no store keeps it in text (SPEC 1.2).
            if !bytes.isEmpty, memchr(bytes.baseAddress!, 0, bytes.count) != nil {
                return .failure(ConversionFailure(expected: ValueConversion.textWithoutNUL, found: summary))
            }
            return .success(.bytes(bytes))
        case (.string, .number): return .success(.bytes(numberText!))
        case (.int, .number) where exactInt64 != nil: return .success(.integer(exactInt64!))
        case (.double, .number) where double?.isFinite == true:
            // -0.0 as 0.0, as ``ValueConversion/storedReal(_:)`` keeps it.
            return .success(.real(double! == 0 ? 0 : double!))
        case (.bool, .bool): return .success(.integer(bool! ? 1 : 0))
        case (.json, _):
            var out = JSONTextWriter()
            out.append(self)
            return .success(.text(out.text))
        default:
            guard let literal else { return .failure(ConversionFailure(expected: type.rawValue, found: summary)) }
            return ValueConversion.convert(literal, to: type, format: format).map(Value.init)
        }
    }

    /// This value as a scalar literal; `nil` for arrays and objects.
    var literal: LiteralValue? {
        switch kind {
        case .null: return .null
        case .bool: return .bool(bool!)
        case .number: return .number(String(decoding: numberText!, as: UTF8.self))
        case .string: return .string(string!)
        case .array, .object: return nil
        }
    }

    /// How messages show the value: `string "many"`, `number 1.5`, `array`, `object`.
    var summary: String {
        switch kind {
        case .array: return "array"
        case .object: return "object"
        default:
            return literal?.summary ?? "value"
        }
    }
}

extension Value {
    /// This value after `transforms`, in order (text values only).
    func applying(_ transforms: [Transform]) -> Value {
        guard !transforms.isEmpty, string != nil else { return self }
        return Value(ValueConversion.applying(transforms, to: stored))
    }
}

extension JSONValue {
    /// Whether this value is `literal` as JSON values compare: numbers by value, strings by
    /// their text, and kinds never equal across (`1` is not `"1"`).
    func matches(_ literal: LiteralValue) -> Bool {
        switch literal {
        case .null: return kind == .null
        case .bool(let b): return kind == .bool && bool == b
        case .string(var text):
            guard kind == .string, let bytes = stringBytes else { return false }
            return text.withUTF8 { $0.elementsEqual(bytes) }
        case .number(var text):
            guard kind == .number, let bytes = numberText else { return false }
            return text.withUTF8 { DecimalOrder.compare(bytes, $0) == 0 }
        }
    }
}
