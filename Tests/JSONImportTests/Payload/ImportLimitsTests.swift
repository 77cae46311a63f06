import Foundation
import Testing

@testable import JSONImport

/// `maxDepth` and `maxPayloadSize` (`import --max-depth`, `--max-payload-size`): payloads past
/// them are refused before anything is written; limits out of range are usage errors.
@Suite struct ImportLimitsTests {
    private let yaml = """
        entities:
          Item:
            primaryKey: id
            attributes:
              id: int
              extra: json
        """

    /// The error importing `json` with `options` as `code: message`, or `nil` when it imports.
    private func refusal(_ json: String, format: PayloadFormat? = nil, _ options: ImportOptions) throws -> String? {
        let mapper = try makeMapper(yaml)
        var options = options
        options.format = format
        do {
            try mapper.importJSON(json, as: "Item", options: options)
            return nil
        } catch let error as ImportError {
            #expect(try mapper.rowCount("Item") == 0)
            return "\(error.code): \(error.message)"
        }
    }

    @Test func nestingDeeperThanMaxDepthIsInvalidJSON() throws {
        let nested = #"{"id": 1, "extra": [[[1]]]}"#  // four levels: the object and three arrays around 1
        #expect(try refusal(nested, ImportOptions(maxDepth: 4)) == nil)
        #expect(
            try refusal(nested, ImportOptions(maxDepth: 3))
                == "invalidJSON: <data>:1:22: invalid JSON (byte 21): nesting deeper than 3 levels")
    }

    @Test func aDocumentLargerThanMaxPayloadSizeIsRefusedBeforeItIsParsed() throws {
        let payload = #"[{"id": 1}, {"id": 2}]"#
        #expect(try refusal(payload, ImportOptions(maxPayloadSize: payload.utf8.count)) == nil)
        #expect(
            try refusal(payload, ImportOptions(maxPayloadSize: 10))
                == "tooLarge: <data>: the payload is larger than the limit of 10 bytes (22 bytes or more)")
    }

    @Test func jsonLinesPayloadsMayBeLargerButNotTheirLines() throws {
        let lines = #"{"id": 1}"# + "\n" + #"{"id": 2, "extra": "long line"}"# + "\n"
        #expect(try refusal(lines, format: .jsonl, ImportOptions(maxPayloadSize: 31)) == nil)
        #expect(
            try refusal(lines, format: .jsonl, ImportOptions(maxPayloadSize: 20))
                == "tooLarge: <data>:2: the line is longer than the limit of 20 bytes")
    }

    /// A line past the limit is the error of the record it holds, after the lines before it are
    /// read, as a line that is no JSON is: its report names the record and counts those before.
    @Test func aLineOverTheLimitIsTheErrorOfItsRecord() throws {
        let mapper = try makeMapper(yaml)
        var options = ImportOptions(maxPayloadSize: 20)
        options.format = .jsonl
        let lines = #"{"id": 1}"# + "\n\n" + #"{"id": 2, "extra": "long line"}"# + "\n"
        #expect {
            try mapper.importJSON(lines, as: "Item", options: options)
        } throws: { error in
            guard let error = error as? ImportError, let issue = error.report.errors.first else { return false }
            return error.code == .tooLarge && issue.record == 1 && issue.line == 3 && error.report.records == 1
        }
        #expect(try mapper.rowCount("Item") == 0)
    }

    @Test func limitsOutOfRangeAreUsageErrors() throws {
        let message = try refusal("[]", ImportOptions(maxDepth: 0))
        #expect(message?.hasPrefix("usage: limits out of range: maxDepth must be 1 to 10000, got 0") == true)
        #expect(try refusal("[]", ImportOptions(maxDepth: 10_001))?.hasPrefix("usage:") == true)
        #expect(try refusal("[]", ImportOptions(maxPayloadSize: 0))?.hasPrefix("usage:") == true)
    }
}
