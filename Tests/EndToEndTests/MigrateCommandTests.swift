import Foundation
import Testing

/// `jsonimport migrate` (SPEC 4.1, 5): safe changes applied, data-losing ones refused with
/// nothing applied, and applied with `--allow-data-loss`.
@Suite struct MigrateCommandTests {
    /// SPEC 1's example mapping with `edit` applied to its `github.yml`.
    private static func mappings(_ edit: (String) -> String) -> [String: String] {
        var files = MappingFixtures.valid
        files["github.yml"] = edit(files["github.yml"]!)
        return files
    }

    /// A store holding ``Payloads/users``, made with SPEC 1's example mapping.
    private func usersWorkspace() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.importing(Payloads.users, as: "User", file: "users.json")
        return workspace
    }

    /// Writes `files` as the mappings in `folder` and returns its path.
    private func write(_ files: [String: String], _ workspace: Workspace, folder: String) throws -> String {
        try MappingFixtures.write(files, into: workspace.directory, folder: folder)
    }

    /// Adds `company` to User and a new entity, Team.
    private static let additions = mappings {
        $0.replacingOccurrences(of: "      bio: string\n", with: "      bio: string\n      company: string\n")
            + "\n  Team:\n    primaryKey: id\n    attributes:\n      id: int\n"
    }

    /// Removes User.name, adds User.company.
    private static let removal = mappings {
        $0.replacingOccurrences(of: "      name: string\n", with: "").replacingOccurrences(
            of: "      bio: string\n", with: "      bio: string\n      company: string\n")
    }

    @Test func aStoreThatMatchesTheMappingsNeedsNothing() throws {
        let workspace = try usersWorkspace()
        #expect(try workspace.run(["migrate"]) == CLIResult(exitCode: 0, stdout: "The store matches the mappings.\n", stderr: ""))
    }

    @Test func safeAdditionsAreAppliedAndKeepEveryValue() throws {
        let workspace = try usersWorkspace()
        let before = try workspace.run(["query", "User"])
        let added = try write(Self.additions, workspace, folder: "Added")
        let plan = """
            Changes between the store and the mappings:
              + add table Team
              + add column User.company
            Applied 2 changes.

            """
        #expect(try workspace.run(["--mappings", added, "migrate"]) == CLIResult(exitCode: 0, stdout: plan, stderr: ""))
        #expect(try workspace.run(["--mappings", added, "migrate"]).stdout == "The store matches the mappings.\n")
        let after = try workspace.run(["--mappings", added, "query", "User"])
        #expect(after.stdout == before.stdout.replacingOccurrences(of: #""bio":null,"#, with: #""bio":null,"company":null,"#))
        #expect(try workspace.run(["--mappings", added, "query", "Team"]).stdout == "[]\n")
    }

    @Test func anyCommandAppliesSafeAdditionsOnOpen() throws {
        let workspace = try usersWorkspace()
        let added = try write(Self.additions, workspace, folder: "Added")
        let stats = try workspace.run(["--mappings", added, "stats", "--format", "json"])
        #expect(stats.exitCode == 0, "\(stats)")
        #expect(stats.stdout.contains(#""Team":0"#), "\(stats)")
        #expect(try workspace.run(["--mappings", added, "migrate"]).stdout == "The store matches the mappings.\n")
    }

    @Test func aDataLosingChangeIsRefusedWithNothingApplied() throws {
        let workspace = try usersWorkspace()
        let before = try workspace.run(["query", "User", "--meta"])
        let removed = try write(Self.removal, workspace, folder: "Removed")
        let plan = """
            Changes between the store and the mappings:
              ! remove column User.name and its values
              + add column User.company
            Nothing applied: changes marked '!' lose data; run 'jsonimport migrate --allow-data-loss' to apply them.

            """
        let error = "error: the mappings need changes to the store that would lose data: - remove column User.name and its values run 'jsonimport migrate --allow-data-loss' to apply them\n"
        #expect(try workspace.run(["--mappings", removed, "migrate"]) == CLIResult(exitCode: 1, stdout: plan, stderr: error))
        // Not even the safe addition was applied.
        #expect(try workspace.run(["migrate"]).stdout == "The store matches the mappings.\n")
        #expect(try workspace.run(["query", "User", "--meta"]) == before)
    }

    @Test func otherCommandsRefuseADataLosingChangeToo() throws {
        let workspace = try usersWorkspace()
        let removed = try write(Self.removal, workspace, folder: "Removed")
        let error = "error: the mappings need changes to the store that would lose data: - remove column User.name and its values run 'jsonimport migrate --allow-data-loss' to apply them\n"
        #expect(try workspace.run(["--mappings", removed, "query", "User"]) == CLIResult(exitCode: 1, stdout: "", stderr: error))
        #expect(try workspace.run(["--mappings", removed, "import", "User", "users.json"]) == CLIResult(exitCode: 1, stdout: "", stderr: error))
        #expect(try workspace.run(["migrate"]).stdout == "The store matches the mappings.\n")
    }

    @Test func allowDataLossAppliesEveryChange() throws {
        let workspace = try usersWorkspace()
        let removed = try write(Self.removal, workspace, folder: "Removed")
        let plan = """
            Changes between the store and the mappings:
              ! remove column User.name and its values
              + add column User.company
            Applied 2 changes.

            """
        #expect(try workspace.run(["--mappings", removed, "migrate", "--allow-data-loss"]) == CLIResult(exitCode: 0, stdout: plan, stderr: ""))
        #expect(try workspace.run(["--mappings", removed, "migrate"]).stdout == "The store matches the mappings.\n")
        let user = try workspace.run(["--mappings", removed, "query", "User", "--id", "1", "--fields", "id,login,company", "--format", "jsonl"])
        #expect(user.stdout == #"{"id":1,"login":"ana","company":null}"# + "\n")
        // Bringing `name` back is a safe addition: its old values are gone.
        let restored = try write(Self.mappings {
            $0.replacingOccurrences(of: "      bio: string\n", with: "      bio: string\n      company: string\n")
        }, workspace, folder: "Restored")
        let again = try workspace.run(["--mappings", restored, "query", "User", "--id", "1", "--fields", "id,name", "--format", "jsonl"])
        #expect(again.stdout == #"{"id":1,"name":null}"# + "\n")
    }

    @Test func aRebuiltTableKeepsItsOtherValuesAndEveryLink() throws {
        let workspace = try usersWorkspace()
        let fields = ["query", "User", "--fields", "id,login,createdAt,address,repos,followers", "--format", "jsonl"]
        let before = try workspace.run(fields)
        let retyped = try write(Self.mappings { $0.replacingOccurrences(of: "score: double", with: "score: string") }, workspace, folder: "Retyped")
        let result = try workspace.run(["--mappings", retyped, "migrate", "--allow-data-loss"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("  ! change the type of User.score from double to string"), "\(result)")
        #expect(try workspace.run(["--mappings", retyped] + fields) == before)
        let stats = try workspace.run(["--mappings", retyped, "stats", "--format", "json"])
        #expect(stats.stdout.hasSuffix(#""links":{"User.address":1,"User.repos":3,"User.followers":2,"Repo.tags":3}}"# + "\n"), "\(stats)")
    }

    /// Adds User.mentor (a foreign-key column), User.teams (a link table) and its target, Team.
    private static let addedRelationships = mappings {
        $0.replacingOccurrences(
            of: "      followers: { to: User, kind: many, key: follower_ids }\n",
            with: "      followers: { to: User, kind: many, key: follower_ids }\n"
                + "      mentor:    { to: User, kind: one }\n      teams:     { to: Team, kind: many }\n")
            + "\n  Team:\n    primaryKey: id\n    attributes:\n      id: int\n"
    }

    /// Removes the entity Address with the relationship to it, and User.followers.
    private static let removedEntityAndRelationships = mappings {
        let withoutAddress = $0.replacingOccurrences(of: "      address:   { to: Address, kind: one, onDelete: cascade }\n", with: "")
            .replacingOccurrences(of: "      followers: { to: User, kind: many, key: follower_ids }\n", with: "")
        return String(withoutAddress[..<withoutAddress.range(of: "  Address:")!.lowerBound])
    }

    /// Every table and row of the store (see ``TestStore/content(_:)``).
    private func dump(_ workspace: Workspace) throws -> String {
        try TestStore.content(workspace.path("jsonimport.sqlite"))
    }

    @Test func addedRelationshipsAreAppliedInPlaceAndKeepEveryLink() throws {
        let workspace = try usersWorkspace()
        let fields = ["query", "User", "--fields", "id,address,repos,followers", "--format", "jsonl"]
        let before = try workspace.run(fields)
        let added = try write(Self.addedRelationships, workspace, folder: "Added")
        let plan = """
            Changes between the store and the mappings:
              + add table Team
              + add table User_teams
              + add column User.mentor
              + add index User_mentor
            Applied 4 changes.

            """
        #expect(try workspace.run(["--mappings", added, "migrate"]) == CLIResult(exitCode: 0, stdout: plan, stderr: ""))
        #expect(try workspace.run(["--mappings", added] + fields) == before)
        try workspace.write(#"{"id": 2, "mentor": 1, "teams": [{"id": 7}, {"id": 8}]}"#, to: "teams.json")
        #expect(try workspace.run(["--mappings", added, "import", "User", "teams.json", "--quiet"]).exitCode == 0)
        let bo = try workspace.run(["--mappings", added, "query", "User", "--id", "2", "--fields", "id,repos,mentor,teams", "--format", "jsonl"])
        #expect(bo.stdout == #"{"id":2,"repos":[11,12],"mentor":1,"teams":[7,8]}"# + "\n")
    }

    @Test func aRemovedEntityAndRelationshipsAreRefusedNamingEachChangeAndTheStoreIsUntouched() throws {
        let workspace = try usersWorkspace()
        let before = try dump(workspace)
        let removed = try write(Self.removedEntityAndRelationships, workspace, folder: "Removed")
        let plan = """
            Changes between the store and the mappings:
              ! remove table Address and its rows
              ! remove table User_followers and its rows
              ! remove column User.address and its values
            Nothing applied: changes marked '!' lose data; run 'jsonimport migrate --allow-data-loss' to apply them.

            """
        let error = "error: the mappings need changes to the store that would lose data: - remove table Address and its rows - remove table User_followers and its rows - remove column User.address and its values run 'jsonimport migrate --allow-data-loss' to apply them\n"
        #expect(try workspace.run(["--mappings", removed, "migrate"]) == CLIResult(exitCode: 1, stdout: plan, stderr: error))
        #expect(try workspace.run(["--mappings", removed, "stats"]) == CLIResult(exitCode: 1, stdout: "", stderr: error))
        #expect(try dump(workspace) == before)

        let applied = try workspace.run(["--mappings", removed, "migrate", "--allow-data-loss"])
        #expect(applied.exitCode == 0, "\(applied)")
        #expect(applied.stdout.hasSuffix("Applied 3 changes.\n"), "\(applied)")
        let users = try workspace.run(["--mappings", removed, "query", "User", "--fields", "id,login,repos", "--format", "jsonl"])
        #expect(users.stdout == #"{"id":1,"login":"ana","repos":[10]}"# + "\n" + #"{"id":2,"login":"bo","repos":[11,12]}"# + "\n" + #"{"id":3,"login":null,"repos":[]}"# + "\n")
    }

    /// Making an attribute `unique` over values the store holds twice fails in the same words on
    /// every store (SQLite and PostgreSQL word it differently), with nothing applied.
    @Test func uniqueOverValuesHeldTwiceFailsAlikeWithNothingApplied() throws {
        let workspace = try usersWorkspace()
        try workspace.importing(#"[{"id": 4, "repos": [{"id": 13, "name": "kit"}]}]"#, as: "User", file: "more.json")
        var files = MappingFixtures.valid
        files["repos.yml"] = files["repos.yml"]!.replacingOccurrences(
            of: "name: { type: string, required: true }", with: "name: { type: string, required: true, unique: true }")
        let unique = try write(files, workspace, folder: "Unique")
        let result = try workspace.run(["--mappings", unique, "migrate"])
        #expect(result == CLIResult(
            exitCode: 1, stdout: "",
            stderr: "error: rows hold the same value where the mappings now want it unique (while creating index Repo_name)\n"))
        #expect(try workspace.run(["migrate"]).stdout == "The store matches the mappings.\n")
    }

    /// A keyed by `key`, linked to itself (`next`) and from B (`as`).
    private static func keyed(_ key: String) -> [String: String] {
        ["m.yml": """
            entities:
              A:
                primaryKey: \(key)
                attributes: { id: int, s: string }
                relationships:
                  next: { to: A, kind: one }
              B:
                primaryKey: id
                attributes: { id: int }
                relationships:
                  as: { to: A, kind: many }
            """]
    }

    /// A key that stops being one `int` gives the table an `_id`: each row keeps its old key as
    /// its id, so every link to it holds, on every store (PostgreSQL's key has no default).
    @Test func aKeyThatStopsBeingOneIntKeepsEveryRowAndLink() throws {
        let workspace = try Workspace(mappings: Self.keyed("id"))
        try workspace.importing(#"[{"id": 1, "as": [{"id": 7, "s": "x"}, {"id": 5, "s": "y"}]}]"#, as: "B", file: "b.json")
        let composite = try write(Self.keyed("[id, s]"), workspace, folder: "Composite")
        let migrated = try workspace.run(["--mappings", composite, "migrate", "--allow-data-loss"])
        #expect(migrated.exitCode == 0, "\(migrated)")
        #expect(try workspace.run(["--mappings", composite, "query", "B", "--format", "jsonl"]).stdout
            == #"{"id":1,"as":[[7,"x"],[5,"y"]]}"# + "\n")
        let again = try workspace.run(["--mappings", composite, "import", "B", "b.json", "--quiet", "--report", "json"])
        #expect(again.stdout.contains(#""A":{"inserted":0,"updated":0,"unchanged":2,"deleted":0}"#), "\(again)")
        try workspace.write(#"[{"id": 2, "as": [{"id": 9, "s": "z"}]}]"#, to: "more.json")
        #expect(try workspace.run(["--mappings", composite, "import", "B", "more.json", "--quiet"]).exitCode == 0)
        #expect(try workspace.run(["--mappings", composite, "query", "A", "--fields", "id,s", "--format", "jsonl"]).stdout
            == #"{"id":5,"s":"y"}"# + "\n" + #"{"id":7,"s":"x"}"# + "\n" + #"{"id":9,"s":"z"}"# + "\n")
    }

    /// A key that becomes one `int` gives the rows their keys as ids: the links to them, which
    /// hold the old ids, are removed as a change that loses data rather than left pointing at
    /// other rows.
    @Test func aKeyThatBecomesOneIntRemovesTheLinksToItsRows() throws {
        let workspace = try Workspace(mappings: Self.keyed("[id, s]"))
        try workspace.importing(
            #"[{"id": 1, "as": [{"id": 7, "s": "x", "next": [5, "y"]}, {"id": 5, "s": "y"}]}]"#, as: "B", file: "b.json")
        let single = try write(Self.keyed("id"), workspace, folder: "Single")
        let refused = try workspace.run(["--mappings", single, "migrate"])
        #expect(refused.exitCode == 1, "\(refused)")
        #expect(refused.stdout.contains("! remove the links of A.next (the rows of A take their keys as ids)"), "\(refused)")
        #expect(refused.stdout.contains("! remove the links of B.as (the rows of A take their keys as ids)"), "\(refused)")
        #expect(try workspace.run(["--mappings", single, "migrate", "--allow-data-loss"]).exitCode == 0)
        #expect(try workspace.run(["--mappings", single, "query", "B", "--format", "jsonl"]).stdout == #"{"id":1,"as":[]}"# + "\n")
        #expect(try workspace.run(["--mappings", single, "query", "A", "--format", "jsonl"]).stdout
            == #"{"id":5,"s":"y","next":null}"# + "\n" + #"{"id":7,"s":"x","next":null}"# + "\n")
        try workspace.write(#"[{"id": 1, "as": [{"id": 7, "s": "x", "next": 5}, {"id": 5, "s": "y"}]}]"#, to: "b2.json")
        #expect(try workspace.run(["--mappings", single, "import", "B", "b2.json", "--quiet"]).exitCode == 0)
        #expect(try workspace.run(["--mappings", single, "query", "B", "--format", "jsonl"]).stdout == #"{"id":1,"as":[7,5]}"# + "\n")
        #expect(try workspace.run(["--mappings", single, "query", "A", "--id", "7", "--fields", "next", "--format", "jsonl"]).stdout
            == #"{"next":5}"# + "\n")
    }

    /// A with attributes of the types `types` gives, keyed by `key` of type `keyType`.
    private static func typed(key keyType: String = "int", _ types: [(String, String)]) -> [String: String] {
        let attributes = types.map { "      \($0.0): \($0.1)\n" }.joined()
        return ["m.yml": "entities:\n  A:\n    primaryKey: id\n    attributes:\n      id: \(keyType)\n" + attributes]
    }

    /// A retyped attribute keeps each value an import of its exported form would accept, converted
    /// alike on every store (SQLite copied by its column affinity, PostgreSQL cast or failed); the
    /// others become null. SQLite keeps `bool` and `int` in one column type: the change is listed
    /// there too.
    @Test func aRetypedAttributeKeepsTheValuesThatConvertAlikeOnEveryStore() throws {
        let before: [(String, String)] = [("s", "string"), ("b", "int"), ("d", "date"), ("u", "string"), ("l", "\"[int]\"")]
        let workspace = try Workspace(mappings: Self.typed(before))
        try workspace.importing(
            #"[{"id": 1, "s": "12", "b": 1, "d": "2024-01-02T03:04:05.25Z", "u": "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", "l": [1, 2]},"#
                + #" {"id": 2, "s": "x", "b": 7, "d": null, "u": "nope", "l": []}]"#, as: "A", file: "a.json")
        let after: [(String, String)] = [("s", "int"), ("b", "bool"), ("d", "string"), ("u", "uuid"), ("l", "\"[string]\"")]
        let retyped = try write(Self.typed(after), workspace, folder: "Retyped")
        let plan = """
            Changes between the store and the mappings:
              ! change the type of A.b from int to bool
              ! change the type of A.d from date to string
              ! change the type of A.l from [int] to [string]
              ! change the type of A.s from string to int
              ! change the type of A.u from string to uuid
            Applied 5 changes.

            """
        #expect(try workspace.run(["--mappings", retyped, "migrate", "--allow-data-loss"]) == CLIResult(exitCode: 0, stdout: plan, stderr: ""))
        #expect(try workspace.run(["--mappings", retyped, "query", "A", "--format", "jsonl"]).stdout == """
            {"id":1,"s":12,"b":true,"d":"2024-01-02T03:04:05.25Z","u":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","l":["1","2"]}
            {"id":2,"s":null,"b":null,"d":null,"u":null,"l":[]}

            """)
        #expect(try workspace.run(["--mappings", retyped, "migrate"]).stdout == "The store matches the mappings.\n")
    }

    /// A key or `required` attribute cannot become null: a value of it that does not take the new
    /// type, or two keys that become one, fail the migration in the same words on every store,
    /// with nothing applied; keys that convert keep their rows.
    @Test func aRetypedKeyKeepsItsRowsOrFailsNamingWhy() throws {
        let workspace = try Workspace(mappings: Self.typed(key: "string", [("r", "{ type: string, required: true }")]))
        try workspace.importing(#"[{"id": "12", "r": "1"}, {"id": "7", "r": "x"}]"#, as: "A", file: "a.json")
        let intKey = try write(Self.typed([("r", "{ type: string, required: true }")]), workspace, folder: "IntKey")
        let migrated = try workspace.run(["--mappings", intKey, "migrate", "--allow-data-loss"])
        #expect(migrated.exitCode == 0, "\(migrated)")
        #expect(migrated.stdout.contains("! change the type of A.id from string to int"), "\(migrated)")
        #expect(try workspace.run(["--mappings", intKey, "query", "A", "--format", "jsonl"]).stdout
            == #"{"id":7,"r":"x"}"# + "\n" + #"{"id":12,"r":"1"}"# + "\n")

        let other = try Workspace(mappings: Self.typed(key: "string", [("r", "{ type: string, required: true }")]))
        try other.importing(#"[{"id": "12", "r": "1"}, {"id": "x", "r": "2"}]"#, as: "A", file: "a.json")
        let notInt = try write(Self.typed([("r", "{ type: string, required: true }")]), other, folder: "IntKey")
        #expect(try other.run(["--mappings", notInt, "migrate", "--allow-data-loss"]) == CLIResult(
            exitCode: 1, stdout: "",
            stderr: #"error: a value of A.id does not take its new type (expected int, found string "x"), and id is part of the key"# + "\n"))
        let requiredInt = try write(Self.typed([("r", "{ type: int, required: true }")]), workspace, folder: "RequiredInt")
        #expect(try workspace.run(["--mappings", requiredInt, "migrate", "--allow-data-loss"]).stderr
            == #"error: a value of A.r does not take its new type (expected int, found string "x"), and r is required"# + "\n")
        #expect(try workspace.run(["--mappings", intKey, "query", "A", "--format", "jsonl"]).stdout
            == #"{"id":7,"r":"x"}"# + "\n" + #"{"id":12,"r":"1"}"# + "\n")

        let twice = try Workspace(mappings: Self.typed(key: "string", []))
        try twice.importing(#"[{"id": "12"}, {"id": "012"}]"#, as: "A", file: "a.json")
        let same = try write(Self.typed([]), twice, folder: "IntKey")
        #expect(try twice.run(["--mappings", same, "migrate", "--allow-data-loss"]) == CLIResult(
            exitCode: 1, stdout: "",
            stderr: "error: rows of A hold the same key once their values take the types the mappings now give them\n"))
        #expect(try twice.run(["query", "A", "--format", "jsonl"]).stdout == #"{"id":"012"}"# + "\n" + #"{"id":"12"}"# + "\n")
    }

    /// A column that turns from an attribute into a link (or back) holds values that mean
    /// something else: the change is listed on every store (SQLite's column declares its
    /// reference, PostgreSQL's does not) and its values are not carried over.
    @Test func anAttributeThatBecomesALinkIsListedAndClearedOnEveryStore() throws {
        let workspace = try Workspace(mappings: ["m.yml": "entities:\n  U:\n    primaryKey: login\n    attributes: { login: string, boss: int }\n"])
        try workspace.importing(#"[{"login": "a", "boss": 2}, {"login": "b", "boss": 1}]"#, as: "U", file: "u.json")
        let linked = try write(
            ["m.yml": "entities:\n  U:\n    primaryKey: login\n    attributes: { login: string }\n    relationships:\n      boss: { to: U, kind: one }\n"],
            workspace, folder: "Linked")
        let refused = try workspace.run(["--mappings", linked, "migrate"])
        #expect(refused.exitCode == 1, "\(refused)")
        #expect(refused.stdout.contains("  ! change column U.boss from an attribute to a link\n"), "\(refused)")
        #expect(try workspace.run(["--mappings", linked, "migrate", "--allow-data-loss"]).exitCode == 0)
        #expect(try workspace.run(["--mappings", linked, "query", "U", "--format", "jsonl"]).stdout
            == #"{"login":"a","boss":null}"# + "\n" + #"{"login":"b","boss":null}"# + "\n")
    }

    /// A distributed entity's tenant is held by its link tables too: its type cannot change,
    /// on any store, and nothing is applied.
    @Test func theTypeOfATenantCannotChange() throws {
        let mapping = """
            entities:
              Member:
                primaryKey: id
                distribution: { key: orgId }
                attributes: { id: int, orgId: string }
                relationships:
                  tags: { to: Tag, kind: many }
              Tag:
                primaryKey: name
                attributes: { name: string }
            """
        let workspace = try Workspace(mappings: ["m.yml": mapping])
        try workspace.importing(#"[{"id": 1, "orgId": "7", "tags": [{"name": "x"}]}]"#, as: "Member", file: "m.json")
        let before = try workspace.run(["query", "Member", "--format", "jsonl"])
        let retyped = try write(["m.yml": mapping.replacingOccurrences(of: "orgId: string", with: "orgId: int")], workspace, folder: "Retyped")
        #expect(try workspace.run(["--mappings", retyped, "migrate", "--allow-data-loss"]) == CLIResult(
            exitCode: 1, stdout: "",
            stderr: "error: the type of Member.orgId cannot change: it is the tenant of the distributed entity Member, which its links hold too\n"))
        #expect(try workspace.run(["query", "Member", "--format", "jsonl"]) == before)
    }

    @Test func migrateOnAMissingStoreIsAStoreError() throws {
        let workspace = try Workspace()
        let result = try workspace.run(["migrate"])
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: store '"), "\(result)")
        #expect(try !workspace.hasStore())
    }
}
