import Foundation
import Testing

@testable import JSONImport

/// An import without a root of a payload that wraps its records says where they are.
@Suite struct WrappedPayloadHintTests {
    private let yaml = """
        entities:
          User:
            primaryKey: id
            attributes: { id: int, login: string }
        """

    private func importError(_ json: String, options: ImportOptions = .default) throws -> ImportError {
        let mapper = try makeMapper(yaml)
        return try #require(throws: ImportError.self) { try mapper.importData(Data(json.utf8), as: "User", options: options) }
    }

    @Test func theErrorNamesTheKeyPathOfTheWrappedList() throws {
        let error = try importError(#"{"total_count": 1, "items": [{"id": 1, "login": "a"}]}"#)
        #expect(error.message == "<data>: record 0 at $.id: missing primary key 'id' (key 'id'); the payload wraps a list of records under 'items': import it with --root items, or give User 'root: items'")
        #expect(error.report.errors.first?.path == "$.id")
        #expect(error.report.errors.first?.record == 0)
    }

    @Test func theKeyPathIncludesTheRootGivenAndPrefersTheListNamedAfterTheEntity() throws {
        let dump = #"{"data": {"teams": [{"id": 2}], "users": [{"id": 1}]}}"#
        #expect(try importError(dump).message.hasSuffix("under 'data.users': import it with --root data.users, or give User 'root: data.users'"))
        let rooted = try importError(dump, options: ImportOptions(root: "data"))
        #expect(rooted.message.hasPrefix("<data>: record 0 at $.data.id: missing primary key 'id'"))
        #expect(rooted.message.hasSuffix("--root data.users, or give User 'root: data.users'"))
    }

    @Test func aBrokenRecordGetsNoHint() throws {
        // It holds a key the entity reads: a record missing its id, not a wrapper.
        let error = try importError(#"{"login": "a", "repos": [{"id": 1}]}"#)
        #expect(error.message == "<data>: record 0 at $.id: missing primary key 'id' (key 'id')")
        // A list whose records lack the missing key is no list of these records.
        let other = try importError(#"{"page": 1, "links": [{"href": "x"}]}"#)
        #expect(other.message == "<data>: record 0 at $.id: missing primary key 'id' (key 'id')")
    }
}
