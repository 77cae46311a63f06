import Foundation
import JSONImport

/// A store on disk for the commands that need one, filled through the library.
///
/// ```swift
/// let fixture = try StoreFixture(payload: #"[{"id": 1}]"#, as: "User")
/// let result = try CLI.run(["delete", "User", "--id", "1"] + fixture.options)
/// ```
struct StoreFixture {
    let directory: TemporaryDirectory
    let mappings: String
    let store: String

    /// Writes `files` (SPEC 1's example by default) and imports `payload` as `entity` into a new
    /// store; the library's connection is closed before this returns.
    init(_ files: [String: String] = MappingFixtures.valid, payload: String, as entity: String) throws {
        directory = try TemporaryDirectory()
        mappings = try MappingFixtures.write(files, into: directory, folder: "Mappings")
        store = directory.path("store.sqlite")
        let mapper = try Mapper(mappings: mappings, store: TestStore.location(store))
        _ = try mapper.importData(Data(payload.utf8), as: entity)
    }

    /// `--mappings` and `--store` naming the fixture.
    var options: [String] { ["--mappings", mappings, "--store", store] }

    /// Runs `sql` on the store (see ``TestStore/sql(_:on:)``) and returns its output.
    @discardableResult
    func sql(_ sql: String) throws -> String { try TestStore.sql(sql, on: store) }

    /// SPEC 1's example with `User.repos` refusing deletion while repos exist.
    static let denyingFiles = MappingFixtures.valid.mapValues {
        $0.replacingOccurrences(
            of: "repos:     { to: Repo, kind: many, onDelete: cascade }",
            with: "repos:     { to: Repo, kind: many, onDelete: deny }")
    }

    /// Users 1 and 2: user 1 has an address and repos 5 (tags swift, c) and 6 (tag swift);
    /// user 2 follows nobody but has user 1 among its followers and owns repo 7 (tag swift).
    static let users = """
        [{"id": 1, "login": "ana", "address": {"street": "A", "city": "Oslo"},
          "repos": [{"id": 5, "name": "x", "tags": ["Swift", "c"]}, {"id": 6, "name": "y", "tags": ["swift"]}]},
         {"id": 2, "login": "bo", "follower_ids": [1], "repos": [{"id": 7, "name": "z", "tags": ["swift"]}]}]
        """
}
