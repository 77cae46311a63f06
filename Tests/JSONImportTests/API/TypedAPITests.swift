import Foundation
import Testing
@testable import JSONImport

/// Typed forms of the calls: validators that take the decoded model, payloads that name their
/// file, export and clean-up by type.
@Suite struct TypedAPITests {
    @Test func aValidatorCanTakeTheDecodedModel() throws {
        let mapper = try makeMapper()
        try mapper.setValidator(for: APIRepo.self) { repo in
            // Links are not written yet: `owner` is nil, `tags` empty.
            if repo.name == "bad" { throw ValidationError("no repo is called bad (\(repo.stars) stars, tags \(repo.tags))") }
        }
        let error = #expect(throws: ImportError.self) {
            try mapper.importJSON(#"{"id": 1, "repos": [{"id": 5, "name": "bad", "stars": 3, "tags": [{"name": "x"}]}]}"#, as: "User")
        }
        #expect(error?.report.errors.first?.message == "rejected by validation: no repo is called bad (3 stars, tags [])")
        try mapper.importJSON(#"{"id": 1, "repos": [{"id": 6, "name": "good"}]}"#, as: "User")
        #expect(try mapper.find(APIRepo.self, id: 6)?.name == "good")
    }

    @Test func aMapperWithAValidatorIsFreedWhenReleased() throws {
        weak var released: Mapper?
        do {
            let mapper = try makeMapper()
            try mapper.setValidator(for: APIRepo.self) { [weak mapper] repo in
                _ = try mapper?.count(APIRepo.self)
                _ = repo
            }
            try mapper.importJSON(twoUsersJSON, as: "User")
            released = mapper
        }
        #expect(released == nil)
    }

    @Test func payloadsNameTheirFileInErrors() throws {
        let mapper = try makeMapper()
        let named = #expect(throws: ImportError.self) { try mapper.map(APIUser.self, Data("[{".utf8), name: "page-2.json") }
        #expect(named?.message.hasPrefix("page-2.json:1:") == true)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jsonimport-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("users.json")
        try Data(twoUsersJSON.utf8).write(to: file)
        #expect(try mapper.map(APIUser.self, contentsOf: file).map(\.id) == [1, 2])
        let missing = #expect(throws: ImportError.self) { try mapper.map(APIUser.self, contentsOf: directory.appendingPathComponent("gone.json")) }
        #expect(missing?.code == .unreadableFile)
        #expect(missing?.message.contains("gone.json") == true)
    }

    @Test func exportAndCleanTakeTypes() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        #expect(try mapper.exportData(APIUser.self, ids: ["2"], depth: 0) == (try mapper.exportData("User", ids: ["2"], depth: 0)))
        let report = try mapper.clean(olderThan: 0, types: [APIRepo.self])
        #expect(report.counts(for: "Repo").deleted == 2)
        #expect(try mapper.count(APIRepo.self) == 0)
    }

    /// 2,500 users: more than two pages of the cursor.
    private func manyUsers() throws -> Mapper {
        let mapper = try makeMapper()
        let users = (1...2_500).map { #"{"id": \#($0), "login": "u\#($0)"}"# }.joined(separator: ",")
        try mapper.importJSON("[\(users)]", as: "User")
        return mapper
    }

    @Test func forEachVisitsEveryRecordInOrder() throws {
        let mapper = try manyUsers()
        var ids: [Int] = []
        try mapper.query(APIUser.self).order(by: "id", descending: true).forEach { ids.append($0.id) }
        #expect(ids == Array((1...2_500).reversed()))
    }

    @Test func valuesArePagedAsTheLoopAsks() async throws {
        let mapper = try manyUsers()
        var ids: [Int] = []
        for try await user in mapper.query(APIUser.self).where("id <= 2200").order(by: "id").values() {
            ids.append(user.id)
            // A row deleted after the loop started is left out when its page is read.
            if user.id == 1 { try await mapper.destroy(APIUser.self, id: 1500) }
        }
        #expect(ids == Array(1...2200).filter { $0 != 1500 })

        var first: [Int] = []
        for try await user in mapper.query(APIUser.self).values() {
            first.append(user.id)
            if first.count == 3 { break }
        }
        #expect(first == [1, 2, 3])
    }

    @Test func pluckedFieldsAreCodable() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let rows = try mapper.query(APIUser.self).where("id = 1").pluck(["login", "score", "topics", "meta", "address"])
        // The same JSON as the rows' own text (JSONEncoder orders keys its own way).
        let encoded = try JSONEncoder().encode(rows)
        let text = Data(("[" + rows.map { RecordValue.object($0).jsonText }.joined(separator: ",") + "]").utf8)
        func json(_ data: Data) throws -> NSArray { try #require(JSONSerialization.jsonObject(with: data) as? NSArray) }
        #expect(try json(encoded) == json(text))
        let decoded = try JSONDecoder().decode([RecordObject].self, from: encoded)
        #expect(try json(JSONEncoder().encode(decoded)) == json(text))
    }

    @Test func queriesOrderByPathsThroughToOneRelationships() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"""
            [{"id": 1, "login": "ana", "address": {"city": "Oslo"}, "repos": [{"id": 10, "name": "kit"}]},
             {"id": 2, "login": "bo", "address": {"city": "Bergen"}, "repos": [{"id": 11, "name": "db"}]},
             {"id": 3, "login": "cy", "repos": [{"id": 12, "name": "app"}]}]
            """#, as: "User")
        // A missing link sorts as NULL, first.
        #expect(try mapper.query(APIUser.self).order(by: "address.city").all().map(\.id) == [3, 2, 1])
        #expect(try mapper.query(APIUser.self).order(by: "address.city", descending: true).all().map(\.id) == [1, 2, 3])
        #expect(try mapper.query(APIRepo.self).order(by: "owner.login", descending: true).all().map(\.id) == [12, 11, 10])
        let query = try mapper.query("Repo").order(by: "owner.address.city").includingStubs().records()
        #expect(query.map { $0["id"] } == [.int(12), .int(11), .int(10)])

        #expect(throws: QueryError(.unknownField, "cannot order by 'repos.name': 'repos' is not a to-one relationship held by User rows (only those give one value per row)")) {
            try mapper.query(APIUser.self).order(by: "repos.name").all()
        }
        #expect(throws: QueryError(.unknownField, "cannot order by 'adress.city': User has no relationship 'adress' (did you mean 'address'?)")) {
            try mapper.query(APIUser.self).order(by: "adress.city").all()
        }
    }
}
