import Foundation
import Testing
@testable import JSONImport

/// Documents of `JSONParser.ParseAhead.default.fromSize` and more are parsed on a worker thread, handed to
/// the import in batches: the same results and errors as for small documents.
@Suite struct StreamedDocumentTests {
    static let users = 40_000

    /// `count` user records (over 1 MB, several batches), `bad` ones with a score that is not a number.
    static func records(_ count: Int = users, bad: Set<Int> = []) -> String {
        (0..<count).map { i in
            #"{"id": \#(i + 1), "login": "user-\#(i)", "score": \#(bad.contains(i) ? #""x""# : "1.5")}"#
        }.joined(separator: ",\n")
    }

    func expectFailure(_ code: ImportError.Code, _ message: String, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.code == code && error.message.contains(message)
        }
    }

    @Test func aLargeArrayImportsEveryRecordInOrder() throws {
        let mapper = try makeMapper()
        let payload = "[" + Self.records() + "]"
        #expect(payload.utf8.count >= JSONParser.ParseAhead.default.fromSize)
        // The rows of the root records, kept as for `map`, in payload order.
        let report = try mapper.importSources(
            [.data(Data(payload.utf8), name: "<data>")], as: "User", options: .default, keepingRootRows: true)
        #expect(report.records == Self.users)
        #expect(report.counts(for: "User").list == [Self.users, 0, 0, 0])
        #expect(report.rootRows == Array(1...Int64(Self.users)))
        let matching = try mapper.storedRows("User", "id", "login").compactMap { row -> Int64? in
            guard case .integer(let id) = row[0], row[1] == .text("user-\(id - 1)") else { return nil }
            return id
        }
        #expect(matching.count == Self.users && matching.min() == 1 && matching.max() == Int64(Self.users))
    }

    @Test func skippedRecordsKeepTheirIndexAcrossBatches() throws {
        let mapper = try makeMapper()
        let bad: Set<Int> = [3, 17_000, 39_999]
        let report = try mapper.importJSON("[" + Self.records(bad: bad) + "]", as: "User", options: .init(onError: .skip))
        #expect(report.skipped == 3)
        #expect(report.errors.map(\.path) == ["$[3].score", "$[17000].score", "$[39999].score"])
        #expect(try mapper.rowCount("User") == Self.users - 3)
    }

    @Test func aSyntaxErrorAtTheEndWinsOverAnEarlierRecordError() throws {
        let mapper = try makeMapper()
        let payload = "[" + Self.records(bad: [5]) + ",]"
        expectFailure(.invalidJSON, "invalid JSON") { try mapper.importJSON(payload, as: "User") }
        #expect(try mapper.rowCount("User") == 0)
    }

    @Test func aSyntaxErrorAtTheEndLeavesTheStoreAsItWas() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "login": "before"}"#, as: "User")
        let payload = "[" + Self.records() + "\n"
        expectFailure(.invalidJSON, ":40001:") { try mapper.importJSON(payload, as: "User", options: .init(onError: .skip)) }
        #expect(try mapper.storedRows("User", "id", "login") == [[.integer(1), .text("before")]])
    }

    @Test func aRootPathLeadsToTheRecordsAndTheRestIsStillValidated() throws {
        let mapper = try makeMapper()
        let records = Self.records()
        let good = #"{"meta": {"page": 1}, "data": {"items": [\#(records)]}, "after": [1, {"x": true}]}"#
        let report = try mapper.importJSON(good, as: "User", options: .init(root: "data.items"))
        #expect(report.records == Self.users)
        let broken = #"{"meta": {"page": 1}, "data": {"items": [\#(records)]}, "after": [1, 2,]}"#
        expectFailure(.invalidJSON, "invalid JSON") {
            try makeMapper().importJSON(broken, as: "User", options: .init(root: "data.items"))
        }
        let repeated = #"{"data": {"items": [\#(records)]}, "data": 1}"#
        expectFailure(.invalidJSON, "duplicate key") {
            try makeMapper().importJSON(repeated, as: "User", options: .init(root: "data.items"))
        }
    }

    @Test func aRootPathThatIsNotThereOrNotRecordsIsNamed() throws {
        let payload = #"{"data": {"items": [\#(Self.records())]}}"#
        expectFailure(.invalidRecord, "the root key path 'data.rows' is not in the payload") {
            try makeMapper().importJSON(payload, as: "User", options: .init(root: "data.rows"))
        }
        let scalar = #"{"data": {"items": "none"}, "padding": [\#(Self.records())]}"#
        expectFailure(.invalidRecord, #"expected an object or an array of records at $.data.items, found string"#) {
            try makeMapper().importJSON(scalar, as: "User", options: .init(root: "data.items"))
        }
    }

    @Test func theDeepestNestingAllowedParsesOnTheWorkerThread() throws {
        let mapper = try makeMapper()
        let depth = ImportOptions.maximumDepthLimit - 2
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let payload = "[" + Self.records() + #", {"id": 999999, "extra": \#(deep)}]"#
        let report = try mapper.importJSON(payload, as: "User", options: .init(maxDepth: ImportOptions.maximumDepthLimit))
        #expect(report.records == Self.users + 1)
    }

    @Test func aLargeSingleObjectIsOneRecord() throws {
        let mapper = try makeMapper()
        let topics = (0..<100_000).map { #""topic-\#($0)""# }.joined(separator: ",")
        let report = try mapper.importJSON(#"{"id": 7, "login": "big", "topics": [\#(topics)]}"#, as: "User")
        #expect(report.records == 1)
        #expect(try mapper.storedRows("User", "login") == [[.text("big")]])
    }
}
