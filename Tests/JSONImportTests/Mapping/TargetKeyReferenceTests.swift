import Foundation
import Testing

@testable import JSONImport

/// `targetKey` (SPEC 1.3): references that match a `unique` attribute of the target, such as
/// an issue naming its repository only by `repository_url`, in any order within one import.
@Suite struct TargetKeyReferenceTests {
    private let yaml = """
        entities:
          Issue:
            primaryKey: id
            attributes: { id: int, title: string }
            relationships:
              repository: { to: Repo, kind: one, key: repository_url, by: id, targetKey: url }
              related: { to: Repo, kind: many, key: related, by: keyObject, targetKey: url, missing: error }
              repos: { to: Repo, kind: many, by: object }
          Repo:
            primaryKey: id
            attributes:
              id: int
              url: { type: url, unique: true }
        """

    /// Issue 1 names repositories that issue 2, later in the payload, holds.
    private let issues = """
        [{"id": 1, "title": "a", "repository_url": "https://r.example/5",
          "related": [{"url": "https://r.example/6", "name": "not read"}, {"url": "https://r.example/5"}]},
         {"id": 2, "title": "b", "repository_url": "https://r.example/9",
          "repos": [{"id": 5, "url": "https://r.example/5"}, {"id": 6, "url": "https://r.example/6"}]}]
        """

    private func texts(_ rows: [[StoredValue]]) -> [[String]] { rows.map { $0.map(\.description) } }

    @Test func referencesAreLookedUpAgainWhenTheImportEnds() throws {
        let mapper = try makeMapper(yaml)
        let report = try mapper.importJSON(issues, as: "Issue")
        #expect(report.errors.isEmpty)
        #expect(try texts(mapper.storedRows("Issue", "id", "repository", orderedBy: "id")) == [["1", "5"], ["2", "null"]])
        #expect(texts(try mapper.storedLinks("Issue.related")) == [["1", "6"], ["1", "5"]])
        // An unknown url under the default `missing: skip` leaves the link out and counts it.
        #expect(report.skippedLinks.map(\.relationship) == ["Issue.repository"])
        #expect(try mapper.rowCount("Repo") == 2)
    }

    @Test func anExportNamesTargetsByThatAttributeAndImportsBackUnchanged() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(issues, as: "Issue")
        let exported = try mapper.exportData("Issue", depth: 0)
        let text = String(decoding: exported, as: UTF8.self)
        #expect(text.contains(#""repository_url":"https://r.example/5","related":[{"url":"https://r.example/6"},{"url":"https://r.example/5"}]"#))
        let again = try mapper.importData(exported, as: "Issue")
        #expect(again.counts(for: "Issue").list == [0, 0, 2, 0])
    }

    @Test func aTargetMissingAtTheEndIsTheErrorOfItsRecordUnderMissingError() throws {
        let payload = #"[{"id": 1, "related": [{"url": "https://r.example/404"}]}, {"id": 2, "title": "kept"}]"#
        let mapper = try makeMapper(yaml)
        #expect(throws: ImportError.self) { try mapper.importJSON(payload, as: "Issue") }
        #expect(try mapper.rowCount("Issue") == 0)
        let report = try mapper.importJSON(payload, as: "Issue", options: .init(onError: .skip))
        #expect(report.errors.map(\.path) == ["$[0].related[0]"])
        #expect(report.errors.map(\.message) == [#"no Repo with url "https://r.example/404" (missing: error)"#])
        #expect(try texts(mapper.storedRows("Issue", "id", "title")) == [["2", #""kept""#]])
    }

    @Test(arguments: [
        ("targetKey: link", "m.yml:7:61: error: targetKey 'link' names no attribute of 'Repo'"),
        ("targetKey: id", "m.yml:7:61: error: targetKey 'id' of 'Repo' is not 'unique': a reference must name one row"),
        ("targetKey: url, missing: stub",
         "m.yml:7:75: error: 'missing: stub' cannot go with 'targetKey': a stub needs a primary key; use 'skip' or 'error'"),
    ])
    func targetKeyNamesAUniqueAttributeOfTheTarget(option: String, error: String) {
        let yaml = """
            entities:
              Issue:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  other: { to: Issue, kind: one, by: id }
                  repository: { to: Repo, kind: one, by: id, \(option) }
              Repo:
                primaryKey: id
                attributes: { id: int, url: { type: url, unique: true }, name: string }
            """
        #expect(loadErrors(yaml) == [error])
    }

    @Test func targetKeyIsForReferencesNotNestedObjects() {
        let yaml = """
            entities:
              Issue:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  repository: { to: Repo, kind: one, by: object, targetKey: url }
              Repo:
                primaryKey: id
                attributes: { id: int, url: { type: url, unique: true } }
            """
        #expect(loadErrors(yaml) == [
            "m.yml:6:65: error: 'targetKey' applies to references (by: id, keyObject or auto), not to 'by: object'"
        ])
    }
}
