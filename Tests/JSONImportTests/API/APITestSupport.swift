import Foundation
import Testing
@testable import JSONImport

// Swift types for the SPEC example mapping (`githubYAML`), stored under the entity names.

struct APIUser: Codable, Equatable, ImportableEntity {
    static let entityName = "User"
    var id: Int
    var login: String?
    var name: String?
    var email: String?
    var createdAt: Date?
    var isAdmin: Bool
    var score: Double?
    var topics: [String]?
    var meta: Meta?
    var address: APIAddress?
    var repos: [APIRepo]
    var followers: [Int]

    struct Meta: Codable, Equatable {
        var plan: String
        var seats: Int?
    }

    init(id: Int, login: String? = nil, name: String? = nil, isAdmin: Bool = false, address: APIAddress? = nil,
         repos: [APIRepo] = [], followers: [Int] = []) {
        self.id = id
        self.login = login
        self.name = name
        self.isAdmin = isAdmin
        self.address = address
        self.repos = repos
        self.followers = followers
    }
}

struct APIAddress: Codable, Equatable, ImportableEntity {
    static let entityName = "Address"
    var street: String?
    var city: String?
}

struct APIRepo: Codable, Equatable, ImportableEntity {
    static let entityName = "Repo"
    var id: Int
    var name: String
    var stars: Int
    var language: String?
    var owner: Int?
    var tags: [String]

    init(id: Int, name: String, stars: Int = 0, language: String? = nil, owner: Int? = nil, tags: [String] = []) {
        self.id = id
        self.name = name
        self.stars = stars
        self.language = language
        self.owner = owner
        self.tags = tags
    }
}

/// A payload of two users: nested address, repos with tags, followers by id (99 a stub).
let twoUsersJSON = """
    [
      {"id": 1, "login": "ana", "name": "Ana", "contact": {"email": "a@x.io"}, "created_at": "2024-01-02T03:04:05Z",
       "score": 71.5, "topics": ["swift", "sql"], "meta": {"plan": "pro", "seats": 3},
       "address": {"street": "Main St", "city": "Oslo"},
       "repos": [{"id": 10, "name": "kit", "stars": 5, "tags": [{"name": "Swift"}, {"name": "cli"}]},
                 {"id": 11, "name": "db", "tags": [{"name": "swift"}]}],
       "follower_ids": [2, 99]},
      {"id": 2, "login": "bo", "repos": [], "follower_ids": [1]}
    ]
    """

/// Teams whose members block their deletion (`onDelete: deny`).
let teamsDenyingDeletionYAML = """
    entities:
      Team:
        primaryKey: id
        attributes: { id: int }
        relationships:
          members: { to: Member, kind: many, onDelete: deny }
      Member:
        primaryKey: id
        attributes: { id: int }
    """

/// A new empty directory for a test's store files.
private func newStoreDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jsonimport-api-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// A fresh file store in a temporary directory, removed by `body`'s end.
func withTemporaryStore<T>(_ yaml: String = githubYAML, _ body: (String) throws -> T) throws -> T {
    let directory = try newStoreDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory.appendingPathComponent("store.sqlite").path)
}

/// A fresh file store in a temporary directory, removed by `body`'s end, for async tests.
func withTemporaryStoreAsync<T>(_ body: (String) async throws -> T) async throws -> T {
    let directory = try newStoreDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory.appendingPathComponent("store.sqlite").path)
}

/// A mapper over a file store for the SPEC example mapping.
func makeFileMapper(_ path: String, yaml: String = githubYAML) throws -> Mapper {
    try Mapper(spec: MappingSpec.load(yaml: yaml, file: "test.yml"), store: TestStore.persistent(path))
}

/// Collects what observers receive, from any thread.
final class ChangeRecorder: Sendable {
    private let received = PthreadMutex<[StoreChanges]>([])

    var all: [StoreChanges] { received.withLock { $0 } }

    func record(_ changes: StoreChanges) { received.withLock { $0.append(changes) } }
}
