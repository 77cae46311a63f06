import Foundation
import Testing
@testable import JSONImport

/// One query type: a query by entity name reads records in their JSON form, and `keys`
/// narrows any query to primary keys.
@Suite struct QueryByNameTests {
    @Test func aQueryByEntityNameReadsRecordsInTheirJSONForm() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let rows = try mapper.query("User").order(by: "login", descending: true).records(fields: ["id", "login"])
        #expect(rows.map { RecordValue.object($0).jsonText } == [#"{"id":2,"login":"bo"}"#, #"{"id":1,"login":"ana"}"#])
        // Stubs (user 99, known from a follower list) are left out unless asked for.
        #expect(try mapper.query("User").all().map { $0["id"] } == [.int(1), .int(2)])
        #expect(try mapper.query("User").includingStubs().count() == 3)
        #expect(try mapper.query("User").find(2)?["login"] == .string("bo"))
        #expect(try mapper.query("User").last()?["followers"] == .array([.int(1)]))
        let stub = try mapper.query("User").keys([99]).includingStubs().records(fields: ["id"], includingMeta: true)
        #expect(stub.first?.keys == ["id", "_createdAt", "_updatedAt", "_seenAt", "_stub"])
        #expect(stub.first?["_stub"] == .bool(true))
    }

    @Test func keysNarrowAQueryWhichKeepsItsOrder() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let users = mapper.query(APIUser.self)
        #expect(try users.keys([2, 1]).all().map(\.id) == [1, 2])
        #expect(try users.keys([2, 1]).order(by: "login", descending: true).all().map(\.id) == [2, 1])
        #expect(try users.keys([2, 1]).keys([2, 3]).all().map(\.id) == [2])
        #expect(try users.keys(text: ["1"]).all().map(\.id) == [1])
        #expect(try users.keys([Int]()).count() == 0)
        #expect(try users.keys([1]).find(2) == nil)
        let error = #expect(throws: QueryError.self) { try users.keys(text: ["one"]).all() }
        #expect(error?.code == .invalidKey)
        try users.keys([2]).destroyAll()
        #expect(try mapper.all(APIUser.self).map(\.id) == [1])
    }

    @Test func aFieldTheEntityLacksIsNamedWithASuggestion() throws {
        let mapper = try makeMapper()
        let error = #expect(throws: QueryError.self) { try mapper.query("User").records(fields: ["logn"]) }
        #expect(error?.code == .unknownField)
        #expect(error?.message == "User has no field 'logn' (did you mean 'login'?)")
    }
}

/// Export of what a query selects, in its order.
@Suite struct QueryExportTests {
    @Test func aQueryExportsWhatItSelectsInItsOrder() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let json = try mapper.query(APIRepo.self).order(by: "name").exportData(depth: 0, format: .jsonl, fields: .included(["id", "name"]))
        #expect(String(decoding: json, as: UTF8.self) == "{\"id\":11,\"name\":\"db\"}\n{\"id\":10,\"name\":\"kit\"}\n")
        let limited = try mapper.query("User").where("login LIKE 'b%'").exportData(depth: 0, fields: .included(["login"]))
        #expect(String(decoding: limited, as: UTF8.self) == "[\n{\"login\":\"bo\"}\n]\n")
        let none = try mapper.query(APIUser.self).keys([Int]()).exportData()
        #expect(String(decoding: none, as: UTF8.self) == "[]\n")
        #expect(throws: QueryError.self) { try mapper.query(APIUser.self).exportData(depth: -1) }
    }
}
