import Foundation
import Testing

@testable import JSONImport

/// `MappingDraft`: a mapping inferred from samples, which validates and imports them.
@Suite struct MappingDraftTests {
    private let typed = """
        [
         {"id": 1, "count": 3, "ratio": 0.5, "active": true, "name": "a", "created_at": "2024-01-02T03:04:05Z",
          "joined_at": 1700000000, "seen_at": 1700000000123, "token": "3F2504E0-4F89-41D3-9A0C-0305E82C3301",
          "homepage": "https://example.com", "price": 4.90, "amount": "19.99", "due_on": "2024-05-01",
          "zip": 94107, "version": 3, "tags": ["a", "b"], "scores": [1, 2], "mixed": [1, "a"], "grid": [[1]],
          "nothing": null, "flag": 1, "big": 123456789012345678901234},
         {"id": 2, "count": 4, "ratio": 2, "active": false, "name": "b", "created_at": "2024-01-03 00:00:00.5+01:00",
          "joined_at": "1700000001", "seen_at": 1700000000999, "token": "9b2e6c1a-0d4f-4c8e-a1b7-5f3d2e9c8a10",
          "homepage": "", "price": 5, "amount": "20", "due_on": "",
          "zip": "02134", "version": "4", "tags": [], "scores": [3], "mixed": [true], "grid": [],
          "nothing": null, "flag": true, "big": 7}
        ]
        """

    @Test func everyAttributeTypeAcceptsEveryValueItsKeyHeld() throws {
        let draft = try inferDraft(typed)
        let expected: [(String, String, String?)] = [
            ("id", "int", nil), ("count", "int", nil), ("ratio", "double", nil), ("active", "bool", nil),
            ("name", "string", nil), ("createdAt", "date", nil),
            ("joinedAt", "{ type: date, format: epoch }", "epoch seconds"),
            ("seenAt", "{ type: date, format: epochMillis }", "epoch milliseconds"),
            ("token", "uuid", nil), ("homepage", "{ type: url, nullIf: \"\" }", "\"\" read as null"),
            ("price", "decimal", nil), ("amount", "decimal", nil), ("dueOn", "{ type: date, nullIf: \"\" }", "\"\" read as null"),
            ("zip", "string", "mixed: numbers and strings"), ("version", "int", nil),
            ("tags", "\"[string]\"", nil), ("scores", "\"[int]\"", nil),
            ("mixed", "\"[string]\"", "mixed: numbers and bools and strings"), ("grid", "json", "lists of lists"),
            ("nothing", "json", "only null in the samples"), ("flag", "bool", nil), ("big", "decimal", nil),
        ]
        for (property, value, comment) in expected {
            let entry = draft.entry("Item", property)
            #expect(entry.value == value, "\(property)")
            #expect(entry.comment == comment, "\(property)")
        }
        let report = try draft.importing(typed)
        #expect(report.errors.isEmpty && report.records == 2, "\(report.errors)")
    }

    @Test func importingTheSamplesWithTheDraftKeepsTheirValues() throws {
        let draft = try inferDraft(typed)
        let mapper = try Mapper(spec: draft.spec, store: TestStore.fresh())
        try mapper.importData(Data(typed.utf8), as: "Item")
        let rows = try mapper.storedRows("Item", "price", "amount", "homepage", "joinedAt", "token", orderedBy: "id")
        #expect(rows == [
            [.text("4.90"), .text("19.99"), .text("https://example.com"), .real(1_700_000_000), .text("3f2504e0-4f89-41d3-9a0c-0305e82c3301")],
            [.text("5"), .text("20"), .null, .real(1_700_000_001), .text("9b2e6c1a-0d4f-4c8e-a1b7-5f3d2e9c8a10")],
        ])
    }

    private static func user(_ login: String, _ id: Int) -> String {
        """
        {"login": "\(login)", "id": \(id), "node_id": "U\(id)", "avatar_url": "https://avatars.example.com/u/\(id)",
         "type": "User", "site_admin": false}
        """
    }

    private let issues = """
        [{"id": 1, "title": "Bug", "user": \(user("octocat", 1)),
          "labels": [{"id": 10, "name": "bug", "color": "d73a4a"}],
          "assignees": [\(user("hubot", 2))],
          "milestone": {"id": 100, "title": "v1", "creator": \(user("octocat", 1))},
          "reactions": {"total_count": 1, "+1": 1},
          "pull_request": {"url": "https://api.example.com/pulls/1", "merged_at": null}},
         {"id": 2, "title": "Feature", "user": \(user("hubot", 2)), "labels": [], "assignees": [],
          "milestone": null, "reactions": {"total_count": 0, "+1": 0}}]
        """

    @Test func nestedObjectsWithAnIDAreEntitiesListsOfThemManyAndTheRestOwned() throws {
        let draft = try inferDraft(issues, entity: "Issue")
        #expect(draft.spec.entities.map(\.name) == ["Issue", "User", "Label", "Milestone", "Reactions", "PullRequest"])
        let issue = try draft.entitySpec("Issue")
        #expect(issue.primaryKey == ["id"])
        let relationships = issue.relationships.map { "\($0.name) \($0.kind.rawValue) \($0.target)" }
        #expect(relationships == [
            "user one User", "labels many Label", "assignees many User", "milestone one Milestone",
            "reactions one Reactions", "pullRequest one PullRequest",
        ])
        #expect(try draft.entitySpec("Milestone").relationship(named: "creator")?.target == "User")
        #expect(try draft.entitySpec("Reactions").isOwned)
        #expect(try draft.entitySpec("PullRequest").isOwned)
        #expect(try !draft.entitySpec("Label").isOwned)
        #expect(draft.entry("Reactions", "plus1").value == "{ key: \"+1\", type: int }")
        #expect(draft.entry("PullRequest", "mergedAt").value == "json")
        #expect(draft.entry("Issue", "milestone").comment == "null in 1 of 2")
        #expect(draft.entry("Issue", "pullRequest").comment == "optional: in 1 of 2")
        let report = try draft.importing(issues)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.counts(for: "User").inserted == 2)
        #expect(draft.yaml.contains("  User:  # 4 objects in Issue.user, Issue.assignees, Milestone.creator\n"), "\(draft.yaml)")
    }

    @Test func objectsOfOneNameButAnotherShapeAreAnotherEntityNamedAfterTheirParent() throws {
        let blog = """
            [{"id": 1, "author": {"id": 5, "name": "Ada"},
              "posts": [{"id": 9, "author": {"handle": "x", "url": "https://example.com/x"}}]}]
            """
        let draft = try inferDraft(blog, entity: "Blog")
        #expect(draft.spec.entities.map(\.name) == ["Blog", "Author", "Post", "PostAuthor"])
        #expect(try draft.entitySpec("Post").relationship(named: "author")?.target == "PostAuthor")
        #expect(try draft.entitySpec("PostAuthor").isOwned)
        #expect(try draft.importing(blog).errors.isEmpty)
    }

    @Test func objectsOfOneNameAndShapeAcrossThePayloadAreOneEntity() throws {
        // Authors met as a list and as a value, with more keys in one place than the other.
        let articles = """
            [{"id": 1, "author": {"id": 7, "name": "Ada"}, "comments": [{"id": 3, "authors": [{"id": 7, "name": "Ada", "bio": "b"}]}]}]
            """
        let draft = try inferDraft(articles, entity: "Article")
        #expect(draft.spec.entities.map(\.name) == ["Article", "Author", "Comment"])
        #expect(try draft.entitySpec("Comment").relationship(named: "authors")?.target == "Author")
        #expect(draft.entry("Author", "bio").comment == "optional: in 1 of 2")
        let report = try draft.importing(articles)
        #expect(report.errors.isEmpty && report.counts(for: "Author").inserted == 1)
    }

    @Test func aKeyHoldingObjectsAndTheirKeysIsOneRelationshipByAuto() throws {
        let articles = """
            [{"id": 1, "author": 12}, {"id": 2, "author": {"id": 14, "handle": "noor"}}, {"id": 3, "author": null}]
            """
        let draft = try inferDraft(articles, entity: "Article")
        #expect(draft.entry("Article", "author").value == "{ to: Author, kind: one }")
        let mapper = try Mapper(spec: draft.spec, store: TestStore.fresh())
        let report = try mapper.importJSON(articles, as: "Article")
        #expect(report.errors.isEmpty)
        #expect(report.stubs.map(\.entity) == ["Author"])
        #expect(try mapper.rowCount("Author") == 2)
    }

    @Test func valuesNoAttributeOrRelationshipTakesTogetherAreJSON() throws {
        let samples = """
            [{"id": 1, "sometimes": {"k": 1}, "list": [{"x": 1}, 2], "either": [1], "holes": [{"a": 1}, null],
              "nested": {"inner": {"k": 1}}, "empty": {}, "days": {"2024-01-01": 1, "2024-01-02": 2}},
             {"id": 2, "sometimes": "text", "list": [], "either": {"a": 1}, "holes": [], "nested": {"inner": {"k": 2}},
              "empty": {}, "days": {"2024-01-03": 3}}]
            """
        let draft = try inferDraft(samples)
        #expect(draft.entry("Item", "sometimes") == ("json", "objects and values that are not their keys"))
        #expect(draft.entry("Item", "list") == ("json", "lists of objects and values that are not their keys"))
        #expect(draft.entry("Item", "either") == ("json", "lists and other values"))
        #expect(draft.entry("Item", "holes") == ("json", "null in lists of objects"))
        #expect(draft.entry("Item", "nested") == ("json", "objects with no key and nothing but objects in them"))
        #expect(draft.entry("Item", "empty") == ("json", "objects with no key and nothing but objects in them"))
        #expect(draft.entry("Item", "days").value == "json")
        #expect(draft.spec.entities.map(\.name) == ["Item"])
        #expect(try draft.importing(samples).errors.isEmpty)
    }

    @Test func theKeyStyleFitsTheMostEntitiesAndKeysItCannotGiveAreWritten() throws {
        let samples = """
            [{"id": 1, "created_at": "2024-01-01", "updated_at": "2024-01-02", "display_name": "Ann", "URL": "https://example.com",
              "first name": "Ann", "_links": {"self": "s"},
              "settings": {"id": "3F2504E0-4F89-41D3-9A0C-0305E82C3301", "timeZone": "UTC", "darkMode": true},
              "stats": {"reads.total": 3}}]
            """
        let draft = try inferDraft(samples, entity: "Author")
        #expect(draft.yaml.contains("\ndefaults:\n  keyStyle: snake_case\n"))
        #expect(draft.entry("Author", "createdAt").value == "date")
        #expect(draft.entry("Author", "url").value == "{ key: URL, type: url }")
        #expect(draft.entry("Author", "firstName").value == "{ key: \"first name\", type: string }")
        #expect(draft.entry("Author", "links").value == "{ to: Links, kind: one, key: _links }")
        #expect(draft.entry("Stats", "readsTotal").value == "{ key: [\"reads.total\"], type: int }")
        #expect(try draft.entitySpec("Settings").primaryKey == ["id"])
        #expect(draft.yaml.contains("  Settings:  # 1 object in Author.settings\n    primaryKey: id\n    keyStyle: camelCase\n"), "\(draft.yaml)")
        #expect(try draft.importing(samples).errors.isEmpty)
    }

    @Test func anEntityWithoutAKeyInEveryRecordIsOwnedAndTheRootThenKeepsItsRows() throws {
        let samples = """
            [{"id": 1, "name": "a"}, {"name": "b"}]
            """
        let draft = try inferDraft(samples)
        #expect(try draft.entitySpec("Item").isOwned)
        #expect(draft.yaml.contains("\n    cleanup: none  # no key in every record: each import adds its records as new rows\n"))
        #expect(try draft.importing(samples).counts(for: "Item").inserted == 2)
        let nested = try inferDraft(#"[{"id": 1, "parent": {"id": 5}}, {"id": 2, "parent": {"id": null}}, {"id": 3, "other": {"x": 1}}]"#)
        #expect(nested.yaml.contains("  Parent:  # 2 objects in Item.parent; owned: 'id' null in 1\n"), "\(nested.yaml)")
        #expect(nested.yaml.contains("  Other:  # 1 object in Item.other; owned: no id\n"), "\(nested.yaml)")
    }

    @Test func wrappedRecordsGiveTheEntityItsRootAndTheKeysBesideThemAreLeftOut() throws {
        let page = """
            {"total_count": 2, "incomplete_results": false, "items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}
            """
        let draft = try inferDraft(page, page, entity: "Repo")
        #expect(draft.root == JSONKeyPath(segments: ["items"]))
        #expect(draft.yaml.contains("\n    root: items  # found in the samples, beside total_count, incomplete_results\n"))
        #expect(try draft.entitySpec("Repo").attributes.map(\.name) == ["id", "name"])
        let report = try draft.importing(page)
        #expect(report.errors.isEmpty && report.records == 2)
        #expect(draft.recordCount == 4)
    }

    @Test func theListNamedAfterTheEntityIsTheRootAmongSeveral() throws {
        let dump = """
            {"data": {"users": [{"id": 1}], "teams": [{"id": 2}]}}
            """
        #expect(try inferDraft(dump, entity: "User").root == JSONKeyPath(segments: ["data", "users"]))
        #expect(try inferDraft(dump, entity: "Team").root == JSONKeyPath(segments: ["data", "teams"]))
        // Neither named after the entity: the object is a record of its own, holding nothing
        // but lists.
        let draft = try inferDraft(dump, entity: "Org")
        #expect(draft.root == nil)
        #expect(draft.entry("Org", "data").value == "json")
    }

    @Test func aGivenRootIsTheDraftsRoot() throws {
        let page = """
            {"data": {"items": [{"id": 1}]}, "meta": {"count": 1}}
            """
        let draft = try inferDraft(page, options: InferenceOptions(root: "data.items"))
        #expect(draft.root == JSONKeyPath(segments: ["data", "items"]))
        #expect(draft.yaml.contains("\n    root: data.items\n"))
        #expect(try draft.importing(page).records == 1)
    }

    @Test func anObjectWithAnIDIsARecordNotAWrapper() throws {
        let draft = try inferDraft(#"{"id": 1, "repos": [{"id": 2}]}"#, entity: "User")
        #expect(draft.root == nil)
        #expect(draft.recordCount == 1)
    }
}
