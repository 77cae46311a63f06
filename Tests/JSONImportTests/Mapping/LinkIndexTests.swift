import Foundation
import Testing
@testable import JSONImport

/// A link table filled from empty has its target index dropped during the import and built again
/// before anything reads links by target; the store ends with the same schema either way.
@Suite(.tags(.sqliteOnly), .sqliteStore) struct LinkIndexTests {
    static let yaml = """
        version: 1
        entities:
          Repo:
            primaryKey: id
            attributes:
              id: int
            relationships:
              tags: { to: Tag, kind: many }
          Tag:
            primaryKey: name
            attributes:
              name: string
            relationships:
              repos: { to: Repo, kind: many, inverse: tags }
        """
    static let indexSQL = #"CREATE INDEX "Repo_tags_target" ON "Repo_tags"("target")"#

    /// `count` repositories with four tags each out of 50; `last` is appended as the final record.
    static func payload(repos count: Int, last: String? = nil) -> String {
        var records = (1...count).map { id in
            let tags = (0..<4).map { #"{"name": "t\#((id + $0 * 13) % 50)"}"# }.joined(separator: ", ")
            return #"{"id": \#(id), "tags": [\#(tags)]}"#
        }
        if let last { records.append(last) }
        return "[" + records.joined(separator: ",\n") + "]"
    }

    func schemaVersion(_ mapper: Mapper) throws -> [[StoredValue]] { try mapper.rows("PRAGMA schema_version") }

    func indexes(_ mapper: Mapper) throws -> [[StoredValue]] {
        try mapper.rows(#"SELECT sql FROM sqlite_master WHERE tbl_name = 'Repo_tags' AND type = 'index' AND sql IS NOT NULL"#)
    }

    /// The repositories linked to tag t7, read from the tag's side.
    func reposOfTag7(_ mapper: Mapper) throws -> [[StoredValue]] {
        let tag = try mapper.storedRows("Tag", "_id", "name").first { $0[1] == .text("t7") }?[0]
        return try mapper.storedLinks("Tag.repos").filter { $0[0] == tag }.map { [$0[1]] }
    }

    @Test func aLargeImportIntoAnEmptyStoreEndsWithTheIndexAsDeclared() throws {
        let mapper = try makeMapper(Self.yaml)
        let before = try schemaVersion(mapper)
        let report = try mapper.importJSON(Self.payload(repos: 2_600), as: "Repo")
        #expect(report.counts(for: "Repo").list == [2_600, 0, 0, 0])
        #expect(try indexes(mapper) == [[.text(Self.indexSQL)]])
        // Dropped and built again: the schema changed twice, and came back to what it was.
        #expect(try schemaVersion(mapper) != before)
        #expect(try mapper.rows("PRAGMA integrity_check") == [[.text("ok")]])
        #expect(try mapper.storedLinks("Repo.tags").count == 10_400)
        // The back side reads through the rebuilt index.
        #expect(try reposOfTag7(mapper).count == 208)
        let second = try mapper.importJSON(Self.payload(repos: 2_600), as: "Repo")
        #expect(second.counts(for: "Repo").list == [0, 0, 2_600, 0])
    }

    @Test func aSmallImportLeavesTheSchemaAlone() throws {
        let mapper = try makeMapper(Self.yaml)
        let before = try schemaVersion(mapper)
        try mapper.importJSON(Self.payload(repos: 100), as: "Repo")
        #expect(try schemaVersion(mapper) == before)
        #expect(try indexes(mapper) == [[.text(Self.indexSQL)]])
    }

    @Test func readingTheBackSideMidImportBuildsTheIndexFirst() throws {
        let mapper = try makeMapper(Self.yaml)
        // After 10,400 links, a tag record replaces the repositories of tag t7 from its side.
        let last = #"{"id": 9000, "tags": [{"name": "t7", "repos": [1, 2]}]}"#
        try mapper.importJSON(Self.payload(repos: 2_600, last: last), as: "Repo")
        let repos = try reposOfTag7(mapper)
        // Repository 9000 links t7 too, once the tag's own record has been written.
        #expect(repos == [[.integer(1)], [.integer(2)], [.integer(9000)]])
        #expect(try indexes(mapper) == [[.text(Self.indexSQL)]])
        #expect(try mapper.rows("PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test func aSkippedRecordThatBuiltTheIndexLeavesItToTheEndOfTheImport() throws {
        let mapper = try makeMapper(Self.yaml)
        // The tag's back side is read (building the index), then its list holds a bad id.
        let last = #"{"id": 9000, "tags": [{"name": "t7", "repos": [1, "two"]}]}"#
        let report = try mapper.importJSON(
            Self.payload(repos: 2_600, last: last), as: "Repo", options: .init(onError: .skip))
        #expect(report.skipped == 1)
        #expect(report.errors.map(\.path) == ["$[2600].tags[0].repos[1]"])
        #expect(try indexes(mapper) == [[.text(Self.indexSQL)]])
        #expect(try reposOfTag7(mapper).count == 208)
        #expect(try mapper.rows("PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test func aFailedImportLeavesTheStoreAsItWas() throws {
        let mapper = try makeMapper(Self.yaml)
        let before = try schemaVersion(mapper)
        #expect(throws: ImportError.self) {
            try mapper.importJSON(Self.payload(repos: 2_600, last: #"{"id": "x"}"#), as: "Repo")
        }
        #expect(try schemaVersion(mapper) == before)
        #expect(try indexes(mapper) == [[.text(Self.indexSQL)]])
        #expect(try mapper.storedLinks("Repo.tags").count == 0)
    }
}
