import Testing

@testable import JSONImport

/// SPEC 1.1: entity keys, names and tables.
@Suite struct MappingLoaderEntityTests {
    @Test func primaryKeyIsAnAttributeNameOrAList() throws {
        let spec = try MappingSpec.load(
            yaml: """
                entities:
                  Member:
                    primaryKey: [team, login]
                    attributes: {team: string, login: string, joined: date}
                  Tag:
                    primaryKey: name
                    attributes: {name: string}
                """)
        #expect(spec.entity(named: "Member")?.primaryKey == ["team", "login"])
        #expect(spec.entity(named: "Tag")?.primaryKey == ["name"])
        #expect(spec.entity(named: "Tag")?.keyAttributes.map(\.name) == ["name"])
    }

    @Test func primaryKeyMustNameUsableAttributes() {
        let yaml = """
            entities:
              User:
                primaryKey: [id, idd, meta, born, tags, id]
                attributes:
                  id: int
                  meta: json
                  born: date
                  tags: "[string]"
            """
        #expect(
            loadErrors(yaml) == [
                "m.yml:3:22: error: primary key 'idd' names no attribute of 'User' (did you mean 'id'?)",
                "m.yml:3:27: error: primary-key attribute 'meta' has type json; json, date and array types cannot be keys",
                "m.yml:3:33: error: primary-key attribute 'born' has type date; json, date and array types cannot be keys",
                "m.yml:3:39: error: primary-key attribute 'tags' has type [string]; json, date and array types cannot be keys",
                "m.yml:3:45: error: primary key lists 'id' twice",
            ])
        #expect(
            loadErrors("entities:\n  User:\n    primaryKey: []\n    attributes: {id: int}\n") == [
                "m.yml:3:17: error: 'primaryKey' lists no attribute"
            ])
    }

    @Test func primaryKeyAttributeCannotBeLeftOutOfExport() throws {
        #expect(
            renderedError(
                "entities:\n  User:\n    primaryKey: id\n    attributes:\n      id: {type: int, export: false}\n")
                    == """
                    m.yml:5:31: error: primary-key attribute 'id' cannot be 'export: false': exports must keep the key
                          id: {type: int, export: false}
                                                  ^
                    """)
        let spec = try MappingSpec.load(yaml: userMapping("  secret: {type: string, export: false}"))
        #expect(spec.entity(named: "User")?.attribute(named: "secret")?.isExported == false)
    }

    @Test func attributesAreRequiredAndNonEmpty() {
        #expect(
            loadErrors("entities:\n  User:\n    primaryKey: id\n") == [
                "m.yml:2:3: error: entity 'User' has no 'attributes'"
            ])
        #expect(
            loadErrors("entities:\n  User:\n    attributes: {}\n") == [
                "m.yml:3:5: error: entity 'User' needs at least one attribute"
            ])
        #expect(
            loadErrors("entities:\n  User:\n    attributes:\n") == [
                "m.yml:3:5: error: entity 'User' needs at least one attribute"
            ])
        #expect(
            loadErrors("entities:\n  User:\n") == [
                "m.yml:2:3: error: entity 'User' has no 'attributes'"
            ])
    }

    @Test func unknownEntityKeysSuggestTheClosest() {
        #expect(
            loadErrors("entities:\n  User:\n    primarykey: id\n    attributes: {id: int}\n    tabel: users\n") == [
                "m.yml:3:5: error: unknown key 'primarykey' in entity 'User' (did you mean 'primaryKey'?)",
                "m.yml:5:5: error: unknown key 'tabel' in entity 'User' (did you mean 'table'?)",
            ])
    }

    @Test func entityNamesFollowTheNamingRule() {
        let yaml = """
            entities:
              my-user:
                attributes: {id: int}
              _Hidden:
                attributes: {id: int}
              Fine2:
                attributes: {id: int}
            """
        #expect(
            loadErrors(yaml) == [
                "m.yml:2:3: error: invalid entity name 'my-user': names must match [A-Za-z_][A-Za-z0-9_]*",
                "m.yml:4:3: error: invalid entity name '_Hidden': names beginning with '_' are reserved",
            ])
    }

    @Test func propertyNamesFollowTheNamingRule() {
        #expect(
            loadErrors(
                userMapping(
                    "  2fa: bool", "  _id: int", "  ok_2: int", "relationships:", "  _owner: {to: User, kind: one}"))
                == [
                    "m.yml:6:7: error: invalid property name '2fa': names must match [A-Za-z_][A-Za-z0-9_]*",
                    "m.yml:7:7: error: invalid property name '_id': names beginning with '_' are reserved",
                    "m.yml:10:7: error: invalid property name '_owner': names beginning with '_' are reserved",
                ])
    }

    @Test func entityNamesAreUniqueAcrossFiles() {
        let user = "entities:\n  User:\n    attributes: {id: int}\n"
        #expect(
            loadErrors(files: [("a.yml", user), ("b.yml", user)]) == [
                "b.yml:2:3: error: duplicate entity 'User', first declared at a.yml:2:3"
            ])
        #expect(
            loadErrors(user + "  User:\n    attributes: {id: int}\n") == [
                "m.yml:4:3: error: duplicate entity 'User', first declared at m.yml:2:3"
            ])
    }

    @Test func attributesAndRelationshipsShareOneNamespace() {
        #expect(
            loadErrors(
                userMapping("  name: string", "  Name: string", "relationships:", "  name: {to: User, kind: one}")) == [
                    "m.yml:7:7: error: duplicate property 'Name' in entity 'User' (as 'name'; column names ignore case), first declared at m.yml:6:7",
                    "m.yml:9:7: error: duplicate property 'name' in entity 'User', first declared at m.yml:6:7",
                ])
    }

    @Test func keyStyleComesFromEntityThenFileDefaultsThenAsIs() throws {
        let yaml = """
            defaults:
              keyStyle: snake_case
            entities:
              User:
                attributes:
                  createdAt: date
                  htmlURL: url
                  email: {type: string, key: contact.email}
                relationships:
                  followerIds: {to: User, kind: many}
              Repo:
                keyStyle: kebab-case
                attributes: {createdAt: date, odd: {type: string, key: [a.b, c]}}
              Camel:
                keyStyle: camelCase
                attributes: {created_at: date, html_URL: url, plain: string}
            """
        let spec = try MappingSpec.load(files: [
            ("a.yml", yaml), ("b.yml", "entities:\n  Other:\n    attributes: {createdAt: date}\n"),
        ])
        let user = try #require(spec.entity(named: "User"))
        #expect(user.attributes.map(\.key.segments) == [["created_at"], ["html_url"], ["contact", "email"]])
        #expect(user.relationship(named: "followerIds")?.key.segments == ["follower_ids"])
        let repo = try #require(spec.entity(named: "Repo"))
        #expect(repo.attributes.map(\.key.segments) == [["created-at"], ["a.b", "c"]])
        #expect(spec.entity(named: "Camel")?.attributes.map(\.key.description) == ["createdAt", "htmlURL", "plain"])
        #expect(spec.entity(named: "Other")?.attributes.map(\.key.description) == ["createdAt"])
    }

    @Test func keyStyleMustBeKnown() {
        #expect(
            loadErrors(userMapping("keyStyle: snake_cas")) == [
                "m.yml:6:15: error: invalid keyStyle 'snake_cas' (did you mean 'snake_case'?)"
            ])
    }

    @Test func rootIsAKeyPath() throws {
        let spec = try MappingSpec.load(yaml: userMapping("root: data.items"))
        #expect(spec.entity(named: "User")?.root == JSONKeyPath(segments: ["data", "items"]))
        let literal = try MappingSpec.load(yaml: userMapping("root: [data.v1, items]"))
        #expect(literal.entity(named: "User")?.root == JSONKeyPath(segments: ["data.v1", "items"]))
        #expect(
            loadErrors(userMapping("root: data..items")) == [
                "m.yml:6:11: error: invalid key path for 'root': segments must not be empty"
            ])
        #expect(
            loadErrors(userMapping("root: {a: b}")) == [
                "m.yml:6:11: error: expected a string for 'root', found a mapping"
            ])
    }

    @Test func tableDefaultsToTheEntityName() throws {
        let spec = try MappingSpec.load(
            yaml: userMapping() + "  Repo:\n    table: repositories\n    attributes: {id: int}\n")
        #expect(spec.entities.map(\.table) == ["User", "repositories"])
    }

    @Test func tablesAreUniqueIgnoringCase() {
        let yaml =
            userMapping() + """
                  Member:
                    table: user
                    attributes: {id: int}
                  users:
                    attributes: {id: int}
                  Account:
                    table: users
                    attributes: {id: int}
                  Bad:
                    table: my table
                    attributes: {id: int}
                  Internal:
                    table: sqlite_stats
                    attributes: {id: int}
                """
        #expect(
            loadErrors(yaml) == [
                "m.yml:7:12: error: table 'user' of entity 'Member' is already the table of entity 'User'",
                "m.yml:12:12: error: table 'users' of entity 'Account' is already the table of entity 'users'",
                "m.yml:15:12: error: invalid table name 'my table': names must match [A-Za-z_][A-Za-z0-9_]*",
                "m.yml:18:12: error: table name 'sqlite_stats' of entity 'Internal' is reserved (names beginning with 'sqlite_' belong to SQLite)",
            ])
    }

    /// PostgreSQL cuts names past 63 bytes short, so that a table and its `__seen` table could
    /// become one: every store refuses what any store would make longer.
    @Test func namesTheStoreMakesFitPostgreSQLs63Bytes() {
        let table57 = "T" + String(repeating: "a", count: 56)
        let name63 = "n" + String(repeating: "a", count: 62)
        #expect(loadErrors("""
            entities:
              E:
                table: \(table57)
                primaryKey: id
                attributes:
                  id: int
                  \(name63): string
                  at: { type: date, index: true }
              Short:
                primaryKey: id
                attributes:
                  id: int
                  \(String(repeating: "i", count: 57)): { type: string, index: true }
                relationships:
                  \(String(repeating: "r", count: 50)): {to: E, kind: many}
            """) == [])
        let yaml = """
            entities:
              E:
                table: \(table57)a
                primaryKey: id
                attributes:
                  id: int
                  \(name63)a: string
              Short:
                primaryKey: id
                attributes:
                  id: int
                  \(String(repeating: "i", count: 58)): { type: string, index: true }
                relationships:
                  \(String(repeating: "r", count: 51)): {to: E, kind: many}
            """
        let limit = "a store's names are at most 63 bytes (PostgreSQL's limit, kept by every store)"
        #expect(
            loadErrors(yaml) == [
                "m.yml:3:12: error: table name '\(table57)a' of entity 'E' makes the name '\(table57)a__seen', 64 bytes long; \(limit): give the entity another 'table'",
                "m.yml:7:7: error: attribute 'E.\(name63)a' is 64 bytes long; \(limit): rename the attribute (its JSON key can stay, with 'key')",
                "m.yml:12:7: error: attribute 'Short.\(String(repeating: "i", count: 58))' makes the name 'Short_\(String(repeating: "i", count: 58))', 64 bytes long; \(limit): rename the attribute (its JSON key can stay, with 'key')",
                "m.yml:14:7: error: relationship 'Short.\(String(repeating: "r", count: 51))' makes the name 'Short_\(String(repeating: "r", count: 51))_target', 64 bytes long; \(limit): rename the relationship (its JSON key can stay, with 'key'), or its entity's 'table'",
            ])
    }

    /// PostgreSQL keeps a table's `__seen` table and its primary key's index (`TABLE_pkey`) in
    /// the namespace of tables and indexes, and some column names for itself: every store
    /// refuses mappings whose names would meet them there.
    @Test func namesMustNotMeetTheStoresOwnTablesIndexesOrSystemColumns() {
        let yaml = """
            entities:
              A:
                primaryKey: id
                attributes:
                  id: int
                  b: { type: string, index: true }
                  xmin: int
              A__seen:
                primaryKey: id
                attributes: {id: int}
              B:
                table: a_pkey
                primaryKey: id
                attributes: {id: int}
              C:
                table: A_b
                primaryKey: id
                attributes: {id: int}
            """
        let tail = "(tables and indexes share their names, ignoring case): give the entity another 'table'"
        #expect(
            loadErrors(yaml) == [
                "m.yml:7:7: error: attribute 'A.xmin' makes the column 'xmin', a name PostgreSQL keeps for its own columns (refused by every store): rename the attribute (its JSON key can stay, with 'key')",
                "m.yml:8:3: error: table name 'A__seen' of entity 'A__seen' is the name the store gives to the table of when rows of entity 'A' were seen \(tail)",
                "m.yml:12:12: error: table name 'a_pkey' of entity 'B' is the name the store gives to the primary key of the table of entity 'A' \(tail)",
                "m.yml:16:12: error: table name 'A_b' of entity 'C' is the name the store gives to an index of table 'A' \(tail)",
            ])
    }

    @Test func linkTablesMustNotCollideWithEntityTables() {
        let yaml =
            userMapping("relationships:", "  repos: {to: User_repos, kind: many}") + """
                  User_repos:
                    attributes: {id: int}
                """
        #expect(
            loadErrors(yaml) == [
                "m.yml:7:7: error: link table 'User_repos' of 'User.repos' collides with the table of entity 'User_repos'"
            ])
    }

    @Test func cleanupDefaultsToOrphansForOwnedEntities() throws {
        let spec = try MappingSpec.load(
            yaml: userMapping() + """
                  Address:
                    attributes: {street: string}
                  Log:
                    cleanup: none
                    attributes: {line: string}
                  Tag:
                    primaryKey: name
                    cleanup: orphans
                    attributes: {name: string}
                """)
        #expect(spec.entities.map(\.cleanup) == [.none, .orphans, .none, .orphans])
        #expect(spec.entities.map(\.isOwned) == [false, true, true, false])
        #expect(
            loadErrors(userMapping("cleanup: orphan")) == [
                "m.yml:6:14: error: invalid cleanup 'orphan' (did you mean 'orphans'?)"
            ])
    }

    @Test func timestampsDefaultToTrue() throws {
        let spec = try MappingSpec.load(
            yaml: userMapping() + "  Log:\n    timestamps: false\n    attributes: {line: string}\n")
        #expect(spec.entities.map(\.hasTimestamps) == [true, false])
        #expect(
            loadErrors(userMapping("timestamps: no")) == [
                "m.yml:6:17: error: expected true or false for 'timestamps', found string \"no\""
            ])
    }

    @Test func entityBodyMustBeAMapping() {
        #expect(
            loadErrors("entities:\n  User: [id]\n") == [
                "m.yml:2:9: error: expected a mapping in entity 'User', found a list"
            ])
    }
    /// `Wide` with `id` and `count - 1` more string attributes, then `extra` lines under it.
    static func wide(_ count: Int, _ extra: String = "") -> String {
        "entities:\n  Wide:\n    primaryKey: id\n    attributes:\n      id: int\n"
            + (1..<count).map { "      a\($0): string\n" }.joined() + extra
    }

    @Test func aTableOfMoreThan2000ColumnsIsRefusedAtTheEntity() throws {
        #expect(loadErrors(Self.wide(1_996)) == [])
        #expect(loadErrors(Self.wide(1_997)) == [
            "m.yml:2:3: error: entity 'Wide' needs 2001 columns (1997 attributes, 4 link and bookkeeping columns); a SQLite table holds at most 2000"
        ])
        // Foreign-key columns count; an owned entity has `_id` and no `_stub`; no timestamps, three fewer.
        let links = "    relationships:\n      a: { to: Wide, kind: one }\n      b: { to: Wide, kind: one }\n"
        #expect(loadErrors(Self.wide(1_995, links)).first?.contains("needs 2001 columns (1995 attributes, 6 link") == true)
        #expect(loadErrors(Self.wide(1_999).replacingOccurrences(of: "primaryKey: id\n", with: "timestamps: false\n")) == [])
        #expect(loadErrors(Self.wide(2_000).replacingOccurrences(of: "primaryKey: id\n", with: "timestamps: false\n")).count == 1)
    }
}
