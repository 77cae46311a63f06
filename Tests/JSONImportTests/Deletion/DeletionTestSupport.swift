import Foundation
import Testing
@testable import JSONImport

/// Users own repos, repos carry tags; repos and tags live only while something links to them.
let orphanChainYAML = """
    entities:
      User:
        primaryKey: id
        attributes: { id: int, login: string }
        relationships:
          repos: { to: Repo, kind: many }
      Repo:
        primaryKey: id
        cleanup: orphans
        attributes: { id: int, name: string }
        relationships:
          owner: { to: User, kind: one, inverse: repos }
          tags:  { to: Tag, kind: many }
      Tag:
        primaryKey: name
        cleanup: orphans
        attributes: { name: string }
    """

extension Mapper {
    /// `field` of every row of `entity` as text (strings unquoted), ordered by `orderedBy`, for
    /// compact assertions.
    func texts(_ entity: String, _ field: String, orderedBy: String...) throws -> [String] {
        try store.withLock { try $0.storedRows(of: entity, fields: [field], orderedBy: orderedBy) }.map { row in
            if case .text(let text) = row[0] { return text }
            return row[0].description
        }
    }
}
