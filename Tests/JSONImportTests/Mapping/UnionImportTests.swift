import Foundation
import Testing

@testable import JSONImport

/// Unions (SPEC 1.4): objects routed by a discriminator to their concrete entity, links that
/// remember it, filters, export and deletion through them.
@Suite struct UnionImportTests {
    static let yaml = """
        entities:
          Actor:
            oneOf: { key: type, map: { User: User, Organization: Org, Bot: Bot } }
          User:
            primaryKey: id
            attributes: { id: int, login: string }
            relationships:
              authored: { to: Issue, kind: many, inverse: author }
          Org:
            primaryKey: id
            attributes: { id: int, login: string, name: string }
          Bot:
            primaryKey: id
            cleanup: orphans
            attributes: { id: int, login: string }
          Issue:
            primaryKey: id
            attributes: { id: int, title: string }
            relationships:
              author: { to: Actor, kind: one, onDelete: cascade }
              assignees: { to: Actor, kind: many }
              watchers: { to: Actor, kind: many, by: keyObject }
          FeedItem:
            oneOf: { key: kind, map: { post: Post, comment: Comment, actor: Actor } }
          Post:
            primaryKey: id
            attributes: { id: int, title: string }
          Comment:
            primaryKey: id
            attributes: { id: int, body: string }
        """

    static let issues = """
        [{"id": 1, "title": "a", "author": {"type": "User", "id": 5, "login": "ann"},
          "assignees": [{"type": "Bot", "id": 9, "login": "dep"}, {"type": "User", "id": 5, "login": "ann"}]},
         {"id": 2, "title": "b", "author": {"type": "Bot", "id": 9, "login": "dep"}, "watchers": [{"type": "Organization", "id": 7}]}]
        """

    private func records(_ mapper: Mapper, _ entity: String, where filter: String? = nil) throws -> [String] {
        var query = mapper.query(entity)
        if let filter { query = query.where(filter) }
        return try query.records().map { RecordValue.object($0).jsonText }
    }

    @Test func eachObjectGoesToItsEntityAndTheLinkRemembersWhich() throws {
        let mapper = try makeMapper(Self.yaml)
        let report = try mapper.importJSON(Self.issues, as: "Issue")
        #expect(report.counts(for: "User").inserted == 1 && report.counts(for: "Bot").inserted == 1)
        // A reference by key object never writes its target: the organization is a stub.
        #expect(report.stubs.map(\.entity) == ["Org"])
        #expect(try records(mapper, "Issue") == [
            #"{"id":1,"title":"a","author":{"entity":"User","key":5},"assignees":[{"entity":"User","key":5},{"entity":"Bot","key":9}],"watchers":[]}"#,
            #"{"id":2,"title":"b","author":{"entity":"Bot","key":9},"assignees":[],"watchers":[{"entity":"Org","key":7}]}"#,
        ])
        // The back side on a concrete entity reads the links to it.
        #expect(try records(mapper, "User") == [#"{"id":5,"login":"ann","authored":[1]}"#])
        #expect(try mapper.statistics().links.map(\.name) == ["Issue.author", "Issue.assignees", "Issue.watchers"])
        #expect(try mapper.statistics().links.map(\.count) == [2, 2, 1])
    }

    @Test func aNewObjectReplacesTheLinkToAnotherEntity() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        let report = try mapper.importJSON(
            #"[{"id": 1, "author": {"type": "Bot", "id": 9}, "assignees": [{"type": "Bot", "id": 9}]}]"#, as: "Issue")
        #expect(report.counts(for: "Issue").updated == 1)
        #expect(try records(mapper, "Issue", where: "id = 1") == [
            #"{"id":1,"title":"a","author":{"entity":"Bot","key":9},"assignees":[{"entity":"Bot","key":9}],"watchers":[]}"#
        ])
        #expect(try records(mapper, "User") == [#"{"id":5,"login":"ann","authored":[]}"#])
        // null clears whichever entity it linked to.
        try mapper.importJSON(#"[{"id": 1, "author": null}]"#, as: "Issue")
        #expect(try records(mapper, "Issue", where: "author.entity = 'Bot'").count == 1)
    }

    @Test(arguments: [
        (#"[{"id": 1, "author": {"type": "Robot", "id": 3}}]"#, "$[0].author.type",
         "Actor has no entity for 'type' value 'Robot' (map lists 'User', 'Organization', 'Bot')"),
        (#"[{"id": 1, "author": {"id": 3}}]"#, "$[0].author.type", "missing 'type': it says which entity of Actor the object is"),
        (#"[{"id": 1, "author": 3}]"#, "$[0].author", "expected object for Actor (routed by 'type'), found number 3"),
        (#"[{"id": 1, "assignees": [{"type": "Bot", "id": 1}, {"type": ["Bot"], "id": 2}]}]"#, "$[0].assignees[1].type",
         "'type' of Actor must be a string, number or boolean, found array"),
    ])
    func anObjectThatCannotBeRoutedIsARecordError(json: String, path: String, message: String) throws {
        let mapper = try makeMapper(Self.yaml)
        do {
            try mapper.importJSON(json, as: "Issue")
            Issue.record("the import should fail")
        } catch let error as ImportError {
            #expect(error.report.errors.map(\.path) == [path])
            #expect(error.report.errors.map(\.message) == [message])
        }
        #expect(try mapper.rowCount("Issue") == 0)
    }

    @Test func aUnionIsImportedAsTheRootThroughNestedUnions() throws {
        let mapper = try makeMapper(Self.yaml)
        let report = try mapper.importJSON(
            #"[{"kind": "post", "id": 1, "title": "hi"}, {"kind": "comment", "id": 2, "body": "yo"}, {"kind": "actor", "type": "User", "id": 4, "login": "b"}]"#,
            as: "FeedItem")
        #expect(report.entity == "FeedItem" && report.records == 3)
        #expect(report.changes.map(\.entity) == ["User", "Post", "Comment"])
        #expect(try records(mapper, "User") == [#"{"id":4,"login":"b","authored":[]}"#])
    }

    @Test func filtersFollowEveryEntityOfTheUnion() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        let ids = { (filter: String) in try mapper.query("Issue").where(filter).records().map { $0["id"] } }
        #expect(try ids("author.login = 'dep'") == [.int(2)])
        #expect(try ids("assignees.entity = 'Bot'") == [.int(1)])
        #expect(try ids("author.entity != 'Bot'") == [.int(1)])
        #expect(try ids("author = 5") == [.int(1)])
        #expect(try ids("watchers.name = 'x' OR watchers.entity IN ('Org')") == [.int(2)])
        #expect(throws: QueryError.self) { try ids("author.nickname = 'x'") }
        #expect(throws: QueryError.self) { try mapper.query("Issue").order(by: "author.login").records() }
        do {
            _ = try ids("author.nickname = 'x'")
        } catch {
            #expect("\(error)".contains("no entity of union Actor (User, Org, Bot) has field 'nickname'"), "\(error)")
        }
    }

    @Test func exportWritesTheDiscriminatorBackAndImportsUnchanged() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        let nested = String(decoding: try mapper.exportData("Issue", ids: ["1"]), as: UTF8.self)
        #expect(nested.contains(#""author":{"type":"User","id":5,"login":"ann","authored":[1]}"#), "\(nested)")
        let keys = String(decoding: try mapper.exportData("Issue", depth: 0), as: UTF8.self)
        #expect(keys.contains(#""author":{"type":"Bot","id":9},"assignees":[],"watchers":[{"type":"Organization","id":7}]"#), "\(keys)")
        let exported = try mapper.exportData("Issue")
        let again = try mapper.importData(exported, as: "Issue")
        #expect(again.counts(for: "Issue").list == [0, 0, 2, 0])
        #expect(again.changes.allSatisfy { $0.counts.inserted == 0 && $0.counts.updated == 0 })
    }

    /// What an app declares for the union: an enum told apart by the discriminator, as for the
    /// API's JSON.
    enum Actor: Decodable, Equatable {
        case user(id: Int, login: String)
        case bot(id: Int)
        case org(id: Int)

        private enum Keys: String, CodingKey { case type, id, login }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            switch try container.decode(String.self, forKey: .type) {
            case "User": self = .user(id: try container.decode(Int.self, forKey: .id), login: try container.decode(String.self, forKey: .login))
            case "Bot": self = .bot(id: try container.decode(Int.self, forKey: .id))
            case "Organization": self = .org(id: try container.decode(Int.self, forKey: .id))
            case let other: throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "no actor '\(other)'")
            }
        }
    }

    struct DecodedIssue: Decodable, Equatable {
        let id: Int
        let author: Actor?
        let assignees: [Actor]
        let watchers: [Actor]
    }

    @Test func aSwiftEnumDecodesTheLinkedRowsByTheirDiscriminator() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        try mapper.importJSON(#"[{"id": 3, "author": null}]"#, as: "Issue")
        let stored = try mapper.query(DecodedIssue.self, entity: "Issue").all()
        #expect(stored == [
            DecodedIssue(id: 1, author: .user(id: 5, login: "ann"), assignees: [.user(id: 5, login: "ann"), .bot(id: 9)], watchers: []),
            DecodedIssue(id: 2, author: .bot(id: 9), assignees: [], watchers: [.org(id: 7)]),
            DecodedIssue(id: 3, author: nil, assignees: [], watchers: []),
        ])
        // The same type reads the export, as it would the API's payload.
        #expect(try JSONDecoder().decode([DecodedIssue].self, from: mapper.exportData("Issue")) == stored)
    }

    @Test func cascadesAndCleanUpFollowTheLinksToConcreteRows() throws {
        let mapper = try makeMapper(Self.yaml)
        try mapper.importJSON(Self.issues, as: "Issue")
        // Deleting issue 2 cascades to its author, the bot, which issue 1 still lists.
        let report = try mapper.delete("Issue", ids: ["2"])
        #expect(report.counts(for: "Bot").deleted == 1)
        #expect(try records(mapper, "Issue") == [
            #"{"id":1,"title":"a","author":{"entity":"User","key":5},"assignees":[{"entity":"User","key":5}],"watchers":[]}"#
        ])
        // A bot no longer linked from anything is an orphan (cleanup: orphans).
        try mapper.importJSON(#"[{"id": 3, "assignees": [{"type": "Bot", "id": 10}]}]"#, as: "Issue")
        let cleared = try mapper.importJSON(#"[{"id": 3, "assignees": []}]"#, as: "Issue")
        #expect(cleared.orphansRemoved.map(\.entity) == ["Bot"])
        #expect(try mapper.rowCount("Bot") == 0)
    }
}
