import Foundation
import Testing

/// Unions (SPEC 1.4) and documents with several roots (SPEC 1.5) through the command line.
@Suite struct UnionCommandTests {
    static let mapping = """
        entities:
          Actor:
            oneOf: { key: type, map: { User: User, Bot: Bot } }
          User:
            primaryKey: id
            attributes: { id: int, login: string }
          Bot:
            primaryKey: id
            attributes: { id: int, login: string }
          Issue:
            primaryKey: id
            attributes: { id: int, title: string }
            relationships:
              author: { to: Actor, kind: one }
        documents:
          Dump:
            roots: { actors: Actor, issues: Issue }
        """

    static let issues = """
        [{"id": 1, "title": "a", "author": {"type": "User", "id": 5, "login": "ann"}},
         {"id": 2, "title": "b", "author": {"type": "Bot", "id": 9, "login": "dep"}}]
        """

    @Test func importQueryFilterExportAndImportAgain() throws {
        let workspace = try Workspace(mappings: ["github.yml": Self.mapping])
        try workspace.write(Self.issues, to: "issues.json")
        let imported = try workspace.run(["import", "Issue", "issues.json"])
        #expect(imported.stdout.contains("User: 1 inserted") && imported.stdout.contains("Bot: 1 inserted"), "\(imported)")
        let query = try workspace.run(["query", "Issue", "--where", "author.entity = 'Bot' OR author.login = 'nobody'"])
        #expect(query.stdout == """
            [
            {"id":2,"title":"b","author":{"entity":"Bot","key":9}}
            ]

            """, "\(query)")
        let export = try workspace.run(["export", "Issue", "--depth", "0"])
        #expect(export.stdout.contains(#"{"id":1,"title":"a","author":{"type":"User","id":5}}"#), "\(export)")
        try workspace.write(try workspace.run(["export", "Issue"]).stdout, to: "export.json")
        let again = try workspace.run(["import", "Issue", "export.json"])
        #expect(again.stdout.contains("Issue: 0 inserted, 0 updated, 2 unchanged, 0 deleted"), "\(again)")
        let stats = try workspace.run(["stats", "--format", "json"])
        #expect(stats.stdout.contains(#""links":{"Issue.author":2}"#), "\(stats)")
    }

    @Test func aUnknownDiscriminatorIsARecordErrorWithItsPath() throws {
        let workspace = try Workspace(mappings: ["github.yml": Self.mapping])
        try workspace.write(#"[{"type": "Robot", "id": 1}]"#, to: "actors.json")
        let result = try workspace.run(["import", "Actor", "actors.json"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(
            "actors.json: record 0 at $[0].type: Actor has no entity for 'type' value 'Robot' (map lists 'User', 'Bot')"), "\(result)")
    }

    @Test func aDocumentImportsEachRootAndValidateListsIt() throws {
        let workspace = try Workspace(mappings: ["github.yml": Self.mapping])
        try workspace.write(
            #"{"actors": [{"type": "Bot", "id": 9, "login": "dep"}], "issues": [{"id": 3, "title": "c", "author": {"type": "Bot", "id": 9}}]}"#,
            to: "dump.json")
        let result = try workspace.run(["import", "Dump", "dump.json", "--report", "json"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains(#""entity":"Dump","records":2"#), "\(result)")
        #expect(result.stdout.contains(#""Bot":{"inserted":1,"updated":0,"unchanged":0,"deleted":0}"#), "\(result)")
        let validate = try workspace.run(["validate"])
        #expect(validate.stdout.contains("Actor  union by: type  entities: User, Bot"), "\(validate)")
        #expect(validate.stdout.contains("Dump   document        roots: actors: Actor, issues: Issue"), "\(validate)")
        let rooted = try workspace.run(["import", "Dump", "dump.json", "--root", "issues"])
        #expect(rooted.exitCode == 2 && rooted.stderr.contains("--root does not apply to document 'Dump'"), "\(rooted)")
    }

    @Test func aUnionOrADocumentIsNotQueriedItself() throws {
        let workspace = try Workspace(mappings: ["github.yml": Self.mapping])
        try workspace.importing(Self.issues, as: "Issue")
        let query = try workspace.run(["query", "Actor"])
        #expect(query.exitCode == 2 && query.stderr.contains("'Actor' is a union of User, Bot: its rows belong to those entities; name one of them"), "\(query)")
        let export = try workspace.run(["export", "Dump"])
        #expect(export.exitCode == 2 && export.stderr.contains("'Dump' is a document of Actor, Issue"), "\(export)")
    }

    @Test func aBareKeyReferenceToAUnionIsRefusedWithItsPosition() throws {
        let bad = Self.mapping.replacingOccurrences(of: "author: { to: Actor, kind: one }", with: "author: { to: Actor, kind: one, by: id }")
        let workspace = try Workspace(mappings: ["github.yml": bad])
        let result = try workspace.run(["validate"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(
            "error: ./Mappings/github.yml:14:43: 'by: id' cannot reference union 'Actor': a bare key does not say which entity it is"), "\(result)")
    }
}
