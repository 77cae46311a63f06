import Foundation
import Testing
@testable import JSONImport

@Suite struct ImportSmokeTests {
    let payload = """
        [
          {"id": 1, "login": "ana", "contact": {"email": "a@x.io"}, "created_at": "2024-01-02T03:04:05Z",
           "address": {"street": "Main St", "city": "Oslo"},
           "repos": [{"id": 10, "name": "kit", "stars": 5, "tags": [{"name": "Swift"}, {"name": "cli"}]},
                     {"id": 11, "name": "db", "tags": [{"name": "swift"}]}],
           "follower_ids": [2, 99]},
          {"id": 2, "login": "bo", "repos": [], "follower_ids": [1]}
        ]
        """

    @Test func freshImportInsertsEveryRowAndReimportIsUnchanged() throws {
        let mapper = try makeMapper()
        let first = try mapper.importJSON(payload, as: "User")
        #expect(first.records == 2)
        #expect(first.counts(for: "User").list == [3, 0, 0, 0])
        #expect(first.counts(for: "Repo").list == [2, 0, 0, 0])
        #expect(first.counts(for: "Tag").list == [2, 0, 0, 0])
        #expect(first.counts(for: "Address").list == [1, 0, 0, 0])
        #expect(first.stubs.map(\.count) == [1])
        let second = try mapper.importJSON(payload, as: "User")
        #expect(second.counts(for: "User").list == [0, 0, 2, 0])
        #expect(second.counts(for: "Repo").list == [0, 0, 2, 0])
        #expect(second.counts(for: "Address").list == [0, 0, 1, 0])
        #expect(second.counts(for: "Tag").list == [0, 0, 2, 0])
        print(second.json())
    }

    /// Names at the 63 bytes PostgreSQL keeps (a 57-byte table beside its `__seen` table, a
    /// 63-byte attribute, an index and a link table's target index of 63 bytes) hold on every
    /// store: nothing is cut short into another name.
    @Test func namesAtTheLongestEveryStoreKeepsImportAndReadBack() throws {
        let table = "T" + String(repeating: "a", count: 56)
        let attribute = "n" + String(repeating: "a", count: 62)
        let indexed = String(repeating: "i", count: 57)
        let relationship = String(repeating: "r", count: 50)
        let mapper = try makeMapper("""
            entities:
              Short:
                primaryKey: id
                attributes:
                  id: int
                  \(indexed): { type: string, index: true }
                relationships:
                  \(relationship): {to: E, kind: many}
              E:
                table: \(table)
                primaryKey: id
                attributes:
                  id: int
                  \(attribute): string
            """)
        let json = #"[{"id": 1, "\#(indexed)": "x", "\#(relationship)": [{"id": 7, "\#(attribute)": "long"}]}]"#
        #expect(try mapper.importJSON(json, as: "Short").counts(for: "E").list == [1, 0, 0, 0])
        #expect(try mapper.importJSON(json, as: "Short").counts(for: "E").list == [0, 0, 1, 0])
        #expect(try mapper.storedRows("E", ids: [7], attribute) == [[.text("long")]])
        #expect(try mapper.storedRows("Short", ids: [1], indexed) == [[.text("x")]])
        #expect(try mapper.storedLinks("Short.\(relationship)") == [[.integer(1), .integer(7)]])
    }
}

@Suite struct ExampleMappingsTests {
    /// The repository's example mappings and payloads import cleanly, and again unchanged.
    @Test func examplesImportAndReimportUnchanged() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let mapper = try Mapper(mappings: root.appendingPathComponent("Mappings").path, store: TestStore.fresh())
        let users = root.appendingPathComponent("Examples/github/users.json").path
        let first = try mapper.importFile(users, as: "User")
        #expect(first.counts(for: "User").inserted > 0)
        let again = try mapper.importFile(users, as: "User")
        #expect(again.changes.allSatisfy { $0.counts.inserted == 0 && $0.counts.updated == 0 && $0.counts.deleted == 0 })
        let update = try mapper.importFile(root.appendingPathComponent("Examples/github/users-update.json").path, as: "User")
        print(update.text)
        let authors = try mapper.importFile(root.appendingPathComponent("Examples/blog/authors.json").path, as: "Author")
        print(authors.text)
        let articles = try mapper.importFile(root.appendingPathComponent("Examples/blog/articles.json").path, as: "Article")
        print(articles.text)
        let jsonl = try mapper.importFile(root.appendingPathComponent("Examples/github/users.jsonl").path, as: "User")
        print(jsonl.text)
    }
}
