import Foundation
import Testing
@testable import JSONImport

@Suite struct CleanupPassTests {
    @Test func twoLevelOrphanChainCollapsesInOnePass() throws {
        let mapper = try makeMapper(orphanChainYAML)
        try mapper.importJSON(#"{"id": 1, "repos": [{"id": 5, "name": "x"}, {"id": 6, "name": "y"}]}"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 1, "repos": []}"#, as: "User")
        #expect(report.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Repo 2"])
        #expect(report.counts(for: "Repo").list == [0, 0, 0, 2])
        #expect(report.counts(for: "User").list == [0, 1, 0, 0])
        #expect(try mapper.rowCount("Repo") == 0)
    }

    @Test func threeLevelOrphanChainCollapsesInOnePass() throws {
        let mapper = try makeMapper(orphanChainYAML)
        try mapper.importJSON(
            #"{"id": 1, "repos": [{"id": 5, "name": "x", "tags": [{"name": "a"}, {"name": "b"}]}, {"id": 6, "name": "y", "tags": [{"name": "b"}]}]}"#,
            as: "User")
        try mapper.importJSON(#"{"id": 1, "repos": []}"#, as: "User", options: .init(cleanup: false))
        try mapper.store.withLock { store in
            // A single reachability pass marks both levels below the user.
            let deleter = Deleter(store: store)
            try deleter.reset()
            #expect(try CleanupPass(plan: store.plan).markUnreachable(deleter) == 4)
        }
        let report = try mapper.clean()
        #expect(report.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Repo 2", "Tag 2"])
        #expect(try mapper.rowCount("Repo") + mapper.rowCount("Tag") == 0)
    }

    @Test func tagStillLinkedFromOneRepoSurvives() throws {
        let mapper = try makeMapper(orphanChainYAML)
        try mapper.importJSON(
            #"[{"id": 1, "repos": [{"id": 5, "name": "x", "tags": [{"name": "a"}, {"name": "b"}]}]}, {"id": 2, "repos": [{"id": 6, "name": "y", "tags": [{"name": "b"}]}]}]"#,
            as: "User")
        let report = try mapper.delete("User", ids: ["1"])
        #expect(report.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Repo 1", "Tag 1"])
        #expect(try mapper.texts("Tag", "name", orderedBy: "name") == ["b"])
        #expect(try mapper.texts("Repo", "id") == ["6"])
    }

    @Test func selfReferencingFollowerLinksCountAsLinksAndRingsAreRemoved() throws {
        let mapper = try makeMapper("""
            entities:
              Team:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  members: { to: Person, kind: many }
              Person:
                primaryKey: id
                cleanup: orphans
                attributes: { id: int }
                relationships:
                  followers: { to: Person, kind: many, by: id }
            """)
        try mapper.importJSON(#"{"id": 1, "members": [{"id": 10, "followers": [11]}]}"#, as: "Team")
        // 12 and 13 follow only each other; 14 follows 10 but nothing links to 14.
        try mapper.importJSON(
            #"[{"id": 12, "followers": [13]}, {"id": 13, "followers": [12]}, {"id": 14, "followers": [10]}, {"id": 11, "followers": [11]}]"#,
            as: "Person", options: .init(cleanup: false))
        let report = try mapper.clean(explain: true)
        #expect(try mapper.texts("Person", "id", orderedBy: "id") == ["10", "11"])
        #expect(report.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Person 3"])
        #expect(report.deletions?.map { "\($0.key[0])" } == ["12", "13", "14"])
        #expect(report.counts(for: "Person").list == [0, 0, 0, 3])
    }

    @Test func longChainsStayWhileRootedAndGoTogether() throws {
        let mapper = try makeMapper("""
            entities:
              List:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  head: { to: Item, kind: one }
              Item:
                primaryKey: id
                cleanup: orphans
                attributes: { id: int }
                relationships:
                  next: { to: Item, kind: one, by: id }
            """)
        let items = (1...60).map { #"{"id": \#($0), "next": \#($0 < 60 ? String($0 + 1) : "null")}"# }
        try mapper.importJSON("[" + items.joined(separator: ",") + "]", as: "Item", options: .init(cleanup: false))
        try mapper.importJSON(#"{"id": 1, "head": 1}"#, as: "List")
        #expect(try mapper.clean().changes.isEmpty)
        let report = try mapper.importJSON(#"{"id": 1, "head": 30}"#, as: "List")
        #expect(report.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Item 29"])
        let kept = try mapper.storedRows("Item", "id", orderedBy: "id")
        #expect(kept.first == [.integer(30)] && kept.count == 31)
    }

    @Test func backSideNeverKeepsARowAlive() throws {
        let mapper = try makeMapper("""
            entities:
              User:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  comments: { to: Comment, kind: many, inverse: author }
              Comment:
                primaryKey: id
                cleanup: orphans
                attributes: { id: int }
                relationships:
                  author: { to: User, kind: one }
            """)
        try mapper.importJSON(#"{"id": 1}"#, as: "User")
        // Comments link to their author; nothing links to a comment: the back side
        // User.comments reads the author links but adds none.
        let report = try mapper.importJSON(#"[{"id": 7, "author": 1}]"#, as: "Comment")
        #expect(report.counts(for: "Comment").list == [0, 0, 0, 0])
        #expect(report.counts(for: "User").list == [0, 1, 0, 0])
        #expect(try mapper.rowCount("Comment") == 0)
        // Nested under the back side, the comment is no better off.
        try mapper.importJSON(#"{"id": 1, "comments": [{"id": 8}]}"#, as: "User")
        #expect(try mapper.rowCount("Comment") == 0)
    }

    @Test func ownedRowThatLosesItsLastLinkIsRemoved() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "address": {"street": "A", "city": "Oslo"}}"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 1, "address": null}"#, as: "User", options: .init(explain: true))
        #expect(report.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Address 1"])
        #expect(report.counts(for: "Address").list == [0, 0, 0, 1])
        #expect(report.json(explain: true).hasSuffix(#""deletions":[{"entity":"Address","key":null,"reason":"orphan"}]}"#))
    }

    @Test func ownedOneReplacedInPlaceIsNotAnOrphan() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "address": {"street": "A", "city": "Oslo"}}"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 1, "address": {"street": "B", "city": "Bergen"}}"#, as: "User")
        #expect(report.orphansRemoved.isEmpty)
        #expect(report.counts(for: "Address").list == [0, 1, 0, 0])
        #expect(try mapper.clean().changes.isEmpty)
        #expect(try mapper.texts("Address", "street") == ["B"])
    }

    @Test func ownedRowsPastTheEndOfTheListAreRemoved() throws {
        let mapper = try makeMapper("""
            entities:
              Post:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  links: { to: Link, kind: many }
              Link:
                attributes: { href: string }
            """)
        try mapper.importJSON(#"{"id": 1, "links": [{"href": "a"}, {"href": "b"}, {"href": "c"}]}"#, as: "Post")
        let report = try mapper.importJSON(#"{"id": 1, "links": [{"href": "a"}]}"#, as: "Post")
        #expect(report.counts(for: "Link").list == [0, 0, 1, 2])
        #expect(try mapper.texts("Link", "href") == ["a"])
    }

    @Test func orphanWithCascadeDeletesItsTargetsAndCleansAgain() throws {
        let mapper = try makeMapper("""
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
            """)
        try mapper.importJSON(#"{"id": 1, "cards": [{"id": 2, "file": {"id": 3, "notes": [{"id": 4}]}}]}"#, as: "Board")
        let report = try mapper.importJSON(#"{"id": 1, "cards": []}"#, as: "Board", options: .init(explain: true))
        #expect(report.deletions?.map { "\($0.entity) \($0.key[0]) \($0.reason)" } == ["Card 2 orphan", "File 3 cascade", "Note 4 orphan"])
        #expect(report.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Card 1", "Note 1"])
    }
}
