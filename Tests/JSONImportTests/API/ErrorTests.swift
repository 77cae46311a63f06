import Foundation
import Testing
@testable import JSONImport

/// Every error the library throws: a stable code, its message as `localizedDescription`, and
/// where it happened.
@Suite struct ErrorTests {
    /// The error `body` throws, as the protocol every library error conforms to.
    private func libraryError(_ body: () throws -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (any JSONImportError)? {
        do {
            try body()
            Issue.record("no error thrown", sourceLocation: sourceLocation)
        } catch let error as any JSONImportError {
            #expect(error.localizedDescription == error.description, sourceLocation: sourceLocation)
            #expect(!error.localizedDescription.contains("could not be completed"), sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("\(type(of: error)) is not a JSONImportError: \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func invalidJSONNamesTheFileLineAndColumn() throws {
        let mapper = try makeMapper()
        let error = libraryError { try mapper.importSources([.data(Data("[\n  {\"id\": 1,,}]".utf8), name: "users.json")], as: "User") }
        #expect(error?.codeName == "invalidJSON")
        #expect(error?.location.file == "users.json")
        #expect(error?.location.line == 2)
        #expect(error?.location.column != nil)
        #expect((error as? ImportError)?.code == .invalidJSON)
    }

    @Test func aRecordErrorNamesTheRecordAndPath() throws {
        let mapper = try makeMapper()
        let error = libraryError { try mapper.importJSON(#"[{"id": 1}, {"id": "x"}]"#, as: "User") }
        #expect(error?.codeName == "invalidRecord")
        #expect(error?.location.record == 1)
        #expect(error?.location.path == "$[1].id")
    }

    @Test func queryErrorsHaveCodes() throws {
        let mapper = try makeMapper()
        let unknown = libraryError { _ = try mapper.query("Usr").records() }
        #expect((unknown as? QueryError)?.code == .unknownEntity)
        #expect(unknown?.message.contains("did you mean 'User'") == true)

        let filter = libraryError { _ = try mapper.query(APIUser.self).where("login = = 'x'").all() }
        #expect((filter as? QueryError)?.code == .invalidFilter)
        #expect(filter?.location.column != nil)

        let field = libraryError { _ = try mapper.query(APIUser.self).order(by: "logn").all() }
        #expect((field as? QueryError)?.code == .unknownField)

        let key = libraryError { _ = try mapper.query("User").keys(text: ["abc"]).records() }
        #expect((key as? QueryError)?.code == .invalidKey)

        let request = libraryError { try mapper.delete("User") }
        #expect(request?.codeName == "invalidRequest")
    }

    @Test func mappingErrorsNameTheirPlace() {
        let error = libraryError { _ = try MappingSpec.load(yaml: "entities:\n  User:\n    primaryKey: id\n    attributes: { id: nope }\n", file: "m.yml") }
        #expect(error?.location.file == "m.yml")
        #expect(error?.location.line == 4)
        #expect(error?.codeName == (error as? MappingLoadError)?.diagnostics.first?.code.rawValue)
    }

    @Test func storeAndDeleteErrorsAreLibraryErrors() throws {
        let missing = libraryError { _ = try Mapper(spec: MappingSpec.load(yaml: githubYAML), store: .file("/nonexistent/dir/x.sqlite")) }
        #expect(missing is StoreError)

        let mapper = try makeMapper(teamsDenyingDeletionYAML)
        try mapper.importJSON(#"{"id": 1, "members": [{"id": 2}]}"#, as: "Team")
        let denied = libraryError { try mapper.delete("Team", ids: ["1"]) }
        #expect(denied?.codeName == "denied")
        #expect(denied?.message.contains("cannot delete Team 1") == true)
    }

    @Test func locationsPrintWhatIsKnown() {
        #expect(ErrorLocation(file: "a.json", record: 3, path: "$[3].id", line: 2, column: 7).description == "a.json:2:7 record 3 $[3].id")
        #expect(ErrorLocation(column: 4).description == "4")
        #expect(ErrorLocation().isUnknown)
    }
}
