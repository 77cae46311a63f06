import Foundation
import Testing

@testable import JSONImport

/// `MappingDraft` over real files: the repository's examples, JSON Lines, errors that name
/// their place, and the async form.
@Suite struct MappingDraftSourceTests {
    private static let repository: URL = {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }  // file, Inference, JSONImportTests, Tests
        return root
    }()

    private static func example(_ path: String) -> ImportSource {
        .file(repository.appendingPathComponent("Examples/" + path).path)
    }

    @Test(arguments: [
        ("User", ["github/users.json", "github/users-update.json", "github/users.jsonl"]),
        ("Author", ["blog/authors.json"]),
        ("Article", ["blog/articles.json"]),
        ("Member", ["tenants/members.json"]),
    ])
    func theExamplePayloadsGiveDraftsThatImportThem(entity: String, files: [String]) throws {
        let sources = files.map(Self.example)
        let draft = try MappingDraft(inferring: entity, from: sources)
        let report = try draft.importing(sources)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.records == draft.recordCount && report.records > 0)
    }

    @Test func theBlogExampleIsReadAsItsMappingReadsIt() throws {
        let articles = try MappingDraft(inferring: "Article", from: [Self.example("blog/articles.json")])
        #expect(articles.root == JSONKeyPath(segments: ["data", "articles"]))
        #expect(articles.entry("Article", "price").value == "decimal")
        #expect(articles.entry("Article", "publishedAt").value == "date")
        #expect(articles.entry("Article", "author").value == "{ to: Author, kind: one }")
        #expect(articles.entry("Stats", "readsTotal").value == "{ key: [\"reads.total\"], type: int }")
        #expect(articles.entry("Comment", "createdAt").value == "{ type: date, format: epochMillis }")
        #expect(try articles.entitySpec("Reaction").isOwned)
        let authors = try MappingDraft(inferring: "Author", from: [Self.example("blog/authors.json")])
        #expect(authors.entry("Author", "joinedAt").value == "{ type: date, format: epoch }")
        #expect(authors.entry("Settings", "id").value == "uuid")
        #expect(authors.yaml.contains("  Settings:  # 2 objects in Author.settings\n    primaryKey: id\n    keyStyle: camelCase\n"))
        #expect(authors.entry("Settings", "timeZone").value == "string")
    }

    @Test func jsonLinesAndWrappedJSONAgreeOnTheRoot() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("infer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("page.json")
        let lines = directory.appendingPathComponent("more.ndjson")
        try Data(#"{"items": [{"id": 1, "name": "a"}], "next": null}"#.utf8).write(to: page)
        try Data("{\"id\": 2, \"name\": \"b\"}\n\n{\"id\": 3}\n".utf8).write(to: lines)
        let sources: [ImportSource] = [.file(page.path), .file(lines.path)]
        let draft = try MappingDraft(inferring: "Item", from: sources)
        #expect(draft.root == JSONKeyPath(segments: ["items"]) && draft.recordCount == 3)
        #expect(draft.entry("Item", "name").comment == "optional: in 2 of 3")
        #expect(try draft.importing(sources).records == 3)
    }

    @Test func anUnreadableFileIsAnImportErrorNamingIt() throws {
        let error = try #require(throws: ImportError.self) {
            try MappingDraft(inferring: "User", from: [.file("/no/such/samples.json")])
        }
        #expect(error.code == .unreadableFile)
        #expect(error.message == "cannot read '/no/such/samples.json': No such file or directory")
    }

    @Test func invalidJSONIsAnImportErrorWithItsLineAndColumn() throws {
        let error = try #require(throws: ImportError.self) {
            try inferDraft("[{\"id\": 1},\n {\"id\": 2,}]")
        }
        #expect(error.code == .invalidJSON)
        #expect(error.location.line == 2 && error.location.column == 11)
        #expect(error.message.hasPrefix("sample0.json:2:11: invalid JSON (byte 22): "))
    }

    @Test(arguments: ["[]", "{\"total\": 0, \"items\": []}"])
    func samplesWithoutRecordsAreAnError(sample: String) throws {
        let error = try #require(throws: InferenceError.self) { try inferDraft(sample) }
        #expect(error.code == .noRecords)
        #expect(error.message == "no records to infer a mapping from in 'sample0.json'")
        #expect(error.location.file == "sample0.json")
        let none = try #require(throws: InferenceError.self) { try MappingDraft(inferring: "Item", from: []) }
        #expect(none.message == "no samples to infer a mapping from")
    }

    @Test func aRecordThatIsNotAnObjectIsAnErrorAtItsPath() throws {
        let error = try #require(throws: InferenceError.self) { try inferDraft(#"[{"id": 1}, 2]"#) }
        #expect(error.code == .notARecord)
        #expect(error.message == "sample0.json: record 1 at $[1]: expected an object, found number 2")
        #expect(error.location == ErrorLocation(file: "sample0.json", record: 1, path: "$[1]"))
        let empty = try #require(throws: InferenceError.self) { try inferDraft("[{}, {}]") }
        #expect(empty.code == .notARecord)
    }

    @Test func samplesKeepingTheirRecordsInDifferentPlacesAreAnError() throws {
        let error = try #require(throws: InferenceError.self) {
            try inferDraft(#"{"items": [{"id": 1}]}"#, #"[{"id": 2}]"#)
        }
        #expect(error.code == .conflictingRoots)
        #expect(error.message == "the samples hold their records in different places: 'sample0.json' under 'items', 'sample1.json' at the top; infer them separately")
    }

    @Test(arguments: ["9Lives", "_Hidden", "User-Name", ""])
    func anInvalidEntityNameIsAnError(name: String) throws {
        let error = try #require(throws: InferenceError.self) { try inferDraft(#"[{"id": 1}]"#, entity: name) }
        #expect(error.code == .invalidName)
    }

    @Test func theAsyncFormInfersTheSameDraft() async throws {
        let sample = #"[{"id": 1, "tags": ["a"]}]"#
        let sources: [ImportSource] = [.data(Data(sample.utf8), name: "sample0.json")]
        let draft = try await MappingDraft(inferring: "Item", from: sources)
        #expect(try draft == inferDraft(sample))
    }

    @Test func theAsyncFormOfACancelledTaskThrowsCancellationError() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await MappingDraft(inferring: "Item", from: [.data(Data(#"[{"id": 1}]"#.utf8), name: "a.json")])
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
