import Foundation
import Testing
@testable import JSONImport

@Suite struct JSONReaderTests {
    @Test func parsesNestedDocumentIntoTape() throws {
        let parser = JSONParser()
        let doc = try parser.parse(JSONInput(#"{"a": [1, 2.50, "x\u00e9"], "b": null, "c": {"d": true}}"#))
        let root = doc.root
        #expect(root.kind == .object)
        #expect(root.count == 3)
        let a = try #require(root["a"])
        #expect(Array(a.elements).map(\.kind) == [.number, .number, .string])
        #expect(Array(a.elements)[0].exactInt64 == 1)
        #expect(String(decoding: Array(a.elements)[1].numberText!, as: UTF8.self) == "2.50")
        #expect(Array(a.elements)[2].string == "xé")
        #expect(root["b"]?.isNull == true)
        #expect(root["c"]?["d"]?.bool == true)
        #expect(root["zzz"] == nil)
    }

    /// Strings without escapes are read in place, the others unescaped: both give the text,
    /// whatever the blanks around them, and keys compare as text either way.
    @Test func stringsAndKeysReadTheSameWithOrWithoutEscapes() throws {
        let text = #"{ "plain" : "abc" , "e\u0073c" :"x\"y\\" ,"":"", "t\t":[ "" , "tail\/" , "q" ] ,"last":"end"  }"#
        let document = try JSONParser().parse(JSONInput(text))
        defer { withExtendedLifetime(document) {} }
        let root = document.root
        #expect(root["plain"]?.string == "abc")
        #expect(root["esc"]?.string == #"x"y\"#)
        #expect(root[""]?.string == "")
        #expect(root["t\t"].map { Array($0.elements).map(\.string) } == ["", "tail/", "q"])
        #expect(root["last"]?.string == "end")
        for document in [#""a b""#, "  \"a b\"\n", #""a\u0020b""#] {
            let parsed = try JSONParser().parse(JSONInput(document))
            #expect(withExtendedLifetime(parsed) { parsed.root.string } == "a b", "\(document)")
        }
        #expect(syntaxError(#"{"a": 1, "\u0061": 2}"#) == "1:10 (byte 9): duplicate key in object")
        #expect(syntaxError(#"{"\u0061": 1, "a" : 2}"#) == "1:15 (byte 14): duplicate key in object")
    }

    @Test(arguments: [
        ("[1, 2", "unexpected end of input"),
        ("{\"a\": 1, \"a\": 2}", "duplicate key in object"),
        ("[1] x", "unexpected content after the JSON value"),
        ("[01]", "invalid number"),
    ])
    func reportsSyntaxErrors(text: String, message: String) {
        let parser = JSONParser()
        #expect(throws: JSONSyntaxError.self) { try parser.parse(JSONInput(text)) }
        do {
            _ = try parser.parse(JSONInput(text))
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func memberLookupsWithACursorFindEveryKeyInAnyOrder() throws {
        let doc = try JSONParser().parse(JSONInput(#"{"a": 1, "b": {"a": 2}, "c": 3, "": 4, "d": [5]}"#))
        let root = doc.root
        var cursor = JSONValue.MemberCursor()
        func find(_ key: String, in value: JSONValue) -> String? {
            var key = key
            return key.withUTF8 { value.member(utf8: $0, cursor: &cursor) }.map(\.summary)
        }
        // In order, out of order, wrapping around, a missing key, and a nested object in between.
        for key in ["a", "b", "c", "", "d", "c", "a", "x", "d", "b"] {
            #expect(find(key, in: root) == root[key].map(\.summary), "key \(key)")
        }
        #expect(find("a", in: root["b"]!) == "number 2")
        #expect(find("c", in: root) == "number 3")
        #expect(find("a", in: root["d"]!) == nil)
    }

    @Test func keepsHugeNumbersAsText() throws {
        let parser = JSONParser()
        let doc = try parser.parse(JSONInput("[123456789012345678901234567890, 1e400, 18446744073709551615]"))
        let values = Array(doc.root.elements)
        #expect(values[0].kind == .number)
        #expect(values[0].exactInt64 == nil)
        #expect(String(decoding: values[1].numberText!, as: UTF8.self) == "1e400")
        #expect(values[2].double == 18446744073709551615.0)
    }

    @Test(arguments: ["44", " -0.0 ", "1.50\n", "12345678901234567890"])
    func aNumberIsAWholeDocument(text: String) throws {
        let document = try JSONParser().parse(JSONInput(text))
        #expect(document.root.kind == .number)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(String(decoding: document.root.numberText!, as: UTF8.self) == trimmed)
    }

    @Test(arguments: [("44 x", 3), ("4 4", 2), ("44]", 2)])
    func contentAfterANumberDocumentIsAnError(text: String, offset: Int) {
        #expect(throws: JSONSyntaxError(offset: offset, line: 1, column: offset + 1, message: "unexpected content after the JSON value")) {
            try JSONParser().parse(JSONInput(text))
        }
    }

    /// `text`'s syntax error as `line:column (byte offset): message`, or `nil` when it parses.
    private func syntaxError(_ text: String) -> String? {
        do {
            _ = try JSONParser().parse(JSONInput(text))
            return nil
        } catch {
            return "\(error.line):\(error.column) (byte \(error.offset)): \(error.message)"
        }
    }

    @Test func aBadStringIsPlacedWhereItStarts() {
        #expect(syntaxError(#"{"a": "x", "b": "\q"}"#) == #"1:17 (byte 16): invalid escape sequence or unpaired surrogate in a string"#)
        #expect(syntaxError(#"["ok", "\uD800"]"#) == #"1:8 (byte 7): invalid escape sequence or unpaired surrogate in a string"#)
        #expect(syntaxError("[\"ok\", \"a\tb\"]") == "1:10 (byte 9): control character in a string (it must be escaped)")
        #expect(syntaxError("[\"ok\",\n \"never closed]") == "2:2 (byte 8): string is never closed")
    }

    @Test func aMisspelledLiteralIsNamed() {
        #expect(syntaxError("[tru]") == "1:2 (byte 1): invalid literal (expected true, false or null)")
    }

    @Test func aRootNumberIsAValueAndWhatTrailsItIsAnError() throws {
        let parser = JSONParser()
        let document = try parser.parse(JSONInput(" 42 \n"))
        #expect(document.root.exactInt64 == 42)
        #expect(syntaxError("42 x") == "1:4 (byte 3): unexpected content after the JSON value")
    }

    @Test func positionsAreFoundQuicklyInLargeDocuments() {
        let large = "[\"" + String(repeating: "é", count: 5_000_000) + "\\x\"]"
        #expect(syntaxError(large) == "1:2 (byte 1): invalid escape sequence or unpaired surrogate in a string")
        let lines = "[" + String(repeating: "1,\n", count: 1_000_000) + "x]"
        #expect(syntaxError(lines) == "1000001:1 (byte 3000001): unexpected character or missing ',' ':' ']' or '}'")
    }
}
