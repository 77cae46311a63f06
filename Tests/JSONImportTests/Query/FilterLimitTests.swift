import Testing

@testable import JSONImport

/// Filters come from the command line: however they are nested or however long they are, they
/// are refused with a message, never by a crash (the parser and compiler recurse on nesting) nor
/// by SQLite's own limits (expression depth 1000, 32766 parameters).
@Suite struct FilterLimitTests {
    private func parseError(_ text: String) -> String? {
        do {
            _ = try FilterParser.parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func nestingDeeperThanTheLimitIsRefused() {
        let deep = String(repeating: "(", count: 100_000) + "id = 1" + String(repeating: ")", count: 100_000)
        #expect(parseError(deep) == "invalid filter at column 65: parentheses and NOT nested more than 64 levels deep")
        let nots = String(repeating: "NOT ", count: 100_000) + "id = 1"
        #expect(parseError(nots) == "invalid filter at column 257: parentheses and NOT nested more than 64 levels deep")
    }

    @Test func nestingUpToTheLimitParses() {
        let nested = String(repeating: "(", count: 64) + "id = 1" + String(repeating: ")", count: 64)
        #expect(parseError(nested) == nil)
        #expect(parseError(String(repeating: "NOT ", count: 64) + "id = 1") == nil)
    }

    @Test func tooManyConditionsOrValuesAreRefused() {
        let conditions = Array(repeating: "id = 1", count: 501).joined(separator: " OR ")
        #expect(parseError(conditions)?.hasSuffix("more than 500 conditions in one filter") == true)
        #expect(parseError(Array(repeating: "id = 1", count: 500).joined(separator: " OR ")) == nil)
        let values = "id IN (" + Array(repeating: "1", count: 10_001).joined(separator: ", ") + ")"
        #expect(parseError(values)?.hasSuffix("more than 10000 values in one filter") == true)
    }

    @Test func anInvisibleCharacterIsNamedByItsCodePoint() {
        #expect(parseError("id = 1\u{07}") == "invalid filter at column 7: unexpected character U+0007")
        #expect(parseError("id = 1;") == "invalid filter at column 7: unexpected character ';'")
    }
}
