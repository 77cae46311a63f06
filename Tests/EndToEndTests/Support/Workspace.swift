import Foundation

/// A temporary working directory holding `Mappings/` and payload files, where `jsonimport` runs
/// with its defaults: mappings from `./Mappings`, the store at `./jsonimport.sqlite`.
///
/// ```swift
/// let workspace = try Workspace()
/// try workspace.write(Payloads.users, to: "users.json")
/// let result = try workspace.run(["import", "User", "users.json", "--report", "json"])
/// ```
final class Workspace {
    let directory: TemporaryDirectory

    /// Writes `mappings` (file name → YAML) into `Mappings/`.
    init(mappings: [String: String] = MappingFixtures.valid) throws {
        directory = try TemporaryDirectory()
        try MappingFixtures.write(mappings, into: directory, folder: "Mappings")
    }

    /// Writes `contents` to `name` in the directory.
    func write(_ contents: String, to name: String) throws {
        try directory.write(contents, to: name)
    }

    /// Runs `jsonimport args` in the directory.
    func run(_ args: [String], env: [String: String] = [:], stdin: String? = nil) throws -> CLIResult {
        try CLI.run(args, env: env, stdin: stdin, in: directory.url)
    }

    /// Runs `jsonimport import ENTITY FILE` after writing `payload` to `FILE`, and requires it to
    /// succeed.
    @discardableResult
    func importing(_ payload: String, as entity: String, file: String = "payload.json", _ options: [String] = [])
        throws -> CLIResult
    {
        try write(payload, to: file)
        let result = try run(["import", entity, file] + options)
        guard result.exitCode == 0 else { throw SubprocessFailure("import failed: \(result)") }
        return result
    }

    /// The path of `name` in the directory.
    func path(_ name: String) -> String { directory.path(name) }

    /// Whether there is a store at `name` in the directory (see ``TestStore/exists(_:)``).
    func hasStore(_ name: String = "jsonimport.sqlite") throws -> Bool { try TestStore.exists(path(name)) }

    /// The bytes of `name` in the directory (`nil` when it does not exist).
    func contents(of name: String) -> Data? {
        FileManager.default.contents(atPath: path(name))
    }
}

/// Payloads for ``MappingFixtures/valid`` (SPEC 1's example mapping).
enum Payloads {
    /// Two users with every kind of attribute and relationship; user 3 is only referenced.
    static let users = """
        [
          {"id": 1, "login": "ana", "name": "Ana", "contact": {"email": "ana@x.io"},
           "created_at": "2024-01-02T03:04:05.5+01:00", "site_admin": true, "score": 4.5,
           "topics": ["swift", "db"], "meta": {"plan": "pro", "seats": 1.50},
           "address": {"street": "Main St 1", "city": "Oslo"},
           "repos": [{"id": 10, "name": "kit", "stars": 5, "language": "Swift", "tags": [{"name": "Swift"}, {"name": "cli"}]}],
           "follower_ids": [2, 3]},
          {"id": 2, "login": "bo", "created_at": "2023-06-01T00:00:00Z",
           "repos": [{"id": 11, "name": "db", "tags": [{"name": "swift"}]}, {"id": 12, "name": "web", "stars": 2}]}
        ]
        """
}
