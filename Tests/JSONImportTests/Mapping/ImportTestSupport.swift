import Foundation
import Testing
@testable import JSONImport

/// The SPEC's GitHub-like example mapping, used across import tests.
let githubYAML = """
    version: 1
    defaults:
      keyStyle: snake_case
    entities:
      User:
        primaryKey: id
        attributes:
          id: int
          login: string
          name: string
          email: { key: contact.email, type: string }
          createdAt: { type: date }
          isAdmin: { key: site_admin, type: bool, default: false }
          score: double
          topics: "[string]"
          meta: json
        relationships:
          address:   { to: Address, kind: one, onDelete: cascade }
          repos:     { to: Repo, kind: many, onDelete: cascade }
          followers: { to: User, kind: many, key: follower_ids }
      Address:
        attributes:
          street: string
          city: string
      Repo:
        primaryKey: id
        attributes:
          id: int
          name: { type: string, required: true }
          stars: { type: int, default: 0, min: 0 }
          language: string
        relationships:
          owner: { to: User, kind: one, inverse: repos }
          tags:  { to: Tag, kind: many }
      Tag:
        primaryKey: name
        cleanup: orphans
        attributes:
          name: { type: string, transform: lowercase }
    """

/// A mapper over an in-memory store for `yaml`.
func makeMapper(_ yaml: String = githubYAML) throws -> Mapper {
    try Mapper(spec: MappingSpec.load(yaml: yaml, file: "test.yml"), store: .inMemory)
}

extension Mapper {
    /// Imports `json` text as `entity`, then expects every stored link to join rows that exist.
    @discardableResult
    func importJSON(
        _ json: String, as entity: String, options: ImportOptions = .default,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> ImportReport {
        defer { expectLinksIntact(sourceLocation: sourceLocation) }
        return try importData(Data(json.utf8), as: entity, options: options)
    }

    /// Expects `PRAGMA foreign_key_check` to find nothing: imports run without SQLite's
    /// foreign-key enforcement and apply the links' `ON DELETE` actions themselves.
    func expectLinksIntact(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let broken = try? rows("PRAGMA foreign_key_check")
        #expect(broken?.isEmpty == true, "links to missing rows: \(broken ?? [])", sourceLocation: sourceLocation)
    }

    /// Rows of `sql` against the store, for assertions.
    @discardableResult
    func rows(_ sql: String) throws -> [[StoredValue]] {
        try store.withLock { try $0.connection.rows(sql) }
    }
}

extension ImportReport.Counts {
    /// `[inserted, updated, unchanged, deleted]`, compact for assertions.
    var list: [Int] { [inserted, updated, unchanged, deleted] }
}
