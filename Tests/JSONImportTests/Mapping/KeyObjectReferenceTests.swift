import Foundation
import Testing

@testable import JSONImport

/// `by: keyObject` (SPEC 1.3): references given as objects of which only the target's key is
/// read, such as commit parents sent as `{sha, url}`.
@Suite struct KeyObjectReferenceTests {
    private let yaml = """
        entities:
          Commit:
            primaryKey: sha
            attributes: { sha: string, message: string, url: url }
            relationships:
              parents: { to: Commit, kind: many, by: keyObject }
              author: { to: Person, kind: one, by: keyObject, missing: error }
          Person:
            primaryKey: login
            attributes: { login: string, name: string }
        """

    private let commits = """
        [{"sha": "b", "message": "second", "url": "https://x.example/b", "parents": [{"sha": "a", "url": "https://x.example/a"}]},
         {"sha": "a", "message": "first", "url": "https://x.example/a", "parents": []},
         {"sha": "c", "message": "third", "parents": [{"sha": "b", "url": "https://x.example/other", "message": "not read"}, {"sha": "z"}]}]
        """

    private func texts(_ rows: [[StoredValue]]) -> [[String]] { rows.map { $0.map(\.description) } }

    @Test func onlyTheKeyIsReadAndAMissingTargetIsAStub() throws {
        let mapper = try makeMapper(yaml)
        let report = try mapper.importJSON(commits, as: "Commit")
        #expect(report.stubs.map(\.entity) == ["Commit"] && report.stubs.map(\.count) == [1])
        // b keeps its own url and message: a reference never writes its target.
        #expect(try texts(mapper.storedRows("Commit", "sha", "message", "url", orderedBy: "sha")) == [
            [#""a""#, #""first""#, #""https://x.example/a""#], [#""b""#, #""second""#, #""https://x.example/b""#],
            [#""c""#, #""third""#, "null"], [#""z""#, "null", "null"],
        ])
        #expect(try mapper.storedLinks("Commit.parents").count == 3)
    }

    @Test func anExportWritesKeyObjectsAndImportsBackUnchanged() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(commits, as: "Commit")
        let exported = try mapper.exportData("Commit", depth: 2)
        #expect(String(decoding: exported, as: UTF8.self).contains(#""parents":[{"sha":"b"},{"sha":"z"}]"#))
        #expect(try mapper.importData(exported, as: "Commit").counts(for: "Commit").list == [0, 0, 3, 0])
    }

    @Test(arguments: [
        (#"[{"sha": "d", "parents": ["a"]}]"#, "$[0].parents[0]", #"expected an object holding the key of Commit, found string "a""#),
        (#"[{"sha": "d", "parents": [{"url": "https://x.example"}]}]"#, "$[0].parents[0].sha", "missing key 'sha' (key 'sha') of Commit"),
        (#"[{"sha": "d", "author": {"login": "ann"}}]"#, "$[0].author", #"no Person with key "ann" (missing: error)"#),
    ])
    func aReferenceThatIsNoKeyObjectIsARecordError(payload: String, path: String, message: String) throws {
        let mapper = try makeMapper(yaml)
        let report = try mapper.importJSON(payload, as: "Commit", options: .init(onError: .skip))
        #expect(report.errors.map(\.path) == [path])
        #expect(report.errors.map(\.message) == [message])
        #expect(try mapper.rowCount("Commit") == 0)
    }

    @Test func anOwnedTargetCannotBeReferencedByKeyObject() {
        let yaml = """
            entities:
              User:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  address: { to: Address, kind: one, by: keyObject }
              Address:
                attributes: { city: string }
            """
        #expect(loadErrors(yaml) == [
            "m.yml:6:46: error: 'by: keyObject' cannot reference owned entity 'Address' (it has no primaryKey); use 'by: object'"
        ])
    }
}
