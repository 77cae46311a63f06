import Testing

@testable import JSONImport

/// Filters come from the command line and from code: however they are nested or however long
/// they are, they either run or are refused with a message naming the limit, never by a crash
/// (the parser and compiler recurse on nesting) nor by SQLite's own limits (parser stack,
/// expression depth 1000, 32766 parameters, 64 tables in a join, 50,000-byte LIKE patterns).
@Suite struct FilterLimitTests {
    private func parseError(_ text: String) -> String? {
        do {
            _ = try FilterParser.parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// The normalized form of `text`, or the error that refuses it.
    private func normalized(_ text: String) -> Result<FilterExpression, FilterError> {
        Result { () throws(FilterError) in try FilterParser.parse(text).normalized() }
    }

    /// `id = 1 OR (id = 2 AND (NOT (… leaf)))`: `levels` levels, each nested part last.
    static func nested(_ levels: Int, around leaf: String = "id = 1") -> String {
        var text = leaf
        for level in 0..<levels {
            switch level % 3 {
            case 0: text = "NOT (\(text))"
            case 1: text = "id = 1 OR (\(text))"
            default: text = "id = 2 AND (\(text))"
            }
        }
        return text
    }

    @Test func parenthesesDeeperThanTheLimitAreRefused() throws {
        let deep = String(repeating: "(", count: 100_000) + "id = 1" + String(repeating: ")", count: 100_000)
        #expect(parseError(deep) == "invalid filter at column 65: parentheses nested more than 64 levels deep")
        let nested = String(repeating: "(", count: 64) + "id = 1" + String(repeating: ")", count: 64)
        #expect(try normalized(nested).get() == .compare(path: ["id"], op: .equal, value: .number("1")))
    }

    @Test func runsOfNotFoldToOneOrNone() throws {
        let id = FilterExpression.compare(path: ["id"], op: .equal, value: .number("1"))
        #expect(try normalized(String(repeating: "NOT ", count: 23) + "id = 1").get() == .not(id))
        #expect(try normalized(String(repeating: "NOT ", count: 100_000) + "id = 1").get() == id)
        #expect(try normalized("NOT (NOT (NOT (id = 1)))").get() == .not(id))
    }

    @Test func nestedAndsAndOrsFlattenAndTheDeepestPartComesFirst() throws {
        let (a, b, c) = (
            FilterExpression.compare(path: ["a"], op: .equal, value: .number("1")),
            FilterExpression.compare(path: ["b"], op: .equal, value: .number("2")),
            FilterExpression.compare(path: ["c"], op: .equal, value: .number("3")))
        #expect(try normalized("a = 1 AND (b = 2 AND (c = 3))").get() == .and([a, b, c]))
        #expect(try normalized("a = 1 AND (b = 2 OR c = 3)").get() == .and([.or([b, c]), a]))
        #expect(try normalized("a = 1 AND NOT NOT (b = 2 AND c = 3)").get() == .and([a, b, c]))
    }

    @Test func nestingBeyondTheLimitIsRefusedAfterFolding() throws {
        #expect(throws: Never.self) { try normalized(Self.nested(32)).get() }
        #expect(normalized(Self.nested(33)) == .failure(FilterError(message: "AND, OR and NOT nested more than 32 levels deep", column: nil)))
        // Parentheses around one condition and pairs of NOT are no nesting.
        #expect(throws: Never.self) { try normalized("NOT NOT ((" + Self.nested(32) + "))").get() }
    }

    @Test func tooManyConditionsOrValuesAreRefused() {
        let conditions = Array(repeating: "id = 1", count: 501).joined(separator: " OR ")
        #expect(parseError(conditions)?.hasSuffix("more than 500 conditions in one filter") == true)
        #expect(parseError(Array(repeating: "id = 1", count: 500).joined(separator: " OR ")) == nil)
        let values = "id IN (" + Array(repeating: "1", count: 10_001).joined(separator: ", ") + ")"
        #expect(parseError(values)?.hasSuffix("more than 10000 values in one filter") == true)
    }

    @Test func builtFiltersMeetTheSameLimits() {
        let many = FilterExpression.or(Array(repeating: .compare(path: ["id"], op: .equal, value: .number("1")), count: 501))
        #expect(Result { () throws(FilterError) in try many.normalized() }
            == .failure(FilterError(message: "more than 500 conditions in one filter", column: nil)))
        let values = FilterExpression.isIn(path: ["id"], values: Array(repeating: .number("1"), count: 10_001))
        #expect(Result { () throws(FilterError) in try values.normalized() }
            == .failure(FilterError(message: "more than 10000 values in one filter", column: nil)))
    }

    @Test func likePatternsLongerThanSQLiteTakesAreRefused() throws {
        let longest = "login LIKE '" + String(repeating: "é", count: 25_000) + "'"
        #expect(throws: Never.self) { try normalized(longest).get() }
        let longer = "login LIKE '" + String(repeating: "é", count: 25_000) + "x'"
        #expect(normalized(longer) == .failure(FilterError(message: "LIKE pattern longer than 50000 bytes (50001 bytes)", column: nil)))
    }

    @Test func anInvisibleCharacterIsNamedByItsCodePoint() {
        #expect(parseError("id = 1\u{07}") == "invalid filter at column 7: unexpected character U+0007")
        #expect(parseError("id = 1;") == "invalid filter at column 7: unexpected character ';'")
    }
}
