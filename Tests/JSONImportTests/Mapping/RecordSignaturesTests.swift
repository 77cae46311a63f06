import Foundation
import Synchronization
import Testing

@testable import JSONImport

/// Nested records recognised by their JSON bytes (``RecordSignatures``), alone and in imports.
@Suite struct RecordSignaturesTests {
    /// The values of `texts` parsed as the elements of one document.
    private func withValues(_ texts: [String], _ body: ([JSONValue]) -> Void) throws {
        let document = try JSONParser().parse(JSONInput("[" + texts.joined(separator: ",") + "]"))
        body(Array(document.root.elements))
    }

    @Test func onlyTheSameJSONIsRecognised() throws {
        let remembered = [#"{"a": [[1], 2]}"#, #"{"name": "x", "n": 1.0}"#, #"{"s": "a\"b"}"#, #"{"t": true, "u": null}"#]
        // Same bytes but for white space: recognised.
        let same = [#"{"a":[[1],2]}"#, #"{ "name" : "x" , "n" : 1.0 }"#, #"{"s":"a\"b"}"#, #"{"t":true,"u":null}"#]
        // Another nesting, number text, key order, string, type or key.
        let other = [
            #"{"a": [[1, 2]]}"#, #"{"name": "x", "n": 1}"#, #"{"n": 1.0, "name": "x"}"#, #"{"s": "a\"c"}"#,
            #"{"t": false, "u": null}"#, #"{"t": true, "v": null}"#, #"{"t": true, "u": "null"}"#, #"{"s": "a\"b", "x": 1}"#,
        ]
        try withValues(remembered + same + other) { values in
            var signatures = RecordSignatures(entities: 2, budget: 1 << 20)
            for (i, value) in values.prefix(remembered.count).enumerated() {
                signatures.remember(value, entity: 0, row: Int64(i + 1))
            }
            let found = values.dropFirst(remembered.count).map { signatures.row(of: $0, entity: 0) }
            #expect(found == [1, 2, 3, 4] + Array(repeating: nil, count: other.count))
            // Entities are apart.
            #expect(signatures.row(of: values[0], entity: 1) == nil)
        }
    }

    @Test func invalidatedEntitiesAndLargeRecordsAreNotRecognised() throws {
        let large = "{" + (0..<40).map { #""k\#($0)": \#($0)"# }.joined(separator: ",") + "}"
        let long = #"{"text": ""# + String(repeating: "x", count: RecordSignatures.maximumLength + 1) + #""}"#
        try withValues([#"{"a": 1}"#, #"{"b": 1}"#, large, long]) { values in
            var signatures = RecordSignatures(entities: 2, budget: 1 << 20)
            signatures.remember(values[0], entity: 0, row: 1)
            signatures.remember(values[1], entity: 1, row: 2)
            signatures.remember(values[2], entity: 0, row: 3)
            signatures.remember(values[3], entity: 0, row: 4)
            #expect(signatures.row(of: values[2], entity: 0) == nil)
            #expect(signatures.row(of: values[3], entity: 0) == nil)
            signatures.invalidate(0)
            #expect(signatures.row(of: values[0], entity: 0) == nil)
            #expect(signatures.row(of: values[1], entity: 1) == 2)
            // Remembered again, it counts again.
            signatures.remember(values[0], entity: 0, row: 5)
            #expect(signatures.row(of: values[0], entity: 0) == 5)
        }
    }

    @Test func manyRecordsArePastTheTableAndTheBudget() throws {
        let texts = (0..<5_000).map { #"{"name": "tag-\#($0)"}"# }
        try withValues(texts) { values in
            // Each table hashes with a seed of its own; long runs of full slots come with some
            // seeds, and must not lose an entry.
            for _ in 0..<100 {
                var signatures = RecordSignatures(entities: 1, budget: 1 << 20)
                for (i, value) in values.enumerated() { signatures.remember(value, entity: 0, row: Int64(i)) }
                #expect(values.indices.allSatisfy { signatures.row(of: values[$0], entity: 0) == Int64($0) })
            }
            // A small budget starts over: what is kept is still right.
            var small = RecordSignatures(entities: 1, budget: 64 << 10)
            for (i, value) in values.enumerated() { small.remember(value, entity: 0, row: Int64(i)) }
            let found = values.indices.filter { small.row(of: values[$0], entity: 0) != nil }
            #expect(!found.isEmpty && found.count < values.count)
            #expect(found.allSatisfy { small.row(of: values[$0], entity: 0) == Int64($0) })
        }
    }

    @Test func aValidationHookSeesEveryOccurrenceOfASharedRecord() throws {
        let mapper = try makeMapper()
        let seen = Mutex<[String]>([])
        try mapper.setValidator(for: "Tag") { record in seen.withLock { $0.append("\(record["name"]!)") } }
        let payload = #"[{"id": 1, "name": "a", "tags": [{"name": "x"}, {"name": "y"}]}, {"id": 2, "name": "b", "tags": [{"name": "x"}]}, {"id": 3, "name": "c", "tags": [{"name": "x"}]}]"#
        try mapper.importJSON(payload, as: "Repo")
        #expect(seen.withLock { $0.count } == 4)
    }

    @Test func aSkippedRecordTakesTheRowsItsSharedRecordsWroteWithIt() throws {
        let mapper = try makeMapper()
        // Tag x is inserted and recognised within user 1, which fails after it and is skipped:
        // user 2's tag x is inserted again, not taken for the row that went with user 1.
        let payload = #"""
            [{"id": 1, "repos": [{"id": 5, "name": "r", "tags": [{"name": "x"}]}, {"id": 6, "name": "s", "tags": [{"name": "x"}]}, {"id": "bad"}]},
             {"id": 2, "repos": [{"id": 7, "name": "t", "tags": [{"name": "x"}]}, {"id": 8, "name": "u", "tags": [{"name": "x"}]}]}]
            """#
        let report = try mapper.importJSON(payload, as: "User", options: .init(onError: .skip))
        #expect(report.counts(for: "Tag").inserted == 1)
        #expect(try mapper.storedRows("Tag", "name", orderedBy: "name") == [[.text("x")]])
        #expect(try mapper.storedLinks("Repo.tags").count == 2)
    }

    @Test func aSharedRecordGivingItsOwnLinksIsImportedEachTime() throws {
        let mapper = try makeMapper(LinkIndexTests.yaml)
        // Tag a gives its back side in repos 1 and 3: each time, its links are set again.
        let payload = #"[{"id": 1, "tags": [{"name": "a", "repos": [7]}]}, {"id": 2, "tags": [{"name": "a", "repos": [8]}]}, {"id": 3, "tags": [{"name": "a", "repos": [7]}]}]"#
        try mapper.importJSON(payload, as: "Repo")
        #expect(try mapper.storedLinks("Repo.tags").map { [$0[0]] } == [[.integer(3)], [.integer(7)]])
    }
}
