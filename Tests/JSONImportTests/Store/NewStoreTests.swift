import Foundation
import Testing

@testable import JSONImport

/// `Mapper.withStore(at:spec:configuration:_:)`, what `jsonimport import` opens its store with:
/// a missing store is created only if the work done with it succeeds.
@Suite(.tags(.sqliteOnly), .sqliteStore) struct NewStoreTests {
    private static func spec() throws -> MappingSpec { try MappingSpec.load(yaml: githubYAML, file: "test.yml") }

    /// The files in the folder of `path`.
    private static func files(beside path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
    }

    @Test func aStoreCreatedForAFirstImportExistsOnlyIfItSucceeds() throws {
        try withTemporaryStore { path in
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try Mapper.withStore(at: path, spec: Self.spec()) { mapper in
                    try mapper.importJSON(#"{"id": 1}"#, as: "User")
                    throw Refused()
                }
            }
            #expect(throws: ImportError.self) {
                try Mapper.withStore(at: path, spec: Self.spec()) { try $0.importJSON(#"{"id": "one"}"#, as: "User") }
            }
            #expect(try Self.files(beside: path) == [])

            let report = try Mapper.withStore(at: path, spec: Self.spec()) { try $0.importJSON(#"{"id": 1}"#, as: "User") }
            #expect(report.counts(for: "User").inserted == 1)
            #expect(try Self.files(beside: path) == ["store.sqlite"])
            // An existing store is used in place; a failure there leaves it as it was.
            #expect(throws: ImportError.self) {
                try Mapper.withStore(at: path, spec: Self.spec()) { try $0.importJSON(#"{"id": "two"}"#, as: "User") }
            }
            #expect(try makeFileMapper(path).count(APIUser.self) == 1)
        }
    }
}
