import Foundation
import Testing
@testable import JSONImport

/// An import stopped by invalid JSON reports where: the record being read (if any), the byte
/// offset in the file, the line and the column.
@Suite struct SyntaxIssueTests {
    private func issue(_ text: String, format: PayloadFormat? = nil) throws -> ImportIssue? {
        let mapper = try makeMapper()
        do {
            try mapper.importData(Data(text.utf8), as: "User", options: .init(format: format))
            return nil
        } catch let error as ImportError {
            #expect(error.code == .invalidJSON)
            #expect(error.report.changes.isEmpty)
            #expect(try mapper.rowCount("User") == 0)
            return error.report.errors.first
        }
    }

    @Test func aSyntaxErrorInsideTheRecordsNamesTheOneBeingRead() throws {
        #expect(try issue(#"[{"id": 1}, {"id": 2, "login": tru}]"#) == ImportIssue(
            file: "<data>", record: 1, path: "$", message: "invalid JSON: invalid literal (expected true, false or null)", line: 1, column: 32,
            offset: 31))
    }

    @Test func aSyntaxErrorAfterTheRecordsIsInNoRecord() throws {
        let found = try issue(#"[{"id": 1}]]"#)
        #expect(found?.record == nil)
        #expect(found?.offset == 11)
    }

    @Test func aStringNeverClosedInALargeStreamedDocumentNamesItsRecord() throws {
        // Over a megabyte: parsed on the worker thread, ahead of the import.
        let records = (0..<30_000).map { #"{"id": \#($0), "login": "user\#($0)"}"# }
        let text = "[" + records.joined(separator: ",") + #", {"id": 30000, "login": "cut"#
        let found = try issue(text)
        #expect(found?.record == 30_000)
        #expect(found?.offset == text.utf8.count - 4)
    }

    @Test func aJSONLinesErrorGivesTheOffsetInTheFileAndTheLine() throws {
        let found = try issue("{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3\n", format: .jsonl)
        #expect(found == ImportIssue(
            file: "<data>", record: 2, path: "$", message: "invalid JSON: unexpected end of input", line: 3, column: 9,
            offset: 28))
    }
}
