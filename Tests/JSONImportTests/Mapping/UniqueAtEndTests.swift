import Foundation
import Testing
@testable import JSONImport

private let reposYAML = """
    entities:
      Repo:
        primaryKey: id
        attributes:
          id: int
          name: { type: string, unique: true }
          slug: { type: string, unique: true }
        relationships:
          topics: { to: Topic, kind: many }
      Topic:
        primaryKey: name
        attributes:
          name: string
    """

/// `unique` holds when the import ends, not after each record: values may move between rows
/// within one import, and a duplicate left at the end is the later record's error.
@Suite struct UniqueAtEndTests {
    let mapper: Mapper

    init() throws {
        mapper = try Mapper(spec: MappingSpec.load(yaml: reposYAML, file: "test.yml"), store: TestStore.fresh())
        try mapper.importJSON(#"[{"id": 1, "name": "a", "slug": "s1"}, {"id": 2, "name": "b", "slug": "s2"}]"#, as: "Repo")
    }

    private func names() throws -> [[StoredValue]] {
        try mapper.storedRows("Repo", "id", "name", orderedBy: "id")
    }

    private func failure(_ json: String) -> ImportIssue? {
        do {
            try mapper.importJSON(json, as: "Repo")
            return nil
        } catch let error as ImportError {
            return error.report.errors.first
        } catch {
            return ImportIssue(file: nil, record: nil, path: "", message: "\(error)")
        }
    }

    @Test func twoRowsMaySwapUniqueValues() throws {
        let report = try mapper.importJSON(#"[{"id": 1, "name": "b"}, {"id": 2, "name": "a"}]"#, as: "Repo")
        #expect(report.counts(for: "Repo").list == [0, 2, 0, 0])
        #expect(try names() == [[.integer(1), .text("b")], [.integer(2), .text("a")]])
    }

    @Test func valuesMayRotateThroughNewAndOldRows() throws {
        let report = try mapper.importJSON(
            #"[{"id": 3, "name": "a", "slug": "s2"}, {"id": 1, "name": "c", "slug": "s3"}, {"id": 2, "name": "b", "slug": "s1"}]"#,
            as: "Repo")
        #expect(report.counts(for: "Repo").list == [1, 2, 0, 0])
        #expect(try mapper.storedRows("Repo", "id", "name", "slug", orderedBy: "id") == [
            [.integer(1), .text("c"), .text("s3")], [.integer(2), .text("b"), .text("s1")], [.integer(3), .text("a"), .text("s2")],
        ])
    }

    @Test func aValueGivenUpLaterInTheImportIsFree() throws {
        try mapper.importJSON(#"[{"id": 3, "name": "a"}, {"id": 1, "name": null}]"#, as: "Repo")
        #expect(try names() == [[.integer(1), .null], [.integer(2), .text("b")], [.integer(3), .text("a")]])
    }

    @Test func aLaterValueForTheSameRowReplacesTheOneWaiting() throws {
        try mapper.importJSON(#"[{"id": 3, "name": "a"}, {"id": 3, "name": "c"}]"#, as: "Repo")
        #expect(try names() == [[.integer(1), .text("a")], [.integer(2), .text("b")], [.integer(3), .text("c")]])
    }

    @Test func aValueHeldByARowTheImportLeavesAloneIsTheRecordsError() throws {
        let issue = failure(#"[{"id": 3, "name": "z"}, {"id": 4, "topics": [{"name": "t"}], "name": "a"}]"#)
        #expect(issue == ImportIssue(
            file: "<data>", record: 1, path: "$[1].name",
            message: #"'name' must be unique: "a" (key 'name') is also held by Repo 1"#))
        #expect(try names() == [[.integer(1), .text("a")], [.integer(2), .text("b")]])
        #expect(try mapper.rowCount("Topic") == 0)
    }

    @Test func twoRecordsGivingOneValueFailOnTheLaterOne() throws {
        let issue = failure(#"[{"id": 5, "slug": "x"}, {"id": 6, "slug": "y"}, {"id": 7, "slug": "x"}]"#)
        #expect(issue == ImportIssue(
            file: "<data>", record: 2, path: "$[2].slug",
            message: #"'slug' must be unique: "x" (key 'slug') is also held by Repo 5"#))
    }

    @Test func aRecordTakingAValueAnotherWaitedForIsTheLaterOne() throws {
        // Repo 3 waits for "a" (Repo 1 holds it); Repo 1 gives it up; Repo 4 takes it after.
        let issue = failure(#"[{"id": 3, "name": "a"}, {"id": 1, "name": "z"}, {"id": 4, "name": "a"}]"#)
        #expect(issue == ImportIssue(
            file: "<data>", record: 2, path: "$[2].name",
            message: #"'name' must be unique: "a" (key 'name') is also held by Repo 3"#))
        #expect(try names() == [[.integer(1), .text("a")], [.integer(2), .text("b")]])
    }

    @Test func everyRowWaitingForAValueFindsTheRecordThatTookIt() throws {
        // Repos 3 and 4 wait for "a" (Repo 1 holds it); Repo 1 gives it up; Repo 5 takes it:
        // the rival of both, so the first error is Repo 5's record, against the first waiting.
        let issue = failure(#"[{"id": 3, "name": "a"}, {"id": 4, "name": "a"}, {"id": 1, "name": "z"}, {"id": 5, "name": "a"}]"#)
        #expect(issue == ImportIssue(
            file: "<data>", record: 3, path: "$[3].name",
            message: #"'name' must be unique: "a" (key 'name') is also held by Repo 3"#))
        #expect(try names() == [[.integer(1), .text("a")], [.integer(2), .text("b")]])
    }

    @Test func aValueGivenUpByARecordLeftOutIsStillHeld() throws {
        // Record 2 gives "a" up, then fails: left out, Repo 1 keeps "a", and every row that
        // waited for it, before the record or after, waits in vain.
        let payload = #"""
            [{"id": 3, "name": "a"}, {"id": 4, "name": "a"}, {"id": 1, "name": "z", "topics": [{"title": "no key"}]},
             {"id": 5, "name": "a"}]
            """#
        let report = try mapper.importJSON(payload, as: "Repo", options: .init(onError: .skip))
        #expect(report.errors.map(\.record) == [0, 1, 2, 3])
        let held = #"'name' must be unique: "a" (key 'name') is also held by Repo 1"#
        #expect(report.errors.filter { $0.record != 2 }.map(\.message) == [held, held, held])
        #expect(try names() == [[.integer(1), .text("a")], [.integer(2), .text("b")]])
    }

    @Test func underSkipTheRecordAtFaultIsLeftOutWhole() throws {
        let payload = #"[{"id": 5, "slug": "x"}, {"id": 6, "slug": "x", "topics": [{"name": "t6"}]}, {"id": 1, "name": "b"}, {"id": 2, "name": "a"}]"#
        let report = try mapper.importJSON(payload, as: "Repo", options: .init(onError: .skip))
        #expect(report.records == 4)
        #expect(report.skipped == 1)
        #expect(report.errors == [ImportIssue(
            file: "<data>", record: 1, path: "$[1].slug",
            message: #"'slug' must be unique: "x" (key 'slug') is also held by Repo 5"#)])
        #expect(report.counts(for: "Repo").list == [1, 2, 0, 0])
        #expect(try names() == [[.integer(1), .text("b")], [.integer(2), .text("a")], [.integer(5), .null]])
        #expect(try mapper.rowCount("Topic") == 0)
    }

    @Test func skippingOneRecordMaySkipAnotherThatCountedOnIt() throws {
        // Without record 1, Repo 2 keeps "b", so record 0 cannot have it either.
        let payload = #"[{"id": 1, "name": "b"}, {"id": 2, "name": "a", "topics": [{"title": "no key"}]}]"#
        let report = try mapper.importJSON(payload, as: "Repo", options: .init(onError: .skip))
        #expect(report.errors.map(\.record) == [0, 1])
        #expect(try names() == [[.integer(1), .text("a")], [.integer(2), .text("b")]])
    }
}
