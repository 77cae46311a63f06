import Foundation
import Testing
@testable import JSONImport

/// One attribute `v` of an `Item` keyed by `id`, imported through the Swift API: what the store
/// keeps for a JSON value, or the record error it raises (SPEC 1.2 type table).
private struct Probe {
    let mapper: Mapper

    /// `attribute` is the YAML of `v`: a type (`int`) or a long form (`{ type: date, format: epoch }`).
    init(_ attribute: String) throws {
        mapper = try makeMapper("""
            entities:
              Item:
                primaryKey: id
                attributes:
                  id: int
                  v: \(attribute)
            """)
    }

    /// Imports `{"id": 1, "v": json}` and returns the value stored for `v`.
    func stored(_ json: String) throws -> StoredValue {
        try mapper.importJSON(#"{"id": 1, "v": \#(json)}"#, as: "Item")
        return try mapper.storedRows("Item", ids: [1], "v").first?.first ?? .null
    }

    /// The error importing `{"id": 1, "v": json}` raises, as `path: message`; `nil` when it imports.
    func rejection(_ json: String) -> String? {
        do {
            try mapper.importJSON(#"{"id": 1, "v": \#(json)}"#, as: "Item")
            return nil
        } catch let error as ImportError {
            return error.report.errors.first.map { "\($0.path): \($0.message)" } ?? "\(error.code): \(error.message)"
        } catch {
            return "\(error)"
        }
    }
}

@Suite struct TypeConversionTests {
    // MARK: int

    @Test func intAcceptsIntegersIntegralNumbersAndIntegerStrings() throws {
        let probe = try Probe("int")
        #expect(try probe.stored("42") == .integer(42))
        #expect(try probe.stored("-7") == .integer(-7))
        #expect(try probe.stored("1e3") == .integer(1000))
        #expect(try probe.stored("2.0") == .integer(2))
        #expect(try probe.stored(#""123""#) == .integer(123))
        #expect(try probe.stored(#""-5""#) == .integer(-5))
        #expect(try probe.stored("9223372036854775807") == .integer(.max))
        #expect(try probe.stored("-9223372036854775808") == .integer(.min))
    }

    @Test func intOutOf64BitRangeIsAnErrorNeverAWrap() throws {
        let probe = try Probe("int")
        #expect(probe.rejection("9223372036854775808") == "$.v: expected int, found number 9223372036854775808")
        #expect(probe.rejection("-9223372036854775809") == "$.v: expected int, found number -9223372036854775809")
        #expect(probe.rejection("1e19") == "$.v: expected int, found number 1e19")
        #expect(probe.rejection(#""99999999999999999999""#) == #"$.v: expected int, found string "99999999999999999999""#)
        #expect(try probe.mapper.rowCount("Item") == 0)
    }

    @Test func intRejectsFractionsTextAndBooleans() throws {
        let probe = try Probe("int")
        #expect(probe.rejection("1.5") == "$.v: expected int, found number 1.5")
        #expect(probe.rejection(#""abc""#) == #"$.v: expected int, found string "abc""#)
        #expect(probe.rejection(#""many""#) == #"$.v: expected int, found string "many""#)
        #expect(probe.rejection("true") == "$.v: expected int, found bool true")
        #expect(probe.rejection("[1]") == "$.v: expected int, found array")
        #expect(probe.rejection(#"{"n": 1}"#) == "$.v: expected int, found object")
    }

    // MARK: double

    @Test func doubleAcceptsNumbersAndNumericStrings() throws {
        let probe = try Probe("double")
        #expect(try probe.stored("1.25") == .real(1.25))
        #expect(try probe.stored("3") == .real(3))
        #expect(try probe.stored("-2.5e2") == .real(-250))
        #expect(try probe.stored(#""0.5""#) == .real(0.5))
        #expect(try probe.stored(#""1e2""#) == .real(100))
    }

    /// SQLite stores an integral REAL as an integer, `-0.0` as `0`: every store keeps `0.0`.
    @Test func doubleMinusZeroIsStoredAsZeroOnEveryStore() throws {
        let probe = try Probe("double")
        for json in ["-0.0", "-0", "-0e5", #""-0.0""#] {
            guard case .real(let stored) = try probe.stored(json) else { Issue.record("\(json) not stored as a double"); continue }
            #expect(stored == 0 && stored.sign == .plus, "\(json)")
        }
    }

    @Test func doubleRejectsNaNTextAndBooleans() throws {
        let probe = try Probe("double")
        #expect(probe.rejection(#""nan""#) == #"$.v: expected double, found string "nan""#)
        #expect(probe.rejection(#""abc""#) == #"$.v: expected double, found string "abc""#)
        #expect(probe.rejection("false") == "$.v: expected double, found bool false")
    }

    // MARK: bool

    @Test func boolAcceptsBooleansZeroOneAndTheirStrings() throws {
        let probe = try Probe("bool")
        #expect(try probe.stored("true") == .integer(1))
        #expect(try probe.stored("false") == .integer(0))
        #expect(try probe.stored("1") == .integer(1))
        #expect(try probe.stored("0") == .integer(0))
        #expect(try probe.stored(#""true""#) == .integer(1))
        #expect(try probe.stored(#""false""#) == .integer(0))
        #expect(try probe.stored(#""1""#) == .integer(1))
        #expect(try probe.stored(#""0""#) == .integer(0))
    }

    @Test func boolRejectsOtherNumbersAndWords() throws {
        let probe = try Probe("bool")
        #expect(probe.rejection("2") == "$.v: expected bool, found number 2")
        #expect(probe.rejection(#""yes""#) == #"$.v: expected bool, found string "yes""#)
        #expect(probe.rejection(#""TRUE""#) == #"$.v: expected bool, found string "TRUE""#)
    }

    // MARK: string

    @Test func stringTakesNumbersAsTheirSourceTextAndBooleansAsWords() throws {
        let probe = try Probe("string")
        #expect(try probe.stored(#""héllo""#) == .text("héllo"))
        #expect(try probe.stored("1.50") == .text("1.50"))
        #expect(try probe.stored("1e3") == .text("1e3"))
        #expect(try probe.stored("-0") == .text("-0"))
        #expect(try probe.stored("true") == .text("true"))
        #expect(try probe.stored("false") == .text("false"))
    }

    @Test func stringRejectsArraysAndObjects() throws {
        let probe = try Probe("string")
        #expect(probe.rejection(#"["a"]"#) == "$.v: expected string, found array")
        #expect(probe.rejection(#"{"a": 1}"#) == "$.v: expected string, found object")
    }

    /// PostgreSQL's `text` cannot hold U+0000: every store refuses it alike (SPEC 6), in a
    /// string, a `[string]` element or a key, and keeps it escaped in `json`.
    @Test func stringHoldingUPlus0000IsARecordErrorOnEveryStore() throws {
        let probe = try Probe("string")
        #expect(probe.rejection(#""a\u0000b""#) == #"$.v: expected string without U+0000, found string "a\u0000b""#)
        #expect(try probe.stored(#""a\u0001b""#) == .text("a\u{1}b"))
        #expect(try Probe(#""[string]""#).rejection(#"["ok", "\u0000"]"#)
            == #"$.v[1]: expected string without U+0000, found string "\u0000""#)
        #expect(try Probe("json").stored(#"{"a": "x\u0000"}"#) == .text(#"{"a":"x\u0000"}"#))
        let keyed = try makeMapper("""
            entities:
              Tag:
                primaryKey: name
                attributes:
                  name: string
            """)
        try keyed.importJSON(#"{"name": "swift"}"#, as: "Tag")
        #expect(throws: ImportError.self) { try keyed.importJSON(#"[{"name": "go"}, {"name": "\u0000"}]"#, as: "Tag") }
        #expect(try keyed.storedRows("Tag", "name") == [[.text("swift")]])
    }

    /// PostgreSQL's B-tree refuses an entry past about 2,700 bytes (and a store holding one could
    /// not build its index): a key's, an `index`ed or a `unique` value holds at most 2,600 bytes
    /// of text on every store, a composite key's values together.
    @Test func indexedValuesHoldAtMost2600BytesOnEveryStore() throws {
        let limit = "a key, 'index' or 'unique' value holds at most 2600 bytes (what PostgreSQL indexes, kept by every store)"
        let indexed = try Probe("{ type: string, index: true }")
        let long = String(repeating: "é", count: 1_300)
        #expect(try indexed.stored("\"\(long)\"") == .text(long))
        #expect(indexed.rejection("\"\(long)x\"") == "$.v: the value is 2601 bytes long; \(limit)")
        #expect(try Probe("string").stored("\"\(long)x\"") == .text(long + "x"))
        let keyed = try makeMapper("""
            entities:
              Pair:
                primaryKey: [a, b]
                attributes: { a: string, b: string }
              Holder:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  pair: { to: Pair, kind: one }
            """)
        let half = String(repeating: "a", count: 1_300)
        try keyed.importJSON(#"{"a": "\#(half)", "b": "\#(half)"}"#, as: "Pair")
        #expect(throws: ImportError.self) { try keyed.importJSON(#"{"a": "\#(half)", "b": "\#(half)b"}"#, as: "Pair") }
        #expect(throws: ImportError.self) { try keyed.importJSON(#"{"id": 1, "pair": ["\#(half)", "\#(half)b"]}"#, as: "Holder") }
        #expect(try keyed.rowCount("Pair") == 1)
    }

    // MARK: date

    @Test func iso8601DatesAcceptFractionalSecondsAndOffsets() throws {
        let probe = try Probe("date")
        // 2024-01-02T03:04:05Z is 1704164645 seconds after 1970.
        #expect(try probe.stored(#""2024-01-02T03:04:05Z""#) == .real(1_704_164_645))
        #expect(try probe.stored(#""2024-01-02T03:04:05.25Z""#) == .real(1_704_164_645.25))
        #expect(try probe.stored(#""2024-01-02T04:04:05+01:00""#) == .real(1_704_164_645))
        #expect(try probe.stored(#""2024-01-01T22:04:05.5-05:00""#) == .real(1_704_164_645.5))
    }

    @Test func iso8601DatesRejectOtherShapes() throws {
        let probe = try Probe("date")
        #expect(probe.rejection(#""02/01/2024""#) == #"$.v: expected date (iso8601), found string "02/01/2024""#)
        #expect(probe.rejection(#""2024-13-01T00:00:00Z""#) == #"$.v: expected date (iso8601), found string "2024-13-01T00:00:00Z""#)
        #expect(probe.rejection("1704164645") == "$.v: expected date (iso8601), found number 1704164645")
        #expect(probe.rejection("true") == "$.v: expected date (iso8601), found bool true")
    }

    @Test func epochDatesAcceptNumbersAndNumericStrings() throws {
        let probe = try Probe("{ type: date, format: epoch }")
        #expect(try probe.stored("1704164645") == .real(1_704_164_645))
        #expect(try probe.stored("1704164645.5") == .real(1_704_164_645.5))
        #expect(try probe.stored(#""1704164645""#) == .real(1_704_164_645))
        #expect(probe.rejection(#""2024-01-02T03:04:05Z""#) == #"$.v: expected date (epoch), found string "2024-01-02T03:04:05Z""#)
    }

    @Test func epochMillisDatesAreMillisecondsSince1970() throws {
        let probe = try Probe("{ type: date, format: epochMillis }")
        #expect(try probe.stored("1704164645250") == .real(1_704_164_645.25))
        #expect(try probe.stored(#""1704164645000""#) == .real(1_704_164_645))
        #expect(probe.rejection(#""soon""#) == #"$.v: expected date (epochMillis), found string "soon""#)
    }

    /// A date is an instant ISO 8601 writes with a four-digit year, which every store keeps:
    /// an epoch number past either end is a record error, not a value a store refuses or a query
    /// cannot print.
    @Test func datesOutsideYears0000To9999AreRecordErrors() throws {
        let probe = try Probe("{ type: date, format: epoch }")
        let range = "in years 0000 to 9999 (UTC)"
        #expect(try probe.stored("-62167219200") == .real(-62_167_219_200))
        #expect(try probe.stored("253402300799.5") == .real(253_402_300_799.5))
        #expect(probe.rejection("253402300800") == "$.v: expected date (epoch) \(range), found number 253402300800")
        #expect(probe.rejection("-62167219201") == "$.v: expected date (epoch) \(range), found number -62167219201")
        #expect(probe.rejection(#""1e15""#) == #"$.v: expected date (epoch) \#(range), found string "1e15""#)
        #expect(try Probe("{ type: date, format: epochMillis }").rejection("9.2e18")
            == "$.v: expected date (epochMillis) \(range), found number 9.2e18")
        #expect(try Probe("date").stored(#""0000-01-01T00:00:00Z""#) == .real(-62_167_219_200))
    }

    /// PostgreSQL's `timestamptz` keeps microseconds: every store keeps a date to the
    /// microsecond, and a filter's date literal is rounded the same way, so that both compare
    /// alike (SPEC 6).
    @Test func datesAreKeptToTheMicrosecondOnEveryStore() throws {
        let probe = try Probe("date")
        #expect(try probe.stored(#""2024-01-01T00:00:00.0000007Z""#) == .real(1_704_067_200.000001))
        #expect(try probe.stored(#""2024-01-01T00:00:00.0000003Z""#) == .real(1_704_067_200))
        #expect(try Probe("{ type: date, format: epoch }").stored("1.9999999") == .real(2))
        #expect(try Probe("{ type: date, format: epochMillis }").stored("999.9999995") == .real(1))
        let ids = { (filter: String) in try probe.mapper.query("Item").where(filter).records().map { $0["id"] } }
        try probe.mapper.importJSON(#"{"id": 1, "v": "2024-01-01T00:00:00.0000007Z"}"#, as: "Item")
        #expect(try ids("v = '2024-01-01T00:00:00.000001Z'") == [.int(1)])
        #expect(try ids("v = '2024-01-01T00:00:00.0000006Z'") == [.int(1)])
        #expect(try ids("v > '2024-01-01T00:00:00Z'") == [.int(1)])
    }

    @Test func patternDatesAreReadInUTC() throws {
        let probe = try Probe(#"{ type: date, format: "yyyy-MM-dd HH:mm:ss" }"#)
        #expect(try probe.stored(#""2024-01-02 03:04:05""#) == .real(1_704_164_645))
        #expect(probe.rejection(#""2024-01-02T03:04:05Z""#)
            == #"$.v: expected date (yyyy-MM-dd HH:mm:ss), found string "2024-01-02T03:04:05Z""#)
        #expect(probe.rejection("1704164645") == "$.v: expected date (yyyy-MM-dd HH:mm:ss), found number 1704164645")
    }

    // MARK: decimal

    @Test func decimalKeepsTheExactSourceText() throws {
        let probe = try Probe("decimal")
        #expect(try probe.stored("12.3400") == .text("12.3400"))
        #expect(try probe.stored("0.1") == .text("0.1"))
        #expect(try probe.stored("123456789012345678901234567890.5") == .text("123456789012345678901234567890.5"))
        #expect(try probe.stored("1e400") == .text("1e400"))
        #expect(try probe.stored(#""19.90""#) == .text("19.90"))
    }

    @Test func decimalRejectsTextThatIsNoNumber() throws {
        let probe = try Probe("decimal")
        #expect(probe.rejection(#""abc""#) == #"$.v: expected decimal, found string "abc""#)
        #expect(probe.rejection("true") == "$.v: expected decimal, found bool true")
    }

    // MARK: uuid, url

    @Test func uuidIsStoredLowercased() throws {
        let probe = try Probe("uuid")
        #expect(try probe.stored(#""6BA7B810-9DAD-11D1-80B4-00C04FD430C8""#) == .text("6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        #expect(probe.rejection(#""6BA7B810-9DAD-11D1-80B4""#) == #"$.v: expected uuid, found string "6BA7B810-9DAD-11D1-80B4""#)
        #expect(probe.rejection("42") == "$.v: expected uuid, found number 42")
    }

    @Test func urlIsAStringThatParsesAsOne() throws {
        let probe = try Probe("url")
        #expect(try probe.stored(#""https://example.com/a?b=1#c""#) == .text("https://example.com/a?b=1#c"))
        #expect(probe.rejection(#""""#) == #"$.v: expected url, found string """#)
        #expect(probe.rejection("42") == "$.v: expected url, found number 42")
    }

    // MARK: json

    @Test func jsonKeepsAnySubtreeAsJSONText() throws {
        let probe = try Probe("json")
        #expect(try probe.stored(#"{"a": [1, 2.50, "x"], "b": {"c": null}}"#) == .text(#"{"a":[1,2.50,"x"],"b":{"c":null}}"#))
        #expect(try probe.stored("[true, false]") == .text("[true,false]"))
        #expect(try probe.stored(#""text""#) == .text(#""text""#))
        #expect(try probe.stored("1.50") == .text("1.50"))
        #expect(try probe.stored("null") == .null)
    }

    /// JSON compares keys by their code points: `"é"` and `"e\u0301"` are two keys, kept
    /// and read back as two (Swift's `==` takes them for one).
    @Test func jsonObjectKeysAreTheirCodePoints() throws {
        let probe = try Probe("json")
        #expect(try probe.stored(#"{"\u00e9": 1, "e\u0301": 2}"#) == .text("{\"\u{e9}\":1,\"e\u{301}\":2}"))
        let record = try #require(try probe.mapper.query("Item").records().first)
        guard case .object(let object)? = record["v"] else { Issue.record("v is not an object: \(record)"); return }
        #expect(object.keys.map { Array($0.unicodeScalars) } == [["\u{e9}"], ["e", "\u{301}"]])
        #expect(object["\u{e9}"] == .number("1") && object["e\u{301}"] == .number("2"))
    }

    // MARK: [T]

    @Test func arraysAreConvertedElementWise() throws {
        #expect(try Probe(#""[int]""#).stored(#"[1, "2", 3.0, 4e1]"#) == .text("[1,2,3,40]"))
        #expect(try Probe(#""[string]""#).stored(#"["a", 1.50, true]"#) == .text(#"["a","1.50","true"]"#))
        #expect(try Probe(#""[bool]""#).stored(#"[true, 0, "1"]"#) == .text("[true,false,true]"))
        #expect(try Probe("[uuid]").stored(#"["6BA7B810-9DAD-11D1-80B4-00C04FD430C8"]"#)
            == .text(#"["6ba7b810-9dad-11d1-80b4-00c04fd430c8"]"#))
        #expect(try Probe(#""[int]""#).stored("[]") == .text("[]"))
    }

    @Test func arrayWithABadElementIsRejectedWithTheElementsPath() throws {
        let probe = try Probe(#""[int]""#)
        #expect(probe.rejection(#"[1, 2, "many"]"#) == #"$.v[2]: expected int, found string "many""#)
        #expect(probe.rejection("[1.5]") == "$.v[0]: expected int, found number 1.5")
    }

    @Test func arrayTypeRejectsAScalar() throws {
        let probe = try Probe(#""[int]""#)
        #expect(probe.rejection("1") == "$.v: expected [int], found number 1")
        #expect(probe.rejection(#"{"a": 1}"#) == "$.v: expected [int], found object")
    }

    // MARK: Errors in context

    @Test func conversionErrorsNameTheFullPathInsideNestedRecordsAndKeyPaths() throws {
        let mapper = try makeMapper()
        let payload = #"[{"id": 1}, {"id": 2, "contact": {"email": 5}, "repos": [{"id": 7, "name": "x", "stars": "lots"}]}]"#
        #expect {
            try mapper.importJSON(payload, as: "User")
        } throws: { error in
            let issue = (error as? ImportError)?.report.errors.first
            return issue?.file == "<data>" && issue?.record == 1 && issue?.path == "$[1].repos[0].stars"
                && issue?.message == #"expected int, found string "lots""#
        }
        let badDate = #"{"id": 3, "created_at": "yesterday"}"#
        #expect {
            try mapper.importJSON(badDate, as: "User")
        } throws: { error in
            let issue = (error as? ImportError)?.report.errors.first
            return issue?.path == "$.created_at" && issue?.message == #"expected date (iso8601), found string "yesterday""#
        }
    }

    @Test func nullIsStoredAsNullForEveryType() throws {
        for type in ["int", "double", "bool", "string", "date", "decimal", "uuid", "url", "json", #""[int]""#] {
            let probe = try Probe(type)
            #expect(try probe.stored("null") == .null, "\(type)")
        }
    }
}
