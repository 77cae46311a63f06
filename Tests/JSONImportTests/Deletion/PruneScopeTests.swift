import Foundation
import Testing
@testable import JSONImport

/// `ImportOptions.pruneScope`: prune only the root rows a filter selects, evaluated once the
/// import's records are applied.
@Suite struct PruneScopeTests {
    @Test func onlyRowsInTheScopeArePruned() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1, "login": "ana"}, {"id": 2, "login": "al"}, {"id": 3, "login": "bo"}]"#, as: "User")
        let report = try mapper.importJSON(
            #"[{"id": 1, "login": "ana"}]"#, as: "User", options: .init(prune: true, pruneScope: "login LIKE 'a%'", explain: true))
        #expect(report.deletions?.map { "\($0.entity) \($0.key[0]) \($0.reason)" } == ["User 2 prune"])
        #expect(try mapper.texts("User", "id", orderedBy: "id") == ["1", "3"])
    }

    @Test func theScopeIsEvaluatedOnceTheRecordsAreApplied() throws {
        // User 2 owned repo x until user 1's record claimed it: by then user 2 is out of scope.
        let mapper = try makeMapper()
        try mapper.importJSON(
            #"[{"id": 1}, {"id": 2, "repos": [{"id": 5, "name": "x"}]}, {"id": 3, "repos": [{"id": 6, "name": "y"}]}]"#, as: "User")
        let report = try mapper.importJSON(
            #"[{"id": 1, "repos": [{"id": 5, "name": "x"}]}]"#, as: "User", options: .init(prune: true, pruneScope: "repos.name = 'x'"))
        #expect(report.counts(for: "User").deleted == 0)
        #expect(try mapper.texts("User", "id", orderedBy: "id") == ["1", "2", "3"])
        #expect(try mapper.storedLinks("User.repos") == [[.integer(1), .integer(5)], [.integer(3), .integer(6)]])
    }

    @Test func aDistributedEntityIsPrunedInTheTenantsOfTheRecordsAndTheScope() throws {
        let yaml = """
            entities:
              Member:
                primaryKey: id
                distribution: { key: orgId }
                attributes: { orgId: { type: int, key: org_id }, id: int, login: string }
            """
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(
            #"[{"org_id": 1, "id": 1, "login": "ann"}, {"org_id": 1, "id": 2, "login": "abe"}, {"org_id": 1, "id": 3, "login": "bob"}, {"org_id": 2, "id": 4, "login": "amy"}]"#,
            as: "Member")
        let report = try mapper.importJSON(
            #"[{"org_id": 1, "id": 1, "login": "ann"}]"#, as: "Member", options: .init(prune: true, pruneScope: "login LIKE 'a%'"))
        #expect(report.counts(for: "Member").deleted == 1)
        #expect(try mapper.texts("Member", "id", orderedBy: "id") == ["1", "3", "4"])
    }

    @Test func aScopeWithoutPruneOrWithAnUnknownNameIsRefusedBeforeAnyWork() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1}]"#, as: "User")
        let alone = #expect(throws: ImportError.self) {
            try mapper.importJSON("[]", as: "User", options: .init(pruneScope: "id = 1"))
        }
        #expect(alone?.code == .usage)
        #expect(alone?.message == "a prune scope applies only with prune")
        let unknown = #expect(throws: ImportError.self) {
            try mapper.importJSON("[]", as: "User", options: .init(prune: true, pruneScope: "nickname = 'a'"))
        }
        #expect(unknown?.code == .usage && unknown?.message == "prune scope: invalid filter: User has no field 'nickname'")
        #expect(try mapper.texts("User", "id", orderedBy: "id") == ["1"])
    }
}
