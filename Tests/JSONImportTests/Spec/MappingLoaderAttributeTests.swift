import Testing

@testable import JSONImport

/// SPEC 1.2: attribute forms, types, options, and the conversion of defaults and enum values.
@Suite struct MappingLoaderAttributeTests {
    private func attribute(_ line: String) throws -> AttributeSpec {
        let spec = try MappingSpec.load(yaml: userMapping("  value: " + line))
        return try #require(spec.entity(named: "User")?.attribute(named: "value"))
    }

    @Test func shortAndLongFormsNameEveryType() throws {
        let yaml = userMapping(
            "  a: string", "  b: double", "  c: bool", "  d: date", "  e: decimal", "  f: uuid", "  g: url",
            "  h: json", "  i: \"[string]\"", "  j: [int]", "  k: {type: \"[date]\"}", "  l: {type: [uuid]}")
        let spec = try MappingSpec.load(yaml: yaml)
        let types = try #require(spec.entity(named: "User")).attributes.map(\.type.description)
        #expect(
            types == [
                "int", "string", "double", "bool", "date", "decimal", "uuid", "url", "json", "[string]", "[int]",
                "[date]", "[uuid]",
            ])
    }

    @Test func unknownTypesSuggestTheClosest() {
        #expect(
            renderedError(userMapping("  name: strng")) == """
                m.yml:6:13: error: unknown type 'strng' (did you mean 'string'?)
                      name: strng
                            ^
                """)
        #expect(
            loadErrors(
                userMapping("  a: [strng]", "  b: \"[json]\"", "  c: [int, string]", "  d: {type: Date}", "  e: float"))
                == [
                    "m.yml:6:10: error: unknown type '[strng]' (did you mean '[string]'?)",
                    "m.yml:7:10: error: unknown type '[json]' (a json attribute already holds any array: use 'json')",
                    "m.yml:8:10: error: an array type names one element type, as in [string]",
                    "m.yml:9:17: error: unknown type 'Date' (did you mean 'date'?)",
                    "m.yml:10:10: error: unknown type 'float'",
                ])
    }

    @Test func longFormNeedsATypeAndKnownKeys() {
        #expect(
            loadErrors(userMapping("  a: {key: x}", "  b:", "  c: {type: int, requried: true}")) == [
                "m.yml:6:7: error: attribute 'User.a' has no 'type'",
                "m.yml:7:7: error: attribute 'User.b' has no type",
                "m.yml:8:22: error: unknown key 'requried' in attribute 'User.c' (did you mean 'required'?)",
            ])
    }

    @Test func keyIsADottedPathOrLiteralSegments() throws {
        #expect(try attribute("{type: string, key: contact.email}").key.segments == ["contact", "email"])
        #expect(try attribute("{type: string, key: [odd.key, inner]}").key.segments == ["odd.key", "inner"])
        #expect(try attribute("string").key.segments == ["value"])
        #expect(
            loadErrors(userMapping("  value: {type: string, key: .email}")) == [
                "m.yml:6:34: error: invalid key path for 'key': segments must not be empty"
            ])
    }

    @Test func flagsAreBooleans() throws {
        let flagged = try attribute("{type: string, required: true, index: true, unique: True, export: false}")
        #expect(flagged.isRequired && flagged.isIndexed && flagged.isUnique && !flagged.isExported)
        let plain = try attribute("string")
        #expect(!plain.isRequired && !plain.isIndexed && !plain.isUnique && plain.isExported)
        #expect(
            loadErrors(userMapping("  value: {type: string, required: yes, unique: 1}")) == [
                "m.yml:6:39: error: expected true or false for 'required', found string \"yes\"",
                "m.yml:6:52: error: expected true or false for 'unique', found number 1",
            ])
    }

    @Test(arguments: [
        ("int", "42", StoredValue.integer(42)),
        ("int", "'-7'", .integer(-7)),
        ("int", "1e3", .integer(1000)),
        ("int", "2.0", .integer(2)),
        ("double", "1.5", .real(1.5)),
        ("double", "'2.5e1'", .real(25)),
        ("double", "3", .real(3)),
        ("bool", "false", .integer(0)),
        ("bool", "1", .integer(1)),
        ("bool", "'true'", .integer(1)),
        ("string", "1.50", .text("1.50")),
        ("string", "true", .text("true")),
        ("decimal", "12.50", .text("12.50")),
        ("decimal", "'0.10'", .text("0.10")),
        ("uuid", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", .text("6ba7b810-9dad-11d1-80b4-00c04fd430c8")),
        ("url", "https://example.com/a?b=c", .text("https://example.com/a?b=c")),
        ("date", "'2024-01-02T03:04:05Z'", .real(1_704_164_645)),
        ("date", "2024-01-02", .real(1_704_153_600)),
        ("json", "{a: [1, true, null, 'x', 1.50]}", .text(#"{"a":[1,true,null,"x",1.50]}"#)),
        ("json", "hello", .text(#""hello""#)),
        ("\"[int]\"", "[1, '2']", .text("[1,2]")),
        ("\"[string]\"", "[a, 'b \"q\"']", .text(#"["a","b \"q\""]"#)),
        ("\"[bool]\"", "[true, 0]", .text("[true,false]")),
        ("\"[date]\"", "['1970-01-01T00:00:01.5Z']", .text("[1.5]")),
    ])
    func defaultsConvertToTheStoredForm(type: String, value: String, stored: StoredValue) throws {
        #expect(try attribute("{type: \(type), default: \(value)}").defaultValue == stored)
    }

    @Test func nullDefaultIsNoDefault() throws {
        #expect(try attribute("{type: int, default: null}").defaultValue == nil)
        #expect(try attribute("int").defaultValue == nil)
    }

    @Test func dateDefaultsFollowTheFormat() throws {
        #expect(try attribute("{type: date, format: epoch, default: 1700000000}").defaultValue == .real(1_700_000_000))
        #expect(try attribute("{type: date, format: epochMillis, default: '1500'}").defaultValue == .real(1.5))
        #expect(
            try attribute("{type: date, format: 'yyyy-MM-dd HH:mm', default: '1970-01-02 00:01'}").defaultValue
                == .real(86_460))
    }

    @Test(arguments: [
        ("int", "many", "expected int, found string \"many\""),
        ("int", "1.5", "expected int, found number 1.5"),
        ("int", "9223372036854775808", "expected int, found number 9223372036854775808"),
        ("int", "' 1'", "expected int, found string \" 1\""),
        ("double", ".nan", "expected double, found string \".nan\""),
        ("double", "'1,5'", "expected double, found string \"1,5\""),
        ("bool", "yes", "expected bool, found string \"yes\""),
        ("bool", "2", "expected bool, found number 2"),
        ("decimal", "abc", "expected decimal, found string \"abc\""),
        ("uuid", "abc", "expected uuid, found string \"abc\""),
        ("url", "'http://[x'", "expected url, found string \"http://[x\""),
        ("date", "'2024-13-01'", "expected date (iso8601), found string \"2024-13-01\""),
        ("date", "1700000000", "expected date (iso8601), found number 1700000000"),
        ("string", "[a]", "expected string, found a list"),
        ("\"[int]\"", "5", "expected [int], found number 5"),
    ])
    func defaultsThatDoNotConvertAreErrors(type: String, value: String, message: String) {
        #expect(
            loadErrors(userMapping("  value: {type: \(type), default: \(value)}")) == [
                "m.yml:6:\(32 + type.count): error: invalid default for 'User.value': \(message)"
            ])
    }

    @Test func arrayDefaultElementsAreCheckedOneByOne() {
        #expect(
            loadErrors(userMapping("  value: {type: \"[int]\", default: [1, x, 3]}")) == [
                "m.yml:6:43: error: invalid default for 'User.value': expected int, found string \"x\""
            ])
    }

    @Test func transformsApplyToDefaults() throws {
        #expect(
            try attribute("{type: string, default: '  Hi There ', transform: [trim, lowercase]}").defaultValue
                == .text("hi there"))
        #expect(try attribute("{type: string, default: ab, transform: uppercase}").defaultValue == .text("AB"))
        #expect(try attribute("{type: string, default: '', transform: emptyIsNull}").defaultValue == .null)
        #expect(try attribute("{type: string, transform: [trim, emptyIsNull]}").transforms == [.trim, .emptyIsNull])
        #expect(
            loadErrors(userMapping("  value: {type: string, transform: [trim, lowercse]}")) == [
                "m.yml:6:47: error: invalid transform 'lowercse' (did you mean 'lowercase'?)"
            ])
    }

    @Test func enumValuesConvertToTheType() throws {
        #expect(
            try attribute("{type: string, enum: [open, closed]}").allowedValues == [.text("open"), .text("closed")])
        #expect(try attribute("{type: int, enum: [1, '2']}").allowedValues == [.integer(1), .integer(2)])
        #expect(try attribute("{type: \"[string]\", enum: [a, b]}").allowedValues == [.text("a"), .text("b")])
        #expect(
            loadErrors(
                userMapping(
                    "  value: {type: int, enum: [1, x]}", "  other: {type: string, enum: open}",
                    "  blob: {type: json, enum: [1]}")) == [
                    "m.yml:6:36: error: invalid enum value: expected int, found string \"x\"",
                    "m.yml:7:35: error: 'enum' must be a non-empty list of values, found string \"open\"",
                    "m.yml:8:26: error: 'enum' does not apply to json attributes",
                ])
    }

    @Test func formatIsForDates() throws {
        #expect(try attribute("date").dateFormat == .iso8601)
        #expect(try attribute("{type: date, format: epochMillis}").dateFormat == .epochMillis)
        #expect(try attribute("{type: \"[date]\", format: epoch}").dateFormat == .epoch)
        #expect(try attribute("{type: date, format: 'dd.MM.yyyy'}").dateFormat == .pattern("dd.MM.yyyy"))
        #expect(
            loadErrors(userMapping("  value: {type: int, format: epoch}", "  when: {type: date, format: yyyy-QQ}")) == [
                "m.yml:6:26: error: 'format' applies only to date attributes ('User.value' is int)",
                "m.yml:7:34: error: invalid date format: unknown field 'Q' in date pattern 'yyyy-QQ' (use yyyy, MM, dd, HH, mm, ss, SSS or 'quoted' text)",
            ])
    }

    @Test func boundsAreNumbers() throws {
        let bounded = try attribute("{type: int, min: 0, max: 1.5e2}")
        #expect(bounded.minimum == 0 && bounded.maximum == 150)
        #expect(try attribute("{type: \"[bool]\", max: 3}").maximum == 3)
        #expect(
            loadErrors(
                userMapping(
                    "  value: {type: int, min: lots, max: '5'}", "  name: {type: string, min: 5, max: 2}",
                    "  flag: {type: bool, min: 0}")) == [
                    "m.yml:6:31: error: 'min' must be a number, found string \"lots\"",
                    "m.yml:6:42: error: 'max' must be a number, found string \"5\"",
                    "m.yml:7:41: error: 'max' (2) is less than 'min' (5)",
                    "m.yml:8:26: error: 'min' applies to numbers, strings and arrays ('User.flag' is bool)",
                ])
    }

    @Test func patternIsAValidRegularExpression() throws {
        #expect(try attribute("{type: string, pattern: '^[a-z]+$'}").pattern == "^[a-z]+$")
        #expect(
            renderedError(
                userMapping("  value: {type: string, pattern: '[A-Z'}", "  count: {type: int, pattern: '\\d+'}")) == """
                    m.yml:6:38: error: invalid regular expression '[A-Z'
                          value: {type: string, pattern: '[A-Z'}
                                                         ^
                    m.yml:7:26: error: 'pattern' applies only to string, uuid and url attributes ('User.count' is int)
                          count: {type: int, pattern: '\\d+'}
                                             ^
                    """)
    }

    @Test func duplicateOptionKeysAreErrors() {
        #expect(
            loadErrors(userMapping("  value: {type: int, type: string}")) == [
                "m.yml:6:26: error: duplicate key 'type' in attribute 'User.value' (first at line 6)"
            ])
    }
}
