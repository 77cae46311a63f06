import Foundation
import Testing
@testable import JSONImport

@Suite struct ImportSemanticsTests {
    @Test func importingNullClearsAttributeButMissingKeyKeepsIt() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "login": "ana", "name": "Ana", "score": 1.5}"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 1, "name": null}"#, as: "User")
        #expect(report.counts(for: "User").list == [0, 1, 0, 0])
        let rows = try mapper.storedRows("User", "login", "name", "score")
        #expect(rows == [[.text("ana"), .null, .real(1.5)]])
    }

    @Test func abortRollsBackEverythingAndNamesThePath() throws {
        let mapper = try makeMapper()
        let payload = #"[{"id": 1, "login": "a"}, {"id": 2, "repos": [{"id": 5, "name": "x"}, {"id": 6, "name": "y", "stars": "many"}]}]"#
        #expect {
            try mapper.importJSON(payload, as: "User")
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            let issue = error.report.errors.first
            return error.code == .invalidRecord && issue?.record == 1 && issue?.path == "$[1].repos[1].stars"
                && issue?.message == #"expected int, found string "many""#
        }
        #expect(try mapper.rowCount("User") == 0)
    }

    @Test(.tags(.sqliteOnly), .sqliteStore) func foreignKeysAreEnforcedAgainAfterEveryKindOfImport() throws {
        let mapper = try makeMapper()
        let enforced: () throws -> Bool = { try mapper.rows("PRAGMA foreign_keys") == [[.integer(1)]] }
        try mapper.importJSON(#"{"id": 1, "repos": [{"id": 5, "name": "x", "tags": ["a"]}]}"#, as: "User")
        #expect(try enforced())
        #expect(throws: ImportError.self) { try mapper.importJSON(#"{"id": 2, "repos": [{"id": 6}]}"#, as: "User") }
        #expect(try enforced())
        try mapper.importJSON(#"{"id": 3}"#, as: "User", options: .init(dryRun: true))
        #expect(try enforced())
        _ = try mapper.write { try mapper.importJSON(#"{"id": 4, "follower_ids": [1]}"#, as: "User") }
        #expect(try enforced())
        #expect(throws: StoreError.self) {
            try mapper.rows(#"INSERT INTO "User_followers" ("source", "target", "position") VALUES (1, 99, 0)"#)
        }
    }

    @Test func aRecordNestedInItsOwnLinkSetIsOverriddenByTheOuterList() throws {
        let mapper = try makeMapper()
        let followers = { try mapper.storedLinks("User.followers").filter { $0[0] == .integer(1) }.map { [$0[1]] } }
        try mapper.importJSON(#"{"id": 1, "follower_ids": [{"id": 1, "follower_ids": [2]}, 2]}"#, as: "User")
        #expect(try followers() == [[.integer(1)], [.integer(2)]])
        let report = try mapper.importJSON(#"{"id": 1, "follower_ids": [3, {"id": 1, "follower_ids": [4, 2]}]}"#, as: "User")
        #expect(try followers() == [[.integer(3)], [.integer(1)]])
        #expect(report.counts(for: "User").list == [2, 1, 0, 0])
    }

    @Test func skipLeavesOutTheBadRecordWholeAndKeepsTheRest() throws {
        let mapper = try makeMapper()
        let payload = #"[{"id": 1, "login": "a"}, {"id": 2, "repos": [{"id": 5, "name": "x"}, {"id": 6, "stars": -1, "name": "y"}]}, {"id": 3}]"#
        let report = try mapper.importJSON(payload, as: "User", options: .init(onError: .skip))
        #expect(report.records == 3)
        #expect(report.skipped == 1)
        #expect(report.errors.map(\.path) == ["$[1].repos[1].stars"])
        #expect(report.counts(for: "User").list == [2, 0, 0, 0])
        #expect(report.counts(for: "Repo").list == [0, 0, 0, 0])
        #expect(try mapper.storedRows("User", "id", orderedBy: "id") == [[.integer(1)], [.integer(3)]])
        #expect(try mapper.rowCount("Repo") == 0)
    }

    @Test func ownedOneIsUpdatedInPlace() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "address": {"street": "A", "city": "Oslo"}}"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 1, "address": {"street": "B", "city": "Oslo"}}"#, as: "User")
        #expect(report.counts(for: "Address").list == [0, 1, 0, 0])
        #expect(report.counts(for: "User").list == [0, 0, 1, 0])
        #expect(try mapper.storedRows("Address", "street") == [[.text("B")]])
    }

    @Test func tagsNoLongerLinkedAreRemovedByCleanup() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "repos": [{"id": 5, "name": "x", "tags": [{"name": "a"}, {"name": "b"}]}, {"id": 6, "name": "y", "tags": [{"name": "b"}]}]}"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 1, "repos": [{"id": 5, "name": "x", "tags": [{"name": "c"}]}, {"id": 6, "name": "y", "tags": [{"name": "b"}]}]}"#, as: "User")
        #expect(report.orphansRemoved.map(\.entity) == ["Tag"])
        #expect(report.counts(for: "Tag").list == [1, 0, 1, 1])
        #expect(try mapper.storedRows("Tag", "name", orderedBy: "name") == [[.text("b")], [.text("c")]])
    }

    @Test func referencesByIdCreateStubsThatRecordsLaterFill() throws {
        let mapper = try makeMapper()
        let first = try mapper.importJSON(#"{"id": 1, "follower_ids": [2, 3]}"#, as: "User")
        #expect(first.stubs.map(\.count) == [2])
        #expect(first.counts(for: "User").list == [3, 0, 0, 0])
        let second = try mapper.importJSON(#"{"id": 2, "login": "bo"}"#, as: "User")
        #expect(second.stubs.isEmpty)
        #expect(second.counts(for: "User").list == [0, 1, 0, 0])
        #expect(try mapper.storedRows("User", "id", "_stub", orderedBy: "id")
            == [[.integer(1), .integer(0)], [.integer(2), .integer(0)], [.integer(3), .integer(1)]])
    }

    @Test func skippedRecordThatFilledAStubLeavesItCountedAsAStub() throws {
        let mapper = try makeMapper()
        let payload = #"[{"id": 1, "follower_ids": [2]}, {"id": 2, "login": "bo", "repos": [{"id": 5, "stars": -1}]}]"#
        let report = try mapper.importJSON(payload, as: "User", options: .init(onError: .skip))
        #expect(report.skipped == 1)
        #expect(report.stubs.map { "\($0.entity) \($0.count)" } == ["User 1"])
        #expect(report.counts(for: "User").list == [2, 0, 0, 0])
        #expect(try mapper.storedRows("User", "id", "_stub", orderedBy: "id")
            == [[.integer(1), .integer(0)], [.integer(2), .integer(1)]])
    }

    @Test func rowsOfASkippedRecordAreGoneForLaterReferencesInAStoreThatStartedEmpty() throws {
        let mapper = try makeMapper()
        let payload = #"[{"id": 7, "login": "x", "repos": [{"id": 5, "stars": -1}]}, {"id": 1, "follower_ids": [7]}, {"id": 7, "login": "y"}]"#
        let report = try mapper.importJSON(payload, as: "User", options: .init(onError: .skip))
        #expect(report.skipped == 1)
        #expect(report.counts(for: "User").list == [2, 0, 0, 0])
        #expect(try mapper.storedRows("User", "id", "login", "_stub", orderedBy: "id")
            == [[.integer(1), .null, .integer(0)], [.integer(7), .text("y"), .integer(0)]])
        let users = try mapper.query("User").includingStubs().records(fields: ["id", "followers"])
        #expect(users.map { RecordValue.object($0).jsonText } == [#"{"id":1,"followers":[7]}"#, #"{"id":7,"followers":[]}"#])
    }

    @Test func backSideImportSetsTheForwardLink() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "login": "a"}"#, as: "User")
        let report = try mapper.importJSON(#"[{"id": 5, "name": "x", "owner": 1}, {"id": 6, "name": "y", "owner": {"id": 2, "login": "b"}}]"#, as: "Repo")
        #expect(report.counts(for: "Repo").list == [2, 0, 0, 0])
        #expect(report.counts(for: "User").list == [1, 1, 0, 0])
        let users = try mapper.query("User").includingStubs().records(fields: ["id", "repos"])
        #expect(users.map { RecordValue.object($0).jsonText } == [#"{"id":1,"repos":[5]}"#, #"{"id":2,"repos":[6]}"#])
    }

    @Test func aStubLinkedEarlierInTheSameImportKeepsThoseLinksInItsOwnRecord() throws {
        let mapper = try makeMapper()
        // User 1 is created as a stub by repo 5's reference, then its record (nested in repo 6)
        // replaces its repositories: repo 5, linked earlier in this import, loses its owner.
        let payload = #"[{"id": 5, "name": "x", "owner": 1}, {"id": 6, "name": "y", "owner": {"id": 1, "repos": [{"id": 6, "name": "y"}]}}]"#
        try mapper.importJSON(payload, as: "Repo")
        #expect(try mapper.storedRows("Repo", "id", "owner", orderedBy: "id")
            == [[.integer(5), .null], [.integer(6), .integer(1)]])
    }

    @Test func aRowInsertedEarlierInTheSameImportKeepsItsLinkTableLinksInItsOwnRecord() throws {
        let mapper = try makeMapper(LinkIndexTests.yaml)
        // Tag a, inserted with repo 1, is repeated in repo 2 with its back side: repo 1 loses it.
        let payload = #"[{"id": 1, "tags": [{"name": "a"}]}, {"id": 2, "tags": [{"name": "a", "repos": [3]}]}]"#
        try mapper.importJSON(payload, as: "Repo")
        #expect(try mapper.storedLinks("Repo.tags").map { [$0[0]] } == [[.integer(2)], [.integer(3)]])
    }

    @Test func aNestedRecordRepeatedAfterARootRecordChangedItsRowWritesItsValuesAgain() throws {
        let mapper = try makeMapper("""
            entities:
              Person:
                primaryKey: id
                attributes: { id: int, name: string }
                relationships:
                  friends: { to: Person, kind: many }
            """)
        // Person 2 is written nested as "b", changed by its own root record to "B", then nested
        // again as "b": later present values win.
        let payload = #"[{"id": 1, "friends": [{"id": 2, "name": "b"}]}, {"id": 2, "name": "B"}, {"id": 3, "friends": [{"id": 2, "name": "b"}]}]"#
        try mapper.importJSON(payload, as: "Person")
        #expect(try mapper.storedRows("Person", "id", "name", orderedBy: "id")
            == [[.integer(1), .null], [.integer(2), .text("b")], [.integer(3), .null]])
    }

    @Test func movingARepoToAnotherOwnerTouchesBothOwners() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1, "repos": [{"id": 5, "name": "x"}]}, {"id": 2, "repos": []}]"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 2, "repos": [{"id": 5, "name": "x"}]}"#, as: "User")
        #expect(report.counts(for: "User").list == [0, 2, 0, 0])
        #expect(report.counts(for: "Repo").list == [0, 1, 0, 0])
    }

    @Test func jsonLinesReportLineNumbers() throws {
        let mapper = try makeMapper()
        let payload = "{\"id\": 1}\n\n{\"id\": \"x\"}\n"
        #expect {
            try mapper.importData(Data(payload.utf8), as: "User", options: .init(format: .jsonl))
        } throws: { error in
            let issue = (error as? ImportError)?.report.errors.first
            return issue?.record == 1 && issue?.line == 3 && issue?.path == "$.id"
        }
    }

    @Test func syntaxErrorsGiveLineAndColumn() throws {
        let mapper = try makeMapper()
        #expect {
            try mapper.importJSON("[{\"id\": 1},\n {\"id\": 2,]", as: "User")
        } throws: { error in
            (error as? ImportError)?.code == .invalidJSON && "\(error)".hasPrefix("<data>:2:")
        }
    }

    @Test func changesThatCancelOutWithinOneImportCountAsUnchanged() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "login": "ana"}"#, as: "User")
        let report = try mapper.importJSON(#"[{"id": 1, "login": "bo"}, {"id": 1, "login": "ana"}]"#, as: "User")
        #expect(report.counts(for: "User").list == [0, 0, 1, 0])
        let changed = try mapper.importJSON(#"[{"id": 1, "login": "bo"}, {"id": 1, "login": "cy"}]"#, as: "User")
        #expect(changed.counts(for: "User").list == [0, 1, 0, 0])
    }

    @Test func linkChangesThatCancelOutWithinOneImportCountAsUnchanged() throws {
        let mapper = try makeMapper()
        // Repo 5 is listed under both users: it moves to user 1, then back to user 2.
        let shared = #"[{"id": 1, "repos": [{"id": 5, "name": "x"}]}, {"id": 2, "repos": [{"id": 5, "name": "x"}, {"id": 6, "name": "y"}]}]"#
        try mapper.importJSON(shared, as: "User")
        let again = try mapper.importJSON(shared, as: "User")
        #expect(again.counts(for: "User").list == [0, 0, 2, 0])
        #expect(again.counts(for: "Repo").list == [0, 0, 2, 0])
        // In the other order it stays with user 1: both users and the repo changed.
        let moved = try mapper.importJSON(
            #"[{"id": 2, "repos": [{"id": 5, "name": "x"}, {"id": 6, "name": "y"}]}, {"id": 1, "repos": [{"id": 5, "name": "x"}]}]"#,
            as: "User")
        #expect(moved.counts(for: "User").list == [0, 2, 0, 0])
        #expect(moved.counts(for: "Repo").list == [0, 1, 1, 0])
        #expect(try mapper.storedRows("Repo", "id", "owner", orderedBy: "id") == [[.integer(5), .integer(1)], [.integer(6), .integer(2)]])
    }

    @Test func aListPutBackInItsOrderCountsAsUnchanged() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 2}, {"id": 3}, {"id": 1, "follower_ids": [2, 3]}]"#, as: "User")
        let restored = try mapper.importJSON(#"[{"id": 1, "follower_ids": [3]}, {"id": 1, "follower_ids": [2, 3]}]"#, as: "User")
        #expect(restored.counts(for: "User").list == [0, 0, 1, 0])
        // The same followers in another order are a change of user 1's list.
        let reordered = try mapper.importJSON(#"[{"id": 1, "follower_ids": [3]}, {"id": 1, "follower_ids": [3, 2]}]"#, as: "User")
        #expect(reordered.counts(for: "User").list == [0, 1, 0, 0])
        let user = try mapper.query("User").keys(text: ["1"]).records(fields: ["followers"])
        #expect(user.map { RecordValue.object($0).jsonText } == [#"{"followers":[3,2]}"#])
    }

    @Test func listsTheBackSideChangesCountByTheirOrderAtTheEnd() throws {
        let mapper = try makeMapper("""
            entities:
              User:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  following: { to: User, kind: many, key: following_ids, by: id }
                  followers: { to: User, kind: many, key: follower_ids, by: id, inverse: following }
            """)
        try mapper.importJSON(#"[{"id": 2}, {"id": 3}, {"id": 1, "following_ids": [2, 3]}]"#, as: "User")
        // User 3 loses follower 1 and gets it back at the end of 1's list, where it was.
        let restored = try mapper.importJSON(#"[{"id": 3, "follower_ids": []}, {"id": 3, "follower_ids": [1]}]"#, as: "User")
        #expect(restored.counts(for: "User").list == [0, 0, 2, 0])
        // User 2 does the same: 2 is now last in 1's list, a change of user 1 only.
        let moved = try mapper.importJSON(#"[{"id": 2, "follower_ids": []}, {"id": 2, "follower_ids": [1]}]"#, as: "User")
        #expect(moved.counts(for: "User").list == [0, 1, 1, 0])
        let user = try mapper.query("User").keys(text: ["1"]).records(fields: ["following"])
        #expect(user.map { RecordValue.object($0).jsonText } == [#"{"following":[3,2]}"#])
    }

    /// Users own repositories (a column on the repository) and like them (a link table), each
    /// with a back side.
    static let likesYAML = """
        entities:
          User:
            primaryKey: id
            attributes: { id: int }
            relationships:
              repos: { to: Repo, kind: many }
              liked: { to: Repo, kind: many }
          Repo:
            primaryKey: id
            attributes: { id: int }
            relationships:
              owner:  { to: User, kind: one, inverse: repos }
              likers: { to: User, kind: many, inverse: liked }
        """

    @Test func aNestedRecordThatTakesATargetBackIsWhatItsParentFinds() throws {
        let mapper = try makeMapper(Self.likesYAML)
        try mapper.importJSON(#"[{"id": 3, "repos": [5], "liked": [6]}, {"id": 1}]"#, as: "User")
        // User 1 takes repo 5, then lists only repo 6, whose liker, user 3, takes repo 5 back:
        // user 1's list no longer holds it, so user 3 keeps it.
        let report = try mapper.importJSON(
            #"[{"id": 1, "repos": [5]}, {"id": 1, "repos": [{"id": 6, "likers": [{"id": 3, "repos": [5]}]}]}]"#, as: "User")
        #expect(try mapper.storedRows("Repo", "id", "owner", orderedBy: "id") == [[.integer(5), .integer(3)], [.integer(6), .integer(1)]])
        #expect(report.counts(for: "User").list == [0, 1, 1, 0])
        #expect(report.counts(for: "Repo").list == [0, 1, 1, 0])
        // Repo 5 goes back and forth between users 1 and 3 in nested records; the last record
        // lists it (by key) after the nested record that let it go: it ends with user 1.
        let back = try mapper.importJSON(
            #"[{"id": 1, "repos": [{"id": 5}, {"id": 6, "likers": [{"id": 3, "repos": [6, 5]}]}]}, {"id": 1, "repos": [{"id": 6, "likers": [{"id": 3, "repos": [5]}]}]}, {"id": 1, "repos": [5, {"id": 6, "likers": [{"id": 3, "repos": []}]}]}]"#,
            as: "User")
        #expect(try mapper.storedRows("Repo", "id", "owner", orderedBy: "id") == [[.integer(5), .integer(1)], [.integer(6), .integer(1)]])
        #expect(back.counts(for: "User").list == [0, 2, 0, 0])
        #expect(back.counts(for: "Repo").list == [0, 1, 1, 0])
    }

    @Test func aRowLinkedFromTheOtherSideBeforeItsOwnRecordCountsByNetEffect() throws {
        let mapper = try makeMapper(Self.likesYAML)
        try mapper.importJSON(#"[{"id": 2, "repos": [5]}, {"id": 1}]"#, as: "User")
        // Repo 5 moves to user 1 by key, then back to user 2 in its own record.
        let report = try mapper.importJSON(#"[{"id": 1, "repos": [5]}, {"id": 2, "repos": [{"id": 5}]}]"#, as: "User")
        #expect(report.counts(for: "User").list == [0, 0, 2, 0])
        #expect(report.counts(for: "Repo").list == [0, 0, 1, 0])
        // One ↔ one: person 2 takes passport 10 from person 1, who takes it back.
        let people = try makeMapper("""
            entities:
              Person:
                primaryKey: id
                attributes: { id: int, name: string }
                relationships:
                  passport: { to: Passport, kind: one, by: id }
              Passport:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  holder: { to: Person, kind: one, inverse: passport }
            """)
        try people.importJSON(#"[{"id": 1, "name": "a", "passport": 10}, {"id": 2, "name": "b"}]"#, as: "Person")
        let swapped = try people.importJSON(
            #"[{"id": 2, "name": "b", "passport": 10}, {"id": 1, "name": "a", "passport": 10}]"#, as: "Person")
        #expect(swapped.counts(for: "Person").list == [0, 0, 2, 0])
        #expect(swapped.counts(for: "Passport").list == [0, 0, 1, 0])
    }

    @Test func aRecordInsertedFirstThatWasStoredKeepsTheLinksItDoesNotMention() throws {
        let mapper = try makeMapper("""
            entities:
              Repo:
                primaryKey: id
                attributes: { id: int, name: string }
                relationships:
                  lead: { to: Person, kind: one, by: id }
              Person:
                primaryKey: id
                attributes: { id: int }
            """)
        try mapper.importJSON(#"{"id": 1, "name": "a", "lead": 7}"#, as: "Repo")
        // After a new row, the next is inserted first: repo 1 turns out stored.
        let report = try mapper.importJSON(#"[{"id": 2}, {"id": 1, "name": "b"}]"#, as: "Repo")
        #expect(report.counts(for: "Repo").list == [1, 1, 0, 0])
        #expect(try mapper.storedRows("Repo", "id", "name", "lead", orderedBy: "id") == [
            [.integer(1), .text("b"), .integer(7)], [.integer(2), .null, .null],
        ])
    }

    @Test func aKeyRepeatedInOneImportKeepsTheLinksItsLaterRecordsDoNotMention() throws {
        let yaml = """
            entities:
              A: { primaryKey: id, attributes: { id: int, name: string }, relationships: { b: { to: B, kind: one }, peer: { to: A, kind: one, by: id } } }
              B: { primaryKey: id, attributes: { id: int } }
            """
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 1, "b": {"id": 1}}, {"id": 1}]"#, as: "A")
        #expect(try mapper.storedRows("A", "id", "b") == [[.integer(1), .integer(1)]])
        // After new rows (so inserted first), a stored row's record without its link.
        let stored = try makeMapper(yaml)
        try stored.importJSON(#"{"id": 1, "name": "x", "b": {"id": 1}}"#, as: "A")
        let report = try stored.importJSON(#"[{"id": 2, "peer": 1}, {"id": 3}, {"id": 1, "name": "x"}]"#, as: "A")
        #expect(report.counts(for: "A").list == [2, 0, 1, 0])
        #expect(try stored.storedRows("A", "id", "b", orderedBy: "id") == [[.integer(1), .integer(1)], [.integer(2), .null], [.integer(3), .null]])
    }

    @Test func aNewRowsListStartsFromTheLinksItsNestedRecordsGaveIt() throws {
        let yaml = """
            entities:
              A: { primaryKey: id, attributes: { id: int }, relationships: { tags: { to: C, kind: many }, cs: { to: C, kind: many } } }
              C: { primaryKey: id, attributes: { id: int }, relationships: { as: { to: A, kind: many, inverse: cs } } }
            """
        // C 1, nested under A 9's tags, links itself to A 9 through the back side of `cs`,
        // before A 9's own `cs` list is read.
        let emptied = try makeMapper(yaml)
        try emptied.importJSON(#"{"id": 9, "tags": [{"id": 1, "as": [9]}], "cs": []}"#, as: "A")
        #expect(try emptied.query("A").records(fields: ["cs"]).map { RecordValue.object($0).jsonText } == [#"{"cs":[]}"#])
        let kept = try makeMapper(yaml)
        try kept.importJSON(#"{"id": 9, "tags": [{"id": 1, "as": [9]}], "cs": [1]}"#, as: "A")
        #expect(try kept.query("A").records(fields: ["cs"]).map { RecordValue.object($0).jsonText } == [#"{"cs":[1]}"#])
    }

    @Test func aNestedRecordsOwnLinkToItsParentsEntityIsImportedAndTheParentWins() throws {
        let mapper = try makeMapper("""
            entities:
              A: { primaryKey: id, attributes: { id: int, name: string }, relationships: { bs: { to: B, kind: many } } }
              B: { primaryKey: id, attributes: { id: int }, relationships: { owner: { to: A, kind: one, inverse: bs } } }
            """)
        let report = try mapper.importJSON(#"{"id": 1, "bs": [{"id": 4, "owner": {"id": 2, "name": "n"}}]}"#, as: "A")
        #expect(report.counts(for: "A").list == [2, 0, 0, 0])
        #expect(try mapper.storedRows("A", "id", "name", orderedBy: "id") == [[.integer(1), .null], [.integer(2), .text("n")]])
        #expect(try mapper.storedRows("B", "id", "owner") == [[.integer(4), .integer(1)]])
    }

    @Test func aRecordLeftOutTakesItsLinkChangesWithIt() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 2, "repos": [{"id": 5, "name": "x"}]}"#, as: "User")
        // User 1 takes repo 5 from user 2, then fails: user 2 still has it, as before.
        let report = try mapper.importJSON(
            #"[{"id": 1, "repos": [{"id": 5, "name": "x"}, {"id": 7, "name": "z", "stars": "many"}]}, {"id": 2, "repos": [{"id": 5, "name": "x"}]}]"#,
            as: "User", options: .init(onError: .skip))
        #expect(report.errors.map(\.path) == ["$[0].repos[1].stars"])
        #expect(report.counts(for: "User").list == [0, 0, 1, 0])
        #expect(report.counts(for: "Repo").list == [0, 0, 1, 0])
    }
}
