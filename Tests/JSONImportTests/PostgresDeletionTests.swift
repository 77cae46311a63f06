import Foundation
import Testing

@testable import JSONImport

/// The deletion stage on PostgreSQL: each test imports into SQLite, copies the store into a
/// PostgreSQL schema of its own, runs the same deletion code on both (``DeleteRun``,
/// ``Deleter``, ``CleanupPass``), and expects the same reports and errors, the same rows left,
/// and no link on PostgreSQL pointing at a deleted row.
@Suite(
    .tags(.postgres),
    .enabled(
        if: TestPostgres.url != nil,
        "JSONIMPORT_TEST_POSTGRES names no PostgreSQL server (bash Scripts/test.sh starts a throwaway one)"))
struct PostgresDeletionTests {
    /// User 1 owns repos 5 (tags swift, c) and 6 (tag swift) and has an address; user 2 has
    /// user 1 among its followers and owns repo 7 (tag swift); user 3 follows 1 and 2.
    private func github(_ url: String, _ yaml: String = githubYAML) throws -> TwinStores {
        try TwinStores(yaml, url: url) { mapper in
            try mapper.importJSON(#"""
                [{"id": 1, "login": "a", "address": {"street": "A", "city": "Oslo"}, "site_admin": true, "score": 1.5,
                  "topics": ["x"], "meta": {"k": [1]}, "createdAt": "2020-01-02T03:04:05Z",
                  "repos": [{"id": 5, "name": "x", "tags": [{"name": "swift"}, {"name": "c"}]},
                            {"id": 6, "name": "y", "tags": [{"name": "swift"}]}]},
                 {"id": 2, "login": "b", "follower_ids": [1], "repos": [{"id": 7, "name": "z", "tags": [{"name": "swift"}]}]},
                 {"id": 3, "login": "c", "follower_ids": [1, 2]}]
                """#, as: "User")
        }
    }

    @Test func deletingByQueryCascadesThroughLinkColumnsLinkTablesAndOwnedRows() throws {
        try TestPostgres.withSchema { url, _ in
            let twins = try github(url)
            let report = try twins.expectAlike { try $0.delete("User", where: "r.\"id\" = ?", [.integer(1)]) }
            let value = try #require(report.value)
            #expect(value.deletions?.map { "\($0.entity) \($0.key.first?.description ?? "null") \($0.reason)" }
                == ["User 1 delete", "Address null cascade", "Repo 5 cascade", "Repo 6 cascade", "Tag \"c\" orphan"])
            #expect(value.counts(for: "User").list == [0, 2, 0, 1])
        }
    }

    @Test func aQueryKeepsItsOwnParametersOrderAndLimit() throws {
        try TestPostgres.withSchema { url, _ in
            let twins = try github(url)
            let report = try twins.expectAlike {
                try $0.delete(
                    "Repo", where: "r.\"name\" <> ? AND r.\"id\" >= ?", [.text("none"), .integer(6)], order: "r.\"name\" DESC",
                    limit: 1)
            }
            #expect(report.value?.deletions?.map { "\($0.entity) \($0.key[0])" } == ["Repo 7"])
        }
    }

    @Test func withoutCascadesLinksAreDroppedAndLinkColumnsClearedThenThePendingPassRuns() throws {
        try TestPostgres.withSchema { url, _ in
            let twins = try github(url)
            try twins.expectAlike {
                try $0.delete("User", where: "r.\"id\" IN (1, 2)", options: .init(cascade: false, cleanup: false, explain: true))
            }
            #expect(try twins.postgres.storedRows(of: "Repo", fields: ["id", "owner"], orderedBy: ["id"])
                == [[.integer(5), .null], [.integer(6), .null], [.integer(7), .null]])
            #expect(try TwinStores.contents(of: twins.postgres)[StorageSchema.metadataTable] == [[.text("1")]])
            // The next deletion with clean-up on runs the pass the last one skipped.
            let tag = try twins.expectAlike { try $0.delete("Tag", where: "r.\"name\" = ?", [.text("swift")]) }
            #expect(tag.value?.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Address 1"])
            #expect(try TwinStores.contents(of: twins.postgres)[StorageSchema.metadataTable] == [[.text("0")]])
            #expect(try twins.expectAlike { try $0.clean() }.value?.deletions == [])
        }
    }

    @Test func denyRefusesAlikeAndChangesNothing() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = githubYAML.replacingOccurrences(
                of: "repos:     { to: Repo, kind: many, onDelete: cascade }",
                with: "repos:     { to: Repo, kind: many, onDelete: deny }")
            let twins = try github(url, yaml)
            let refused = try twins.expectAlike { try $0.delete("User", where: "r.\"id\" <= 3") }
            #expect(refused == .failure(
                "cannot delete User 1: Repo.owner links 2 rows (onDelete: deny on User.repos)\n"
                    + "cannot delete User 2: Repo.owner links 1 row (onDelete: deny on User.repos)"))
            try twins.expectAlike { try $0.delete("User", where: "r.\"id\" = 3") }
            try twins.expectAlike { try $0.delete("Repo", where: "r.\"owner\" = 1") }
            try twins.expectAlike { try $0.delete("User", where: "r.\"id\" = 1") }
        }
    }

    @Test func denyDoesNotBlockOnRowsTheSameDeleteRemoves() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = """
                entities:
                  Org:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      people: { to: Person, kind: many, onDelete: cascade }
                      desks:  { to: Desk, kind: many, onDelete: cascade }
                  Person:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      desk: { to: Desk, kind: one, onDelete: deny }
                  Desk:
                    primaryKey: id
                    attributes: { id: int }
                """
            let twins = try TwinStores(yaml, url: url) { mapper in
                try mapper.importJSON(
                    #"[{"id": 1, "desks": [{"id": 9}, {"id": 8}], "people": [{"id": 2, "desk": 9}]}, {"id": 3, "people": [{"id": 4, "desk": 8}]}]"#,
                    as: "Org")
            }
            let refused = try twins.expectAlike { try $0.delete("Person", where: "r.\"id\" = 2") }
            #expect(refused == .failure("cannot delete Person 2: Person.desk links 1 row (onDelete: deny on Person.desk)"))
            // Org 1 takes person 2 and desk 9 with it; person 4 loses desk 8.
            let report = try twins.expectAlike { try $0.delete("Org", where: "r.\"id\" = 1") }
            #expect(report.value?.counts(for: "Desk").deleted == 2)
            #expect(try twins.postgres.storedRows(of: "Person", fields: ["id", "desk"]) == [[.integer(4), .null]])
        }
    }

    @Test func cascadesAcrossBothSidesEndOnCycles() throws {
        try TestPostgres.withSchema { url, _ in
            let twins = try TwinStores(
                """
                entities:
                  User:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      repos: { to: Repo, kind: many, onDelete: cascade }
                      friends: { to: User, kind: many, by: id, onDelete: cascade }
                  Repo:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      owner: { to: User, kind: one, inverse: repos, onDelete: cascade }
                """, url: url
            ) { mapper in
                try mapper.importJSON(
                    #"[{"id": 1, "friends": [2], "repos": [{"id": 5}]}, {"id": 2, "friends": [3]}, {"id": 3, "friends": [1]}, {"id": 4, "repos": [{"id": 6}]}]"#,
                    as: "User")
            }
            let report = try twins.expectAlike { try $0.delete("Repo", where: "r.\"id\" = 5") }
            #expect(report.value?.deletions?.count == 4)
        }
    }

    @Test func ownedRowsOfAListGoWithTheirOwner() throws {
        try TestPostgres.withSchema { url, _ in
            let twins = try TwinStores(
                """
                entities:
                  Post:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      links: { to: Link, kind: many }
                      cover: { to: Image, kind: one }
                  Link:
                    attributes: { href: string }
                  Image:
                    attributes: { src: string }
                """, url: url
            ) { mapper in
                try mapper.importJSON(
                    #"[{"id": 1, "links": [{"href": "a"}, {"href": "b"}], "cover": {"src": "c"}}, {"id": 2, "links": [{"href": "d"}]}]"#,
                    as: "Post")
            }
            let report = try twins.expectAlike { try $0.delete("Post", where: "r.\"id\" = 1") }
            #expect(report.value?.counts(for: "Link").deleted == 2)
            #expect(report.value?.counts(for: "Image").deleted == 1)
        }
    }

    @Test func pruneDeletesTheRowsNotKeptByRowOrByKey() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = """
                entities:
                  Device:
                    primaryKey: uuid
                    attributes: { uuid: uuid, name: string }
                    relationships:
                      tags: { to: Tag, kind: many }
                  Tag:
                    primaryKey: [name, scope]
                    cleanup: orphans
                    attributes: { name: string, scope: int }
                """
            let twins = try TwinStores(yaml, url: url) { mapper in
                let devices = (1...6).map { i in
                    #"{"uuid": "00000000-0000-0000-0000-00000000000\#(i)", "name": "d\#(i)", "tags": [{"name": "t\#(i % 3)", "scope": \#(i % 2)}]}"#
                }
                try mapper.importJSON("[" + devices.joined(separator: ",") + "]", as: "Device")
            }
            let report = try twins.expectAlike { store in
                try store.prune("Device", keepingRows: [1, 3], keys: [[.text("00000000-0000-0000-0000-000000000005")]])
            }
            #expect(report.value?.map(\.reason) == [.prune, .prune, .prune, .orphan, .orphan, .orphan])
        }
    }

    @Test func evictionDeletesTheRowsSeenBeforeTheCutoff() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = githubYAML + """

                  Log:
                    primaryKey: id
                    timestamps: false
                    attributes: { id: int }
                """
            let twins = try TwinStores(yaml, url: url) { mapper in
                try mapper.importJSON(
                    #"[{"id": 1, "repos": [{"id": 5, "name": "x", "tags": [{"name": "a"}]}, {"id": 6, "name": "y"}]}, {"id": 2}]"#,
                    as: "User")
                try mapper.importJSON(#"[{"id": 1}]"#, as: "Log")
                for entity in ["User", "Repo", "Tag"] { try mapper.rewriteTimestamp("_seen_at", of: entity, .set(1_500_000)) }
                try mapper.rewriteTimestamp("_seen_at", of: "Repo", id: 5, .set(1_000_000))
                try mapper.rewriteTimestamp("_seen_at", of: "User", id: 2, .set(1_000_000))
            }
            let report = try twins.expectAlike { try $0.clean(seenBefore: 1_200_000) }
            #expect(report.value?.deletions?.map { "\($0.entity) \($0.key[0]) \($0.reason)" }
                == ["User 2 evict", "Repo 5 evict", "Tag \"a\" orphan"])
        }
    }

    @Test func theCleanUpPassReachesThroughChainsAndRemovesRings() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = """
                entities:
                  Team:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      members: { to: Person, kind: many }
                      head: { to: Item, kind: one }
                  Person:
                    primaryKey: id
                    cleanup: orphans
                    attributes: { id: int }
                    relationships:
                      followers: { to: Person, kind: many, by: id }
                      items: { to: Item, kind: many, by: id }
                  Item:
                    primaryKey: id
                    cleanup: orphans
                    attributes: { id: int }
                    relationships:
                      next: { to: Item, kind: one, by: id }
                      owner: { to: Person, kind: one, by: id }
                """
            let twins = try TwinStores(yaml, url: url) { mapper in
                let noCleanup = ImportOptions(cleanup: false)
                let items = (1...40).map { #"{"id": \#($0), "next": \#($0 % 20 == 0 ? "null" : String($0 + 1))}"# }
                try mapper.importJSON("[" + items.joined(separator: ",") + "]", as: "Item", options: noCleanup)
                try mapper.importJSON(
                    #"""
                    [{"id": 12, "followers": [13]}, {"id": 13, "followers": [12], "items": [35]}, {"id": 14, "followers": [10]},
                     {"id": 11, "followers": [11]}, {"id": 15, "items": [30]}]
                    """#,
                    as: "Person", options: noCleanup)
                try mapper.importJSON(#"[{"id": 39, "owner": 15}, {"id": 40, "owner": 16}]"#, as: "Item", options: noCleanup)
                try mapper.importJSON(#"{"id": 1, "members": [{"id": 10, "followers": [11]}], "head": 5}"#, as: "Team", options: noCleanup)
            }
            let report = try twins.expectAlike { try $0.clean() }
            #expect(report.value?.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Person 5", "Item 24"])
        }
    }

    /// Entities only roots link to and entities that link to no other of the pass are reached
    /// by queries; only a chain's entity keeps a table of the rows reached, seeded from what
    /// such a query reaches.
    @Test func onlyEntitiesOnChainsKeepATableOfTheRowsReached() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = """
                entities:
                  Shelf:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      books: { to: Book, kind: many }
                      pinned: { to: Note, kind: many, by: id }
                  Book:
                    primaryKey: id
                    cleanup: orphans
                    attributes: { id: int }
                    relationships:
                      first: { to: Chapter, kind: one, by: id }
                      notes: { to: Note, kind: many, by: id }
                  Chapter:
                    primaryKey: id
                    cleanup: orphans
                    attributes: { id: int }
                    relationships:
                      next: { to: Chapter, kind: one, by: id }
                      notes: { to: Note, kind: many, by: id }
                  Note:
                    primaryKey: id
                    cleanup: orphans
                    attributes: { id: int }
                """
            let twins = try TwinStores(yaml, url: url) { mapper in
                let noCleanup = ImportOptions(cleanup: false)
                // Chapters 1 → 2 → … → 10 and 11 → … → 20; each links to its own note.
                let chapters = (1...20).map { #"{"id": \#($0), "next": \#($0 % 10 == 0 ? "null" : String($0 + 1)), "notes": [\#($0)]}"# }
                try mapper.importJSON("[" + chapters.joined(separator: ",") + "]", as: "Chapter", options: noCleanup)
                let notes = (21...30).map { #"{"id": \#($0)}"# }
                try mapper.importJSON("[" + notes.joined(separator: ",") + "]", as: "Note", options: noCleanup)
                try mapper.importJSON(
                    #"[{"id": 1, "first": 4, "notes": [21]}, {"id": 2, "first": 11, "notes": [22]}]"#, as: "Book", options: noCleanup)
                try mapper.importJSON(#"{"id": 1, "books": [{"id": 1}], "pinned": [23]}"#, as: "Shelf", options: noCleanup)
            }
            let connection = twins.postgresEngine.base.connection
            connection.statementLog = []
            let report = try twins.expectAlike { try $0.clean() }
            // Book 2 and what only it reaches: chapters 1–3 and 11–20, their notes, note 22.
            #expect(report.value?.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Book 1", "Chapter 13", "Note 21"])
            let chapter = try twins.postgres.entityPlan("Chapter").index
            let log = try #require(connection.statementLog)
            let reachTables = Set(log.flatMap { sql in
                sql.components(separatedBy: "\"_cleanup_reach_").dropFirst().map { $0.prefix { $0 != "\"" && $0 != "_" } }
            })
            #expect(reachTables == ["\(chapter)"])
        }
    }

    /// A link column on the orphan entity's own table reaches a row exactly when it is set: the
    /// clean-up pass asks the row's column rather than joining the table with itself, beside
    /// the anti-join of its other links.
    @Test func rowsReachedByALinkColumnOfTheirOwnTableAreToldByTheColumn() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = """
                entities:
                  Box:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      items: { to: Item, kind: many }
                  Shelf:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      pinned: { to: Item, kind: many, by: id }
                  Item:
                    primaryKey: id
                    cleanup: orphans
                    attributes: { id: int }
                    relationships:
                      box: { to: Box, kind: one, inverse: items }
                """
            let twins = try TwinStores(yaml, url: url) { mapper in
                let noCleanup = ImportOptions(cleanup: false)
                try mapper.importJSON(#"[{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]"#, as: "Item", options: noCleanup)
                try mapper.importJSON(#"{"id": 1, "items": [1, 2]}"#, as: "Box", options: noCleanup)
                try mapper.importJSON(#"{"id": 1, "pinned": [2, 3]}"#, as: "Shelf", options: noCleanup)
            }
            let connection = twins.postgresEngine.base.connection
            connection.statementLog = []
            // Items 1 and 2 are in the box, 2 and 3 pinned; 4 hangs from nothing.
            let report = try twins.expectAlike { try $0.clean() }
            #expect(report.value?.deletions?.map { "\($0.entity) \($0.key[0]) \($0.reason)" } == ["Item 4 orphan"])
            let log = try #require(connection.statementLog)
            #expect(log.contains { $0.contains(#"t."box" IS NULL AND NOT EXISTS"#) })
            #expect(!log.contains { $0.contains(#"FROM "Item" WHERE "box" IS NOT NULL"#) })
        }
    }

    @Test func anOrphansCascadeStartsTheReachabilityOver() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = """
                entities:
                  Board:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      cards: { to: Card, kind: many }
                  Card:
                    primaryKey: id
                    cleanup: orphans
                    attributes: { id: int }
                    relationships:
                      file: { to: File, kind: one, onDelete: cascade }
                  File:
                    primaryKey: id
                    attributes: { id: int }
                    relationships:
                      notes: { to: Note, kind: many }
                  Note:
                    primaryKey: id
                    cleanup: orphans
                    attributes: { id: int }
                """
            let twins = try TwinStores(yaml, url: url) { mapper in
                try mapper.importJSON(#"{"id": 1, "cards": [{"id": 2, "file": {"id": 3, "notes": [{"id": 4}]}}]}"#, as: "Board")
                try mapper.importJSON(#"{"id": 1, "cards": []}"#, as: "Board", options: .init(cleanup: false))
            }
            let report = try twins.expectAlike { try $0.clean() }
            #expect(report.value?.deletions?.map { "\($0.entity) \($0.key[0]) \($0.reason)" }
                == ["Card 2 orphan", "File 3 cascade", "Note 4 orphan"])
        }
    }

    @Test func thousandsOfRowsTakeAsManyRoundTripsAsAFew() throws {
        var roundTrips: [Int] = []
        for users in [30, 3000] {
            try TestPostgres.withSchema { url, _ in
                let twins = try TwinStores(orphanChainYAML, url: url) { mapper in
                    let records = (1...users).map { i in
                        #"{"id": \#(i), "repos": [{"id": \#(i), "name": "r", "tags": [{"name": "t\#(i % 7)"}, {"name": "u\#(i)"}]}]}"#
                    }
                    try mapper.importJSON("[" + records.joined(separator: ",") + "]", as: "User")
                }
                let start = twins.postgresEngine.deletionRoundTrips
                let deleted = try twins.expectAlike { try $0.delete("User", where: "r.\"id\" % 2 = 0") }
                #expect(deleted.value?.counts(for: "Tag").deleted == users / 2)
                let pruned = try twins.expectAlike { store in
                    try store.prune("User", keepingRows: Array(stride(from: 1, through: Int64(users), by: 4)), keys: [])
                }
                #expect(pruned.value?.count == 3 * (users / 4))
                roundTrips.append(twins.postgresEngine.deletionRoundTrips - start)
            }
        }
        #expect(roundTrips[0] == roundTrips[1])
    }

    @Test func aRolledBackSavepointLeavesTheTemporaryTablesUsable() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = githubYAML.replacingOccurrences(
                of: "repos:     { to: Repo, kind: many, onDelete: cascade }",
                with: "repos:     { to: Repo, kind: many, onDelete: deny }")
            let twins = try github(url, yaml)
            let steps = try twins.expectAlike { store in
                try store.write {
                    // The first deletion of the session creates the temporary tables in a
                    // savepoint that is rolled back; the next ones run with them made again.
                    var steps = [Outcome { try store.delete("User", where: "r.\"id\" = 1") }]
                    steps.append(Outcome { try store.delete("User", where: "r.\"id\" = 3") })
                    steps.append(Outcome { try store.delete("User", where: "r.\"id\" = 2") })
                    steps.append(Outcome { try store.delete("Repo", where: "r.\"owner\" = 2") })
                    return steps
                }
            }
            #expect(steps.value?.map { if case .failure = $0 { false } else { true } } == [false, true, false, true])
            try twins.expectAlike { try $0.delete("User", where: "r.\"id\" = 2") }
            try twins.expectAlike { try $0.clean() }
        }
    }

    @Test func aFailedStatementRolledBackToItsSavepointLeavesTheTemporaryTablesUsable() throws {
        try TestPostgres.withSchema { url, _ in
            let twins = try github(url)
            try twins.postgres.write {
                #expect(throws: StoreError.self) {
                    try twins.postgres.delete("User", where: "1 / (r.\"id\" - r.\"id\") = 1")
                }
                let report = try twins.postgres.delete("User", where: "r.\"id\" = 3")
                #expect(report.counts(for: "User").deleted == 1)
            }
            try twins.mapper.store.withLock { _ = try $0.delete("User", where: "r.\"id\" = 3") }
            try twins.expectSameContents()
        }
    }

    @Test func everyStepHandsOverPendingWritesFirstAndMakingTheEngineRunsNothing() throws {
        try TestPostgres.withSchema { url, _ in
            let twins = try github(url)
            let base = twins.postgresEngine.base
            let first = base.handOverCount
            var handOvers: Int { base.handOverCount - first }
            let store = twins.postgres
            let engine = base.makeDeletionEngine(plan: store.plan)
            #expect(handOvers == 0)
            let user = try store.entityPlan("User")
            let repos = try #require(user.relationships.first { $0.spec.name == "repos" })
            let link = store.plan.link(of: repos).link
            try store.write {
                let steps: [() throws -> Void] = [
                    { try engine.resetMarks() },
                    { _ = try engine.mark(user, .seenBefore(3_000_000)) },
                    { _ = try engine.markLinked(by: repos, of: user, fromRound: 0) },
                    { _ = try engine.linksToUnmarked(by: repos, of: user) },
                    { _ = try engine.unmarkedNeighbours(through: link, fromSource: true) },
                    { _ = try engine.key(of: user, row: 1) },
                    { try engine.resetKept() },
                    { try engine.keep(rows: [1]) },
                    { try engine.keep(user, key: [.integer(2)]) },
                    { _ = try engine.mark(user, .notKept(tenants: nil)) },
                    { try engine.beginReachability(store.plan.entities) },
                    { try engine.reach(through: link, fromFrontier: false) },
                    { _ = try engine.advanceFrontier(of: user) },
                    { _ = try engine.mark(user, .unreachable) },
                    { _ = try engine.deleteMarked(user, cascaded: false, readingKeys: true) },
                    { try engine.setUpdatedAt(of: user, rows: [2], to: 2_000_000) },
                    { _ = try engine.isCleanupPending() },
                    { try engine.setCleanupPending(true) },
                ]
                for (index, step) in steps.enumerated() {
                    let before = handOvers
                    try step()
                    #expect(handOvers > before, "step \(index)")
                }
            }
        }
    }
}
