import Foundation
import Testing

@testable import JSONImport

/// `nullIf`, `map` / `mapDefault` and `present` when records are imported and exported
/// (SPEC 1.2): before conversion, in that order, and back again on export.
@Suite struct ValueMapImportTests {
    private let yaml = """
        version: 1
        defaults: { keyStyle: snake_case }
        entities:
          Issue:
            primaryKey: id
            attributes:
              id: int
              homepage: { type: url, nullIf: ["", "N/A"] }
              closedAt: { type: date, nullIf: "" }
              state: { type: int, map: { open: 1, closed: 2, 3: 3 }, mapDefault: 0 }
              priority: { type: string, map: { 1: high, '1': text-one, true: "yes" } }
              label: { type: string, required: true, nullIf: "-", map: { "-": never, x: " X " }, transform: [trim, lowercase] }
              isPullRequest: { key: pull_request, type: bool, present: true }
        """

    private let issues = """
        [
          {"id": 1, "homepage": "", "closed_at": "", "state": "open", "priority": 1, "label": "x", "pull_request": {"url": "u"}},
          {"id": 2, "homepage": "N/A", "state": "weird", "priority": "1", "label": "x"},
          {"id": 3, "homepage": "https://a.example", "closed_at": "2024-01-01T00:00:00Z", "state": 3.0, "priority": true,
           "label": "x", "pull_request": null}
        ]
        """

    private func texts(_ rows: [[StoredValue]]) -> [[String]] { rows.map { $0.map(\.description) } }

    @Test func valuesAreReadAsNullMappedOrPresentBeforeConversion() throws {
        let mapper = try makeMapper(yaml)
        let report = try mapper.importJSON(issues, as: "Issue")
        #expect(report.errors.isEmpty)
        #expect(try texts(mapper.storedRows("Issue", "id", "homepage", "closedAt", "state", "priority", "label", "isPullRequest", orderedBy: "id")) == [
            ["1", "null", "null", "1", "\"high\"", "\"x\"", "1"],
            ["2", "null", "null", "0", "\"text-one\"", "\"x\"", "0"],
            ["3", "\"https://a.example\"", "1704067200.0", "3", "\"yes\"", "\"x\"", "0"],
        ])
    }

    @Test func anExportImportsBackUnchanged() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(issues, as: "Issue")
        let exported = try mapper.exportData("Issue")
        let text = String(decoding: exported, as: UTF8.self)
        #expect(text.contains(#""state":"open""#) && text.contains(#""priority":true"#) && text.contains(#""pull_request":true"#))
        let again = try mapper.importData(exported, as: "Issue")
        #expect(again.counts(for: "Issue").list == [0, 0, 3, 0])
    }

    @Test(arguments: [
        (#"[{"id": 5, "priority": 2, "label": "x"}]"#, "$[0].priority",
         "number 2 is not a key of the 'map' of 'priority', which has no 'mapDefault'"),
        (#"[{"id": 5, "label": "-"}]"#, "$[0].label", "'label' is required, found null"),
        (#"[{"id": 5, "homepage": "nope", "label": "x"}]"#, "$[0].homepage", "expected url, found string \"nope\""),
    ])
    func valuesOutsideTheMapOrNullIfAreRecordErrors(payload: String, path: String, message: String) throws {
        let mapper = try makeMapper(yaml)
        let report = try mapper.importJSON(payload, as: "Issue", options: .init(onError: .skip))
        #expect(report.errors.map(\.path) == [path])
        #expect(report.errors.map(\.message) == [message])
        #expect(try mapper.rowCount("Issue") == 0)
    }

    private struct Issue: Codable, Equatable {
        var id: Int
        var state: Int?
        var priority: String?
        var label: String
        var isPullRequest: Bool
    }

    @Test func swiftValuesAreSavedThroughTheMapAndReadBackAsStored() throws {
        let mapper = try makeMapper(yaml)
        let saved = [Issue(id: 7, state: 2, priority: "yes", label: "x", isPullRequest: true),
                     Issue(id: 8, state: 0, priority: nil, label: "x", isPullRequest: false)]
        for issue in saved { try mapper.save(issue) }
        #expect(try mapper.find(Issue.self, id: 7) == saved[0])
        #expect(try mapper.find(Issue.self, id: 8) == saved[1])
    }

    @Test func aPresentAttributeIsNeverLeftAsStored() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 1, "label": "x", "pull_request": {}}]"#, as: "Issue")
        try mapper.importJSON(#"[{"id": 1}]"#, as: "Issue")
        #expect(try texts(mapper.storedRows("Issue", "isPullRequest", "label")) == [["0", "\"x\""]])
    }
}
