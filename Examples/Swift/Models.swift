import Foundation
import JSONImport

// Plain value types for the entities of Mappings/github.yml. A property reads the attribute or
// relationship of the same name; a relationship is a nested value or a key, as its type says.

/// A GitHub user, with its owned address, its repositories nested, and its followers as keys.
struct User: Codable {
    var id: Int
    var login: String
    var name: String?
    var email: String?
    var createdAt: Date?
    var score: Double?
    var topics: [String]?
    var address: Address?
    var repos: [Repo]
    var followers: [Int]
}

/// An address has no primary key: it lives inside the user that links to it.
struct Address: Codable {
    var street: String?
    var city: String
    var country: String?
}

/// A repository; `owner` is the back side of `User.repos`, read here as the owner's key.
struct Repo: Codable {
    var id: Int
    var name: String
    var stars: Int
    var language: String?
    var pushedAt: Date?
    var owner: Int?
    var tags: [String]
}

/// A tag, with the repositories that carry it.
struct Tag: Codable {
    var name: String
    var color: String?
    var repos: [Int]
}

/// A lighter view of the same `User` entity: a type can name its entity.
struct UserSummary: Codable, ImportableEntity {
    static let entityName = "User"
    var login: String
    var address: Address?
    var repos: [Int]
}
