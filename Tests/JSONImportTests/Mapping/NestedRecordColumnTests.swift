import Foundation
import Testing

@testable import JSONImport

/// A record's nested records are imported before the record's own row is written; what they
/// change in that row's link columns is kept where the record itself gives no value.
@Suite struct NestedRecordColumnTests {
    private let yaml = """
        entities:
          User:
            primaryKey: id
            attributes:
              id: int
            relationships:
              profile: { to: Profile, kind: one }
              bestFriend: { to: User, kind: one, key: best_friend }
              address: { to: Address, kind: one }
          Profile:
            primaryKey: id
            attributes:
              id: string
            relationships:
              user: { to: User, kind: one, inverse: profile }
          Address:
            attributes:
              city: string
        """

    @Test func aNestedRecordTakingTheOuterRowsOneToOneTargetKeepsIt() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 1, "profile": "p"}, {"id": 2}]"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 1, "best_friend": {"id": 2, "profile": "p"}}"#, as: "User")
        #expect(try mapper.storedRows("User", "id", "profile", "bestFriend", orderedBy: "id") == [
            [.integer(1), .null, .integer(2)], [.integer(2), .integer(1), .null],
        ])
        #expect(report.counts(for: "User").list == [0, 2, 0, 0])
    }

    @Test func aNestedOccurrenceOfTheSameRowSetsALinkTheOuterRecordLeavesOut() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"{"id": 1, "address": {"city": "Oslo"}}"#, as: "User")
        try mapper.importJSON(#"{"id": 1, "best_friend": {"id": 1, "address": null}}"#, as: "User")
        #expect(try mapper.storedRows("User", "id", "address", "bestFriend") == [[.integer(1), .null, .integer(1)]])
    }
}
