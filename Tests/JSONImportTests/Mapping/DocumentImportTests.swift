import Foundation
import Testing

@testable import JSONImport

/// Documents with several roots (SPEC 1.5): every root list imported in one transaction, in
/// declared order, pruned root by root.
@Suite struct DocumentImportTests {
    static let yaml = """
        entities:
          User:
            primaryKey: id
            attributes: { id: int, login: string }
          Repo:
            primaryKey: id
            attributes: { id: int, name: string }
            relationships:
              owner: { to: User, kind: one, by: id }
          Item:
            oneOf: { key: type, map: { user: User, repo: Repo } }
        documents:
          Dump:
            roots: { users: User, "data.repos": Repo, included: Item }
        """

    static let dump = """
        {"users": [{"id": 1, "login": "ann"}, {"id": 2, "login": "bob"}],
         "data": {"repos": [{"id": 10, "name": "x", "owner": 1}]},
         "included": [{"type": "user", "id": 3, "login": "cy"}]}
        """

    @Test func everyRootIsImportedInDeclaredOrder() throws {
        let mapper = try makeMapper(Self.yaml)
        let report = try mapper.importJSON(Self.dump, as: "Dump")
        #expect(report.entity == "Dump" && report.records == 4)
        #expect(report.changes.map(\.entity) == ["User", "Repo"])
        #expect(report.counts(for: "User").inserted == 3 && report.stubs.isEmpty)
        #expect(try mapper.query("Repo").records().map { RecordValue.object($0).jsonText } == [#"{"id":10,"name":"x","owner":1}"#])
    }

    @Test func errorsNameTheRootAndTheIndexWithinIt() throws {
        let mapper = try makeMapper(Self.yaml)
        let bad = Self.dump.replacingOccurrences(of: #""id": 10"#, with: #""id": "ten""#)
        do {
            try mapper.importJSON(bad, as: "Dump")
            Issue.record("the import should fail")
        } catch let error as ImportError {
            #expect(error.report.errors.map(\.path) == ["$.data.repos[0].id"])
            #expect(error.report.errors.map(\.record) == [0])
        }
        // One transaction: the users before the failing root are not kept either.
        #expect(try mapper.rowCount("User") == 0)
    }

    @Test func aMissingRootImportsNothingAndPrunesNothing() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.dump, as: "Dump")
        var options = ImportOptions.default
        options.prune = true
        let report = try mapper.importJSON(#"{"users": [{"id": 1, "login": "ann"}]}"#, as: "Dump", options: options)
        #expect(report.records == 1)
        // Users 2 and 3 are gone; the repo (its root is absent) stays, and keeps its owner.
        #expect(report.counts(for: "User").deleted == 2 && report.counts(for: "Repo").deleted == 0)
        #expect(try mapper.rowCount("Repo") == 1)
    }

    @Test func aDocumentTakesNoRootKeyPathAndNoJSONLines() throws {
        let mapper = try makeMapper(Self.yaml)
        var options = ImportOptions.default
        options.root = "users"
        #expect(throws: ImportError.self) { try mapper.importJSON(Self.dump, as: "Dump", options: options) }
        do {
            try mapper.importJSON(Self.dump, as: "Dump", options: options)
        } catch let error as ImportError {
            #expect(error.message == "--root does not apply to document 'Dump': its roots say where each record list is")
        }
        options = .default
        options.format = .jsonl
        do {
            try mapper.importJSON(Self.dump, as: "Dump", options: options)
            Issue.record("JSON Lines should be refused")
        } catch let error as ImportError {
            #expect(error.code == .usage && error.message.contains("not JSON Lines"))
        }
    }
}
