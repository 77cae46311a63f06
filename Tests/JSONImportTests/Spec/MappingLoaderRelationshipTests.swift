import Testing

@testable import JSONImport

/// SPEC 1.3: relationship keys, forward and back sides, and link storage.
@Suite struct MappingLoaderRelationshipTests {
    /// `User` (key `id`) with the given relationship lines, plus `Team` (key `id`) with its own.
    private func twoEntities(user: [String], team: [String] = []) -> String {
        var yaml = "entities:\n  User:\n    primaryKey: id\n    attributes: {id: int}\n"
        if !user.isEmpty { yaml += "    relationships:\n" + user.map { "      \($0)\n" }.joined() }
        yaml += "  Team:\n    primaryKey: id\n    attributes: {id: int}\n"
        if !team.isEmpty { yaml += "    relationships:\n" + team.map { "      \($0)\n" }.joined() }
        return yaml
    }

    @Test func relationshipOptionsAreRead() throws {
        let spec = try MappingSpec.load(
            yaml: twoEntities(user: [
                "team: {to: Team, kind: one, key: org.team_id, by: id, onDelete: deny, missing: skip}",
                "friends: {to: User, kind: many, by: object, policy: append, onDelete: cascade, missing: error}",
            ]))
        let user = try #require(spec.entity(named: "User"))
        let team = try #require(user.relationship(named: "team"))
        #expect(team.target == "Team" && team.kind == .one && team.key.segments == ["org", "team_id"])
        #expect(team.by == .id && team.onDelete == .deny && team.missing == .skip && team.policy == .replace)
        let friends = try #require(user.relationship(named: "friends"))
        #expect(
            friends.by == .object && friends.policy == .append && friends.onDelete == .cascade
                && friends.missing == .error)
        #expect(friends.isForward && friends.key.segments == ["friends"])
    }

    @Test func toAndKindAreRequired() {
        #expect(
            loadErrors(twoEntities(user: ["team: {kind: one}", "teams: {to: Team}", "owner: Team"])) == [
                "m.yml:6:7: error: relationship 'User.team' has no 'to'",
                "m.yml:7:7: error: relationship 'User.teams' has no 'kind' (one or many)",
                "m.yml:8:14: error: expected a mapping for relationship 'User.owner' (with 'to' and 'kind'), found string \"Team\"",
            ])
    }

    @Test func targetMustBeAnEntityOfAnyFile() throws {
        _ = try MappingSpec.load(files: [
            (
                "a.yml",
                "entities:\n  User:\n    attributes: {id: int}\n    relationships:\n      team: {to: Team, kind: one}\n"
            ),
            ("b.yml", "entities:\n  Team:\n    primaryKey: id\n    attributes: {id: int}\n"),
        ])
        #expect(
            renderedError(twoEntities(user: ["team: {to: Teem, kind: one}"])) == """
                m.yml:6:18: error: unknown entity 'Teem' (did you mean 'Team'?)
                      team: {to: Teem, kind: one}
                                 ^
                """)
    }

    @Test func optionValuesMustBeKnown() {
        #expect(
            loadErrors(
                twoEntities(user: ["team: {to: Team, kind: single, by: ids, onDelete: cascde, missing: ignore}"])) == [
                    "m.yml:6:30: error: invalid kind 'single' (expected one of: one, many)",
                    "m.yml:6:42: error: invalid by 'ids' (did you mean 'id'?)",
                    "m.yml:6:57: error: invalid onDelete 'cascde' (did you mean 'cascade'?)",
                    "m.yml:6:74: error: invalid missing 'ignore' (expected one of: stub, skip, error)",
                ])
        #expect(
            loadErrors(twoEntities(user: ["teams: {to: Team, kind: many, policy: merge}"])) == [
                "m.yml:6:45: error: invalid policy 'merge' (expected one of: replace, append)"
            ])
    }

    @Test func policyIsForManyRelationships() {
        #expect(
            loadErrors(twoEntities(user: ["team: {to: Team, kind: one, policy: append}"])) == [
                "m.yml:6:35: error: 'policy' applies only to 'many' relationships ('User.team' is 'one')"
            ])
    }

    @Test func unknownRelationshipKeysSuggestTheClosest() {
        #expect(
            loadErrors(twoEntities(user: ["team: {to: Team, kind: one, ondelete: cascade}"])) == [
                "m.yml:6:35: error: unknown key 'ondelete' in relationship 'User.team' (did you mean 'onDelete'?)"
            ])
    }

    @Test func byIdCannotReachAnOwnedEntity() throws {
        let owned = "  Address:\n    attributes: {street: string}\n"
        _ = try MappingSpec.load(yaml: twoEntities(user: ["home: {to: Address, kind: one, by: object}"]) + owned)
        _ = try MappingSpec.load(yaml: twoEntities(user: ["home: {to: Address, kind: one}"]) + owned)
        #expect(
            loadErrors(twoEntities(user: ["home: {to: Address, kind: one, by: id}"]) + owned) == [
                "m.yml:6:42: error: 'by: id' cannot reference owned entity 'Address' (it has no primaryKey); use 'by: object'"
            ])
    }

    @Test func forwardManyWithBackOneStoresAColumnOnTheTarget() throws {
        let spec = try MappingSpec.load(
            yaml: twoEntities(
                user: ["team: {to: Team, kind: one, inverse: members}"], team: ["members: {to: User, kind: many}"]))
        #expect(
            spec.links == [
                Link(
                    source: "Team", forward: "members", target: "User", back: "team",
                    storage: .foreignKey(table: "User", column: "team", onSource: false, isUnique: false))
            ])
        #expect(spec.entity(named: "User")?.relationship(named: "team")?.linkIndex == 0)
        #expect(spec.entity(named: "Team")?.relationship(named: "members")?.linkIndex == 0)
        #expect(spec.link(of: "User", "team")?.qualifiedName == "Team.members")
    }

    @Test func forwardOneStoresAColumnOnTheSourceUniqueForOneToOne() throws {
        let oneToOne = try MappingSpec.load(
            yaml: twoEntities(
                user: ["team: {to: Team, kind: one}"], team: ["leader: {to: User, kind: one, inverse: team}"]))
        #expect(
            oneToOne.links.map(\.storage) == [
                .foreignKey(table: "User", column: "team", onSource: true, isUnique: true)
            ])
        let oneToMany = try MappingSpec.load(
            yaml: twoEntities(
                user: ["team: {to: Team, kind: one}"], team: ["members: {to: User, kind: many, inverse: team}"]))
        #expect(
            oneToMany.links.map(\.storage) == [
                .foreignKey(table: "User", column: "team", onSource: true, isUnique: false)
            ])
        let alone = try MappingSpec.load(yaml: twoEntities(user: ["team: {to: Team, kind: one}"]))
        #expect(
            alone.links == [
                Link(
                    source: "User", forward: "team", target: "Team", back: nil,
                    storage: .foreignKey(table: "User", column: "team", onSource: true, isUnique: false))
            ])
    }

    @Test func forwardManyWithBackManyOrNoneUsesALinkTable() throws {
        let manyToMany = try MappingSpec.load(
            yaml: twoEntities(
                user: ["teams: {to: Team, kind: many}"], team: ["members: {to: User, kind: many, inverse: teams}"]))
        #expect(
            manyToMany.links == [
                Link(
                    source: "User", forward: "teams", target: "Team", back: "members",
                    storage: .linkTable(name: "User_teams"))
            ])
        let yaml =
            "entities:\n  User:\n    table: users\n    primaryKey: id\n    attributes: {id: int}\n    relationships:\n      followers: {to: User, kind: many}\n"
        let alone = try MappingSpec.load(yaml: yaml)
        #expect(alone.links.map(\.storage) == [.linkTable(name: "users_followers")])
    }

    @Test func linksFollowDeclarationOrderAndBackSidesShareThem() throws {
        let spec = try MappingSpec.load(
            yaml: twoEntities(
                user: ["team: {to: Team, kind: one, inverse: members}", "boss: {to: User, kind: one}"],
                team: ["members: {to: User, kind: many}", "parent: {to: Team, kind: one}"]))
        #expect(spec.links.map(\.qualifiedName) == ["User.boss", "Team.members", "Team.parent"])
        #expect(spec.entity(named: "User")?.relationships.map(\.linkIndex) == [1, 0])
        #expect(spec.entity(named: "Team")?.relationships.map(\.linkIndex) == [1, 2])
    }

    @Test func inverseMustNameARelationshipOfTheTarget() {
        #expect(
            loadErrors(
                twoEntities(
                    user: ["team: {to: Team, kind: one, inverse: member}"], team: ["members: {to: User, kind: many}"]))
                == [
                    "m.yml:6:44: error: inverse 'member' names no relationship of 'Team' (did you mean 'members'?)"
                ])
    }

    @Test func inverseMustPointBackToThisEntity() {
        let yaml = twoEntities(
            user: ["team: {to: Team, kind: one, inverse: parent}"], team: ["parent: {to: Team, kind: one}"])
        #expect(
            loadErrors(yaml) == [
                "m.yml:6:44: error: inverse 'parent' names 'Team.parent', which points to 'Team', not back to 'User'"
            ])
    }

    @Test func inverseDeclaredOnBothSidesIsReportedOnce() {
        let yaml = twoEntities(
            user: ["team: {to: Team, kind: one, inverse: members}"],
            team: ["members: {to: User, kind: many, inverse: team}"])
        #expect(
            loadErrors(yaml) == [
                "m.yml:11:48: error: 'User.team' and 'Team.members' both declare 'inverse'; only the back side may declare it"
            ])
    }

    @Test func inverseCannotNameAnotherBackSide() {
        let yaml = twoEntities(
            user: ["teams: {to: Team, kind: many}", "team: {to: Team, kind: one, inverse: members}"],
            team: ["members: {to: User, kind: many, inverse: teams}"])
        #expect(
            loadErrors(yaml) == [
                "m.yml:7:44: error: inverse 'members' names 'Team.members', which is itself a back side (inverse: teams)"
            ])
    }

    @Test func twoBackSidesCannotShareAForwardRelationship() {
        let yaml = twoEntities(
            user: ["team: {to: Team, kind: one, inverse: members}", "club: {to: Team, kind: one, inverse: members}"],
            team: ["members: {to: User, kind: many}"])
        #expect(
            renderedError(yaml) == """
                m.yml:7:44: error: 'Team.members' already has back side 'User.team' (inverse at m.yml:6:44); a forward relationship has at most one back side
                      club: {to: Team, kind: one, inverse: members}
                                                           ^
                """)
    }

    @Test func relationshipCannotBeItsOwnInverse() {
        #expect(
            loadErrors(twoEntities(user: ["friends: {to: User, kind: many, inverse: friends}"])) == [
                "m.yml:6:48: error: relationship 'User.friends' cannot be its own inverse"
            ])
    }

    @Test func selfReferencingPairsAreValid() throws {
        let spec = try MappingSpec.load(
            yaml: twoEntities(user: [
                "following: {to: User, kind: many}", "followers: {to: User, kind: many, inverse: following}",
            ]))
        #expect(
            spec.links == [
                Link(
                    source: "User", forward: "following", target: "User", back: "followers",
                    storage: .linkTable(name: "User_following"))
            ])
        #expect(spec.entity(named: "User")?.relationship(named: "followers")?.isForward == false)
    }
}
