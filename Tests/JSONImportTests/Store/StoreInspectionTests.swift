import Foundation
import Testing

@testable import JSONImport

/// The store's inspection, which the semantic tests read the store through, finds what it is
/// asked about: links planted past SQLite's foreign-key enforcement are each named.
@Suite(.tags(.sqliteOnly), .sqliteStore) struct StoreInspectionTests {
    @Test func integrityViolationsNameEveryLinkToAMissingRow() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(
            #"{"id": 1, "follower_ids": [2], "address": {"city": "A"}, "repos": [{"id": 5, "name": "x", "tags": ["a"]}]}"#,
            as: "User")
        #expect(try mapper.integrityViolations() == [])
        try mapper.rows("PRAGMA foreign_keys = OFF")
        try mapper.rows(#"INSERT INTO "User_followers" ("source", "target", "position") VALUES (1, 99, 1), (98, 1, 0)"#)
        try mapper.rows(#"UPDATE "Repo" SET "owner" = 77 WHERE "id" = 5"#)
        try mapper.rows(#"UPDATE "User" SET "address" = 55 WHERE "id" = 1"#)
        try mapper.rows(#"DELETE FROM "Tag""#)
        #expect(try mapper.integrityViolations() == [
            "User.address: 1 → 55 (missing Address)", "User.repos: 77 → 5 (missing User)",
            "User.followers: 98 → 1 (missing User)", "User.followers: 1 → 99 (missing User)",
            "Repo.tags: 5 → 1 (missing Tag)",
        ])
        #expect(try mapper.storedLinks("User.followers") == [[.integer(1), .integer(2)], [.integer(1), .integer(99)], [.integer(98), .integer(1)]])
        #expect(try mapper.storedLinks("Repo.owner") == [[.integer(5), .integer(77)]])
    }
}
