import Testing

@testable import JSONImport

/// Loading unions and documents (SPEC 1.4, 1.5): what they resolve to, and each problem
/// reported with its position.
@Suite struct UnionLoaderTests {
    private let entities = """
        entities:
          User:
            primaryKey: id
            attributes: { id: int }
          Bot:
            primaryKey: id
            attributes: { id: int }
          Issue:
            primaryKey: id
            attributes: { id: int }
            relationships:
              author: { to: Actor, kind: one }

        """

    @Test func aRelationshipToAUnionIsOnePerConcreteEntity() throws {
        let spec = try MappingSpec.load(yaml: entities + """
              Actor:
                oneOf: { key: meta.type, map: { User: User, Bot: Bot, Robot: Bot } }
            documents:
              Dump:
                roots: { users: User, "data.issues": Issue, actors: Actor }
            """, file: "m.yml")
        let union = try #require(spec.union(named: "Actor"))
        #expect(union.key.segments == ["meta", "type"] && union.entities == ["User", "Bot"])
        #expect(union.value(routingTo: "Bot") == "Bot")
        let author = try #require(spec.entity(named: "Issue")).relationships(named: "author")
        #expect(author.map(\.target) == ["User", "Bot"] && author.allSatisfy { $0.union == "Actor" })
        #expect(author.map { spec.links[$0.linkIndex].storage } == [
            .foreignKey(table: "Issue", column: "author__User", onSource: true, isUnique: false),
            .foreignKey(table: "Issue", column: "author__Bot", onSource: true, isUnique: false),
        ])
        let document = try #require(spec.document(named: "Dump"))
        #expect(document.roots.map(\.path.description) == ["users", "data.issues", "actors"])
        #expect(document.roots.map(\.entity) == ["User", "Issue", "Actor"])
    }

    @Test func problemsOfUnionsAreReportedWithPositions() {
        let errors = loadErrors(entities + """
              Actor:
                oneOf: { key: type, map: { User: User, Bot: Bott } }
                attributes: { id: int }
              Loop:
                oneOf: { key: type, map: { a: Again } }
              Again:
                oneOf: { key: kind, map: { b: Loop } }
              Ref:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  who: { to: Actor, kind: one, by: id }
              NoMap:
                oneOf: { key: type }
            """)
        #expect(errors == [
            "m.yml:14:49: error: union 'Actor' maps 'Bot' to unknown entity 'Bott' (did you mean 'Bot'?)",
            "m.yml:15:5: error: union 'Actor' cannot have 'attributes': a union ('oneOf') only routes objects to its entities, which hold the attributes and relationships",
            "m.yml:17:35: error: union 'Again' reaches itself (Again → Loop → Again): a union routes to entities",
            "m.yml:19:35: error: union 'Loop' reaches itself (Loop → Again → Loop): a union routes to entities",
            "m.yml:24:40: error: 'by: id' cannot reference union 'Actor': a bare key does not say which entity it is; use 'by: object' or 'by: keyObject'",
            "m.yml:26:12: error: 'oneOf' of 'NoMap' needs 'map': which entity each discriminator value is",
        ])
    }

    @Test func unionsAndDocumentsShareTheEntitiesNames() {
        let errors = loadErrors(entities + """
              Actor:
                oneOf: { key: type, map: { User: User } }
              Bot2:
                oneOf: { key: type, map: { User: User } }
            documents:
              User:
                roots: { users: User }
              Dump:
                roots: { users: Usr, bots: Bot }
            """)
        #expect(errors == [
            "m.yml:18:3: error: duplicate entity 'User' (a document shares the entities' names), first declared at m.yml:2:3",
            "m.yml:21:21: error: document 'Dump' names unknown entity 'Usr' (did you mean 'User'?)",
        ])
    }
}
