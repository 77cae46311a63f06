import Testing

@testable import JSONImport

@Suite struct ValueConversionTests {
    private func convert(_ value: LiteralValue, _ type: ScalarType, _ format: DateFormat = .iso8601) -> StoredValue? {
        try? ValueConversion.convert(value, to: type, format: format).get()
    }

    @Test func intAcceptsIntegralNumbersAndIntegerStringsWithinRange() {
        #expect(convert(.number("9223372036854775807"), .int) == .integer(.max))
        #expect(convert(.number("-9223372036854775808"), .int) == .integer(.min))
        #expect(convert(.number("9223372036854775808"), .int) == nil)
        #expect(convert(.number("9.3e18"), .int) == nil)
        #expect(convert(.number("-0.0"), .int) == .integer(0))
        #expect(convert(.string("-12"), .int) == .integer(-12))
        #expect(convert(.string("-0000000000000000000000012"), .int) == .integer(-12))
        #expect(convert(.string(String(repeating: "7", count: 10_000_000)), .int) == nil)
        #expect(convert(.string("+12"), .int) == nil)
        #expect(convert(.string("1.0"), .int) == nil)
        #expect(convert(.bool(true), .int) == nil)
    }

    @Test func messagesQuoteValuesAsJSONAndCutThemShort() {
        #expect(LiteralValue.string("O\"Brien\nline\t2").summary == #"string "O\"Brien\nline\t2""#)
        let long = String(repeating: "7", count: 10_000_000)
        #expect(LiteralValue.string(long).summary == "string \"" + String(repeating: "7", count: 60) + "…\"")
        #expect(LiteralValue.number(String(repeating: "1", count: 61)).summary == "number " + String(repeating: "1", count: 60) + "…")
        #expect(LiteralValue.string(String(repeating: "é", count: 60)).summary == "string \"" + String(repeating: "é", count: 60) + "\"")
        #expect(StoredValue.text(long).shown.count == 63)
    }

    @Test func failuresNameTheExpectedTypeAndTheValueFound() {
        #expect(
            ValueConversion.convert(.string("many"), to: .int, format: .iso8601)
                == .failure(ConversionFailure(expected: "int", found: "string \"many\"")))
        #expect(
            ConversionFailure(expected: "date (epoch)", found: "bool true").description
                == "expected date (epoch), found bool true")
    }

    @Test func nullStaysNullForEveryType() {
        for type in ScalarType.allCases { #expect(convert(.null, type) == .null) }
    }

    @Test func stringsAndNumbersKeepTheirSourceText() {
        #expect(convert(.number("1.50"), .string) == .text("1.50"))
        #expect(convert(.number("1.50"), .decimal) == .text("1.50"))
        #expect(convert(.string("1e400"), .decimal) == .text("1e400"))
        #expect(convert(.string("01"), .decimal) == nil)
        #expect(convert(.number("1e400"), .double) == nil)
        #expect(convert(.string("inf"), .double) == nil)
    }

    @Test func datesAcceptNumbersOnlyInEpochFormats() {
        #expect(convert(.number("1700000000"), .date, .epoch) == .real(1_700_000_000))
        #expect(convert(.number("1700000000500"), .date, .epochMillis) == .real(1_700_000_000.5))
        #expect(convert(.string("1700000000"), .date, .epoch) == .real(1_700_000_000))
        #expect(convert(.number("1700000000"), .date) == nil)
    }

    @Test func uuidIsLowercasedAndJSONIsMinifiedText() {
        #expect(
            convert(.string("6BA7B810-9DAD-11D1-80B4-00C04FD430C8"), .uuid)
                == .text("6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        #expect(convert(.string("6BA7B8109DAD11D180B400C04FD430C8"), .uuid) == nil)
        #expect(convert(.string("a\"b\n\u{1}"), .json) == .text(#""a\"b\n\u0001""#))
        #expect(convert(.bool(false), .json) == .text("false"))
    }

    @Test func transformsChangeTextInOrder() {
        let value = StoredValue.text("\u{00A0} Hello\t")
        #expect(ValueConversion.applying([.trim, .uppercase], to: value) == .text("HELLO"))
        #expect(ValueConversion.applying([.trim, .emptyIsNull], to: .text("  ")) == .null)
        #expect(ValueConversion.applying([.lowercase], to: .integer(5)) == .integer(5))
    }
}

@Suite struct KeyStyleTests {
    @Test(arguments: [
        ("createdAt", "created_at", "created-at", "createdAt"),
        ("created_at", "created_at", "created-at", "createdAt"),
        ("htmlURL", "html_url", "html-url", "htmlURL"),
        ("URLValue", "url_value", "url-value", "urlValue"),
        ("address2Line", "address2_line", "address2-line", "address2Line"),
        ("id", "id", "id", "id"),
    ])
    func derivesKeysFromPropertyNames(name: String, snake: String, kebab: String, camel: String) {
        #expect(KeyStyle.asIs.key(for: name) == name)
        #expect(KeyStyle.snakeCase.key(for: name) == snake)
        #expect(KeyStyle.kebabCase.key(for: name) == kebab)
        #expect(KeyStyle.camelCase.key(for: name) == camel)
    }
}
