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
        #expect(result.stdout.contains(#"  ! change column User.score from '"score" REAL' to '"score" TEXT'"#), "\(result)")
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

    @Test func migrateOnAMissingStoreIsAStoreError() throws {
        let workspace = try Workspace()
        let result = try workspace.run(["migrate"])
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: store '"), "\(result)")
        #expect(try !workspace.hasStore())
    }
}
