// A tour of the JSONImport Swift API over the GitHub example: map API payloads into Swift
// values, query them, update them, watch what changes, and see the clean-up at work.
//
//   swift run JSONImportExample            (from the repository root)
//
// The store is a fresh file in a temporary directory, removed at the end.

import Foundation
import JSONImport

/// The repository root: the working directory when it holds the mappings, else found from
/// this file's location.
let root: URL = {
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    if FileManager.default.fileExists(atPath: here.appendingPathComponent("Mappings/github.yml").path) { return here }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}()

func payload(_ name: String) throws -> Data {
    try Data(contentsOf: root.appendingPathComponent("Examples/github/\(name)"))
}

func section(_ title: String) { print("\n== \(title)") }

/// One line per entity: the keys a committed transaction inserted, updated and deleted.
func describe(_ changes: StoreChanges) -> String {
    changes.entities.map { entity in
        let parts = [("+", entity.inserted), ("~", entity.updated), ("-", entity.deleted)]
            .filter { !$0.1.isEmpty }
            .map { sign, keys in sign + "[" + keys.map(\.jsonText).joined(separator: ", ") + "]" }
        return "\(entity.entity) " + parts.joined(separator: " ")
    }.joined(separator: "; ")
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jsonimport-example-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

let mapper = try Mapper(
    mappings: root.appendingPathComponent("Mappings").path,
    store: .file(directory.appendingPathComponent("github.sqlite").path))

// Every committed transaction is reported here, with the primary keys it touched.
let observation = mapper.observeChanges { changes in print("   committed: \(describe(changes))") }

// MARK: Mapping

section("Mapping Examples/github/users.json into [User]")
let users = try mapper.map(User.self, payload("users.json"))
for user in users {
    let city = user.address.map { " in \($0.city)" } ?? ""
    let repos = user.repos.map { "\($0.name) [\($0.tags.joined(separator: ", "))]" }.joined(separator: "; ")
    print("   \(user.login)\(city): \(repos.isEmpty ? "no repos" : repos); followers \(user.followers)")
}

// MARK: Reading

section("Queries")
let popular = mapper.query(User.self).where("score", .greaterThan, 50).order(by: "score", descending: true)
print("   score > 50, best first:", try popular.pluck("login", as: String.self))
let swift = try mapper.query(Repo.self).where("tags.name = 'swift'").order(by: "name").all()
print("   repos tagged swift:", swift.map { "\($0.name) (owner \($0.owner ?? 0))" })
let inCities = try mapper.query(UserSummary.self).where(.field("address.country", in: ["US", "JP"])).all()
print("   users in the US or Japan:", inCities.map { "\($0.login), \($0.address?.city ?? "?")" })
print("   users: \(try mapper.count(User.self)), with stubs: \(try mapper.query(User.self).includingStubs().count())")
print("   user 583231 (only a follower id so far):", try mapper.find(User.self, id: 583231).map(\.login) ?? "not found (a stub)")
print("   first and last user:", try mapper.first(User.self)?.login ?? "-", try mapper.last(User.self)?.login ?? "-")
let tag = try mapper.find(Tag.self, id: "demo")
print("   tag demo: color \(tag?.color ?? "-"), on repos \(tag?.repos ?? [])")
for row in try mapper.query(Repo.self).where("stars >= 1000").pluck(["name", "stars", "pushedAt"]) {
    print("   as JSON:", RecordValue.object(row).jsonText)
}

// MARK: Writing

section("Saving a changed value")
var octocat = try mapper.find(User.self, id: 1)!
octocat.name = "Mona Lisa Octocat"
octocat.topics?.append("swift")
let saved = try mapper.save(octocat)
print("   users updated: \(saved.counts(for: "User").updated), repos unchanged: \(saved.counts(for: "Repo").unchanged)")
print("   name now:", try mapper.find(User.self, id: 1)?.name ?? "-")

section("findOrCreate")
let created = try mapper.findOrCreate(User.self, id: 9) {
    User(id: 9, login: "newcomer", address: Address(city: "Lisbon", country: "pt"), repos: [], followers: [1])
}
print("   \(created.login) in \(created.address?.city ?? "-"), \(created.address?.country ?? "-") (country upper-cased by the mapping)")

section("A validator rejects repositories named with spaces")
try mapper.setValidator(for: "Repo") { record in
    if let name = try record.value("name", as: String.self), name.contains(" ") {
        throw ValidationError("repository names have no spaces: '\(name)'")
    }
}
do {
    try mapper.save(Repo(id: 77, name: "my repo", stars: 0, owner: 1, tags: []))
} catch let error as ImportError {
    print("   refused:", error.message)
}

section("A write block: all or nothing")
struct Cancelled: Error {}
do {
    try mapper.write {
        try mapper.save(Repo(id: 78, name: "draft", stars: 0, owner: 1, tags: ["wip"]))
        let inside = try mapper.find(Repo.self, id: 78) != nil
    print("   inside the block, repo 78 is there:", inside)
        throw Cancelled()
    }
} catch is Cancelled {
    print("   after the block threw, repo 78 is there:", try mapper.find(Repo.self, id: 78) != nil)
}

// MARK: Clean-up

section("A later response: users-update.json (octocat dropped Spoon-Knife, zoe's address is null)")
let updated = try mapper.map(User.self, payload("users-update.json"))
print("   mapped:", updated.map(\.login))
print("   Spoon-Knife still stored:", try mapper.query(Repo.self).where("name", .equals, "Spoon-Knife").exists())
print("   tag forking still stored:", try mapper.find(Tag.self, id: "forking") != nil)

// MARK: Deleting

/// `Entity key (reason)` for each deleted row of a report made with `explain`.
func deletions(_ report: ImportReport) -> String {
    (report.deletions ?? []).map { deletion in
        let key = deletion.key.map(\.description).joined(separator: ",")
        return "\(deletion.entity)\(key.isEmpty ? "" : " " + key) (\(deletion.reason.rawValue))"
    }.joined(separator: ", ")
}

section("Destroying kenji-yamada: repos cascade, the address and unused tags are cleaned up")
let destroyed = try mapper.destroy(User.self, id: 3, options: .init(explain: true))
print("   deleted:", deletions(destroyed))

section("Destroying a repo without the clean-up pass, then cleaning up on demand")
let transit = try mapper.query(Repo.self).where("name = 'lagos-transit'").first()!
try mapper.destroy(transit, options: .init(cleanup: false))
print("   tags left without a repo:", try mapper.query(Tag.self).where("name", in: ["open-data", "maps"]).pluck("name", as: String.self))
let cleaned = try mapper.clean(explain: true)
print("   clean():", deletions(cleaned))

section("What is left")
for user in try mapper.all(UserSummary.self) {
    print("   \(user.login): repos \(user.repos)")
}

observation.cancel()
print("\nDone.")
