import Foundation
import Testing

@testable import JSONImport

/// Loads `yaml` as file `m.yml` and returns each problem's header line
/// (`m.yml:3:5: error: …`), or an empty list when it loads.
func loadErrors(_ yaml: String, file: String = "m.yml") -> [String] {
    loadErrors(files: [(file, yaml)])
}

/// Loads several files and returns each problem's header line, or an empty list.
func loadErrors(files: [(path: String, text: String)]) -> [String] {
    do {
        _ = try MappingSpec.load(files: files)
        return []
    } catch {
        return error.diagnostics.map(\.summary)
    }
}

/// Loads `yaml` and returns the whole rendered error (with source lines and carets), or `nil`.
func renderedError(_ yaml: String, file: String = "m.yml") -> String? {
    do {
        _ = try MappingSpec.load(yaml: yaml, file: file)
        return nil
    } catch {
        return error.description
    }
}

/// A one-entity mapping whose `User` entity has `id: int` as key plus the given lines, each
/// indented under the entity (so line numbers are easy to count: the first given line is
/// line 6).
func userMapping(_ lines: String...) -> String {
    """
    entities:
      User:
        primaryKey: id
        attributes:
          id: int

    """ + lines.map { "    " + $0 + "\n" }.joined()
}

/// The directory of a fixture under `Fixtures/`.
func fixturePath(_ relative: String) throws -> String {
    let root = try #require(Bundle.module.resourceURL)
    return root.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
}
