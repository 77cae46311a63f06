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
    try Mapper(spec: MappingSpec.load(yaml: yaml, file: "test.yml"), store: TestStore.fresh())
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

    /// Expects every stored link to join rows that exist: imports run without the store's
    /// foreign-key enforcement and apply the links' `ON DELETE` actions themselves.
    func expectLinksIntact(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let broken = try? integrityViolations()
        #expect(broken?.isEmpty == true, "links to missing rows: \(broken ?? [])", sourceLocation: sourceLocation)
    }

    // What the store holds, read by entity, field and relationship names through the store's
    // inspection interface, so these checks hold for any store.

    /// The `fields` of every row of `entity` (attributes, relationships stored on the row as the
    /// linked row's id, `_id`, `_stub`, `_created_at`, `_updated_at`, `_seen_at`), ordered by
    /// `orderedBy` (nulls first), else in no particular order.
    func storedRows(_ entity: String, _ fields: String..., orderedBy: String...) throws -> [[StoredValue]] {
        try store.withLock { try $0.storedRows(of: entity, fields: fields, orderedBy: orderedBy) }
    }

    /// The `fields` of the rows of `entity` whose row ids (for a single `int` key, the keys) are
    /// among `ids`, in row-id order.
    func storedRows(_ entity: String, ids: [Int64], _ fields: String...) throws -> [[StoredValue]] {
        let wanted = Set(ids.map(StoredValue.integer))
        return try store.withLock { try $0.storedRows(of: entity, fields: ["_id"] + fields, orderedBy: ["_id"]) }
            .filter { wanted.contains($0[0]) }.map { Array($0.dropFirst()) }
    }

    /// How many rows `entity` has, stubs included.
    func rowCount(_ entity: String) throws -> Int {
        try store.withLock { try $0.rowCount(of: entity) }
    }

    /// The links of `relationship` (`"Entity.name"`) as `[row id, linked row id]`, in link order.
    func storedLinks(_ relationship: String) throws -> [[StoredValue]] {
        try store.withLock { try $0.storedLinks(of: relationship) }.map { [.integer($0.row), .integer($0.linked)] }
    }

    /// Every stored link that points at a missing row; empty when all links are intact.
    func integrityViolations() throws -> [String] {
        try store.withLock { try $0.integrityViolations() }
    }

    /// Rewrites timestamp `field` of `entity`'s row `id` (a row id), or of every row.
    func rewriteTimestamp(_ field: String, of entity: String, id: Int64? = nil, _ change: Store.TimestampChange) throws {
        try store.withLock { try $0.rewriteTimestamp(field, of: entity, row: id, change) }
    }

    /// Every row of every entity (all its fields) and every link, for before/after comparisons;
    /// `bookkeeping: false` leaves out `_stub` and the timestamps.
    func storedContent(bookkeeping: Bool = true) throws -> [String: [String]] {
        let left: Set<String> = bookkeeping ? [] : ["_created_at", "_updated_at", "_seen_at", "_stub"]
        var content: [String: [String]] = [:]
        for entity in spec.entities {
            let fields = try store.withLock { try $0.storedFields(of: entity.name) }.filter { !left.contains($0) }
            content[entity.name] = try store.withLock { try $0.storedRows(of: entity.name, fields: fields) }
                .map { $0.map(\.description).joined(separator: "|") }.sorted()
            for relationship in entity.relationships where relationship.isForward {
                let name = "\(entity.name).\(relationship.name)"
                content[name] = try storedLinks(name).map { $0.map(\.description).joined(separator: "|") }
            }
        }
        return content
    }

    /// Rows of `sql` against the SQLite store: for tests of SQLite itself (`.sqliteOnly`).
    @discardableResult
    func rows(_ sql: String) throws -> [[StoredValue]] {
        try store.withLock { try $0.engine.rows(sql, []) }
    }
}

extension Tag {
    /// Tests of the SQLite store itself (WAL, pragmas, its file format, its indexes, its files)
    /// rather than of import semantics; every other test reads the store through the neutral
    /// helpers above. `swift test --filter` by suite or test name selects them.
    @Tag static var sqliteOnly: Self
}

extension StoredValue {
    /// The number stored (an integer or a real), or `nil` for text and null.
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        case .text, .null: nil
        }
    }
}

extension ImportReport.Counts {
    /// `[inserted, updated, unchanged, deleted]`, compact for assertions.
    var list: [Int] { [inserted, updated, unchanged, deleted] }
}
