import Foundation
import Testing

@testable import JSONImport

/// SPEC 4.4: what an export looks like, record by record.
@Suite struct ExportShapeTests {
    private func export(_ mapper: Mapper, _ request: ExportRequest) throws -> String {
        String(decoding: try mapper.exportData(request), as: UTF8.self)
    }

    // MARK: Attributes

    @Test func attributesAreWrittenAtTheirKeyPathsInTheirJSONForm() throws {
        let mapper = try makeMapper("""
            entities:
              Product:
                primaryKey: sku
                attributes:
                  sku: string
                  price: decimal
                  cost: decimal
                  releasedAt: { key: released, type: date, format: epoch }
                  seenAt: { key: seen, type: date, format: epochMillis }
                  madeOn: { key: made, type: date, format: "yyyy-MM-dd HH:mm" }
                  updatedAt: { key: updated, type: date }
                  stock: int
                  ratio: double
                  active: bool
                  token: uuid
                  link: url
                  meta: json
                  sizes: "[int]"
                  history: { type: "[date]", format: epoch }
                  prices: "[decimal]"
                  email: { key: contact.email, type: string }
                  phone: { key: contact.phone, type: string }
                  total: { key: [stats, total.count], type: int }
                  internal: { type: string, export: false }
            """)
        try mapper.importJSON("""
            {"sku": "A1", "price": 4.90, "cost": "0.10", "released": "1612137600", "seen": 1709290000123,
             "made": "2024-03-01 09:30", "updated": "2024-01-02T03:04:05.5+01:00", "stock": "7", "ratio": 0.25,
             "active": 1, "token": "3F2504E0-4F89-41D3-9A0C-0305E82C3301", "link": "https://x.io/a",
             "meta": {"a": [1.50, null]}, "sizes": [1, 2], "history": [0, 86400.5], "prices": [1.10, "2"],
             "contact": {"email": "a@x.io"}, "stats": {"total.count": 3}, "internal": "secret"}
            """, as: "Product")
        let expected = #"""
            {"sku":"A1","price":4.90,"cost":0.10,"released":1612137600,"seen":1709290000123,"made":"2024-03-01 09:30","updated":"2024-01-02T02:04:05.5Z","stock":7,"ratio":0.25,"active":true,"token":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","link":"https://x.io/a","meta":{"a":[1.50,null]},"sizes":[1,2],"history":[0,86400.5],"prices":[1.10,2],"contact":{"email":"a@x.io","phone":null},"stats":{"total.count":3}}

            """#
        #expect(try export(mapper, ExportRequest(entity: "Product", format: .jsonl)) == expected)
    }

    @Test func instantsFinerThanAMicrosecondAreKeptAndWrittenToTheMicrosecond() throws {
        let mapper = try makeMapper("entities:\n  E:\n    primaryKey: id\n    attributes: { id: int, at: date }")
        try mapper.importJSON(#"{"id": 1, "at": "2024-01-01T00:00:00.1234567Z"}"#, as: "E")
        let stored = try mapper.storedRows("E", "at")
        let text = try export(mapper, ExportRequest(entity: "E", format: .jsonl))
        // Every store keeps microseconds, as PostgreSQL does (SPEC 6): the instant is stored rounded.
        #expect(text == #"{"id":1,"at":"2024-01-01T00:00:00.123457Z"}"# + "\n")
        try mapper.importJSON(text, as: "E")
        #expect(try mapper.storedRows("E", "at") == stored)
    }

    // MARK: Relationships and depth

    /// User 1 owns repo 10 (tag `swift`) and has followers 2 (a stub) and 3.
    private func githubMapper() throws -> Mapper {
        let mapper = try makeMapper()
        try mapper.importJSON("""
            [{"id": 3, "login": "cy"},
             {"id": 1, "login": "ana", "address": {"street": "Main", "city": "Oslo"},
              "repos": [{"id": 10, "name": "kit", "tags": [{"name": "Swift"}]}], "follower_ids": [2, 3]}]
            """, as: "User")
        return mapper
    }

    @Test func depthZeroWritesRelationshipsAsKeysButNestsOwnedTargets() throws {
        let expected = """
            {"id":1,"login":"ana","name":null,"contact":{"email":null},"created_at":null,"site_admin":false,"score":null,"topics":null,"meta":null,"address":{"street":"Main","city":"Oslo"},"repos":[10],"follower_ids":[2,3]}

            """
        #expect(try export(githubMapper(), ExportRequest(entity: "User", ids: ["1"], depth: 0, format: .jsonl)) == expected)
    }

    @Test func depthOneNestsTheRootsRelationshipsAndWritesTheirsAsKeys() throws {
        let expected = """
            {"id":1,"login":"ana","name":null,"contact":{"email":null},"created_at":null,"site_admin":false,"score":null,"topics":null,"meta":null,"address":{"street":"Main","city":"Oslo"},"repos":[{"id":10,"name":"kit","stars":0,"language":null,"owner":1,"tags":["swift"]}],"follower_ids":[2,{"id":3,"login":"cy","name":null,"contact":{"email":null},"created_at":null,"site_admin":false,"score":null,"topics":null,"meta":null,"address":null,"repos":[],"follower_ids":[]}]}

            """
        #expect(try export(githubMapper(), ExportRequest(entity: "User", ids: ["1"], depth: 1, format: .jsonl)) == expected)
    }

    @Test func depthTwoNestsOneLevelFurther() throws {
        let text = try export(githubMapper(), ExportRequest(entity: "User", ids: ["1"], depth: 2, format: .jsonl))
        #expect(text.contains(#""owner":1,"tags":[{"name":"swift"}]"#))
    }

    @Test func stubsAreNeverRootRecordsAndOnlyEverKeys() throws {
        let mapper = try githubMapper()
        let ids = try export(mapper, ExportRequest(entity: "User", depth: 0, fields: .included(["id"])))
        #expect(ids == "[\n{\"id\":1},\n{\"id\":3}\n]\n")
        #expect(try export(mapper, ExportRequest(entity: "User", ids: ["2"])) == "[]\n")
    }

    private let teamYAML = """
        entities:
          Team:
            primaryKey: id
            attributes: { id: int }
            relationships:
              members: { to: Person, kind: many, by: object }
              lead: { to: Person, kind: one, by: id }
              seats: { to: Seat, kind: many }
          Person:
            primaryKey: id
            attributes:
              id: { key: person_id, type: int }
              name: string
          Seat:
            primaryKey: [row, col]
            attributes: { row: string, col: int }
            relationships:
              team: { to: Team, kind: one, inverse: seats }
        """

    @Test func keysAreBareValuesArraysForCompositeKeysAndKeyObjectsForByObject() throws {
        let mapper = try makeMapper(teamYAML)
        try mapper.importJSON("""
            [{"id": 7, "members": [{"person_id": 5, "name": "Ana"}], "lead": 5, "seats": [{"row": "A", "col": 1}]},
             {"id": 8, "seats": [["B", 2]]}]
            """, as: "Team")
        #expect(try export(mapper, ExportRequest(entity: "Team", depth: 0, format: .jsonl)) == """
            {"id":7,"members":[{"person_id":5}],"lead":5,"seats":[["A",1]]}
            {"id":8,"members":[],"lead":null,"seats":[["B",2]]}

            """)
        // Depth 1: by-object and auto targets nested, back sides as keys, the stub seat B-2 a key.
        #expect(try export(mapper, ExportRequest(entity: "Team", depth: 1, format: .jsonl)) == """
            {"id":7,"members":[{"person_id":5,"name":"Ana"}],"lead":5,"seats":[{"row":"A","col":1,"team":7}]}
            {"id":8,"members":[],"lead":null,"seats":[["B",2]]}

            """)
        #expect(try export(mapper, ExportRequest(entity: "Seat", ids: ["A,1", "B,2"], format: .jsonl)) == """
            {"row":"A","col":1,"team":7}

            """)
    }

    /// A `one` relationship to a composite key is that key whole, as `query` writes it, so that
    /// importing the export links it again.
    @Test func aOneRelationshipToACompositeKeyIsTheWholeKey() throws {
        let mapper = try makeMapper("""
            entities:
              Person:
                primaryKey: [org, num]
                attributes: { org: string, num: int }
                relationships:
                  boss: { to: Person, kind: one }
            """)
        try mapper.importJSON(#"[{"org": "a", "num": 1, "boss": ["b", 2]}]"#, as: "Person")
        let text = try export(mapper, ExportRequest(entity: "Person", ids: ["a,1"], depth: 0, format: .jsonl))
        #expect(text == #"{"org":"a","num":1,"boss":["b",2]}"# + "\n")
        let links = try mapper.storedLinks("Person.boss")
        try mapper.importJSON(text, as: "Person")
        #expect(try mapper.storedLinks("Person.boss") == links)
    }

    // MARK: Selection and layout

    @Test func jsonIsWrappedUnderTheEntitysRootButJSONLinesNever() throws {
        let mapper = try makeMapper("entities:\n  E:\n    primaryKey: id\n    root: data.items\n    attributes: { id: int }")
        #expect(try export(mapper, ExportRequest(entity: "E")) == "{\"data\":{\"items\":[]}}\n")
        try mapper.importJSON(#"{"data": {"items": [{"id": 2}, {"id": 1}]}}"#, as: "E")
        #expect(try export(mapper, ExportRequest(entity: "E")) == "{\"data\":{\"items\":[\n{\"id\":1},\n{\"id\":2}\n]}}\n")
        #expect(try export(mapper, ExportRequest(entity: "E", format: .jsonl)) == "{\"id\":1}\n{\"id\":2}\n")
    }

    @Test func idsAndFilterSelectRootRecordsInKeyOrder() throws {
        let mapper = try githubMapper()
        let request = ExportRequest(entity: "User", ids: ["3", "1", "2"], filter: "login LIKE '%a%' OR id = 3", depth: 0,
                                    format: .jsonl, fields: .included(["login", "id"]))
        #expect(try export(mapper, request) == "{\"id\":1,\"login\":\"ana\"}\n{\"id\":3,\"login\":\"cy\"}\n")
    }

    @Test func exceptedFieldsAreLeftOut() throws {
        let request = ExportRequest(entity: "User", ids: ["3"], depth: 0, format: .jsonl,
                                    fields: .excepted(["login", "contact", "email", "meta", "repos", "follower_ids", "followers"]))
        #expect(throws: QueryError.self) { try export(githubMapper(), request) }  // "contact" and "follower_ids" are JSON keys
        var names = request
        names.fields = .excepted(["login", "email", "meta", "repos", "followers", "address"])
        #expect(try export(githubMapper(), names)
            == "{\"id\":3,\"name\":null,\"created_at\":null,\"site_admin\":false,\"score\":null,\"topics\":null}\n")
    }

    @Test func requestsTheMappingsCannotServeThrowBeforeAnythingIsWritten() throws {
        let mapper = try githubMapper()
        for request in [
            ExportRequest(entity: "Usr"), ExportRequest(entity: "User", filter: "nope = 1"),
            ExportRequest(entity: "User", filter: "id = "), ExportRequest(entity: "User", ids: ["x"]),
            ExportRequest(entity: "User", depth: -1), ExportRequest(entity: "User", fields: .included(["logn"])),
        ] {
            var text = ""
            #expect(throws: QueryError.self) { try mapper.export(request, to: &text) }
            #expect(text.isEmpty)
        }
    }

    @Test func rowsArePagedInKeyOrderAcrossManyPages() throws {
        let mapper = try makeMapper("entities:\n  T:\n    primaryKey: [a, b]\n    attributes: { a: string, b: int }")
        let records = (0..<700).map { #"{"a": "k\#($0 % 7)", "b": \#($0)}"# }
        try mapper.importJSON("[" + records.joined(separator: ",") + "]", as: "T")
        var lines = ""
        #expect(try mapper.export(ExportRequest(entity: "T", format: .jsonl), to: &lines) == 700)
        let keys = lines.split(separator: "\n").map(String.init)
        let expected = (0..<700).sorted { ("k\($0 % 7)", $0) < ("k\($1 % 7)", $1) }.map { #"{"a":"k\#($0 % 7)","b":\#($0)}"# }
        #expect(keys == expected)
    }

    /// The stream gets the export in pieces of about 64 KiB while rows are still being read,
    /// never as one whole document.
    @Test func largeExportsReachTheStreamInChunks() throws {
        struct Chunks: TextOutputStream {
            var sizes: [Int] = []
            mutating func write(_ string: String) { sizes.append(string.utf8.count) }
        }
        let mapper = try makeMapper()
        let users = (1...3000).map { #"{"id": \#($0), "login": "user-\#($0)", "name": "A name long enough to fill pages"}"# }
        try mapper.importJSON("[" + users.joined(separator: ",") + "]", as: "User")
        var chunks = Chunks()
        #expect(try mapper.export(ExportRequest(entity: "User"), to: &chunks) == 3000)
        #expect(chunks.sizes.count > 4)
        #expect(chunks.sizes.allSatisfy { $0 < ExportRun.chunkSize + 1024 })
    }

    @Test func exportWritesToAFileHandle() throws {
        let mapper = try githubMapper()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).json")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        #expect(try mapper.export("User", where: "id = 3", depth: 0, to: handle) == 1)
        try handle.close()
        #expect(try Data(contentsOf: url) == mapper.exportData("User", where: "id = 3", depth: 0))
    }
}
