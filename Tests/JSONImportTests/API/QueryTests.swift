import Foundation
import Testing
@testable import JSONImport

@Suite struct QueryTests {
    let mapper: Mapper

    init() throws {
        mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        try mapper.importJSON(#"[{"id": 3, "login": "cy", "score": 12, "address": {"street": "Elm", "city": "Bergen"}},"#
            + #" {"id": 4, "login": "O'Brien", "score": 90.5, "created_at": "2023-06-01T00:00:00Z"}]"#, as: "User")
    }

    @Test func findReadsOneRecordByKeyAndNilWhenAbsent() throws {
        #expect(try mapper.find(APIUser.self, id: 3)?.login == "cy")
        #expect(try mapper.find(APIUser.self, id: 42) == nil)
        #expect(try mapper.find(APIUser.self, ids: [4, 42, 1]).map(\.id) == [4, 1])
    }

    @Test func stubsAreLeftOutUnlessAsked() throws {
        #expect(try mapper.find(APIUser.self, id: 99) == nil)
        #expect(try mapper.count(APIUser.self) == 4)
        #expect(try mapper.query(APIUser.self).includingStubs().count() == 5)
    }

    @Test func allFirstLastAndCountFollowThePrimaryKey() throws {
        #expect(try mapper.all(APIUser.self).map(\.id) == [1, 2, 3, 4])
        #expect(try mapper.first(APIUser.self)?.id == 1)
        #expect(try mapper.last(APIUser.self)?.id == 4)
        #expect(try mapper.count(APIRepo.self) == 2)
    }

    @Test func orderLimitAndOffsetPage() throws {
        let byScore = mapper.query(APIUser.self).where("score IS NOT NULL").order(by: "score", descending: true)
        #expect(try byScore.all().map(\.id) == [4, 1, 3])
        #expect(try byScore.first()?.id == 4)
        #expect(try byScore.last()?.id == 3)
        #expect(try byScore.limit(1).offset(1).all().map(\.id) == [1])
        #expect(try byScore.limit(2).count() == 2)
        #expect(try byScore.limit(0).all().isEmpty && byScore.offset(0).count() == 3)
        // As `query --limit -1` refuses it, not read as no limit.
        #expect(throws: QueryError(.invalidRequest, "the limit must be 0 or more, not -1")) { try byScore.limit(-1).all() }
        #expect(throws: QueryError(.invalidRequest, "the offset must be 0 or more, not -2")) { try byScore.offset(-2).count() }
        // `first()` and `last()` read one record whatever the limit.
        #expect(try byScore.limit(-1).first()?.id == 4 && byScore.limit(-1).last()?.id == 3)
    }

    @Test func textFiltersFollowTheExpressionLanguage() throws {
        let query = mapper.query(APIUser.self)
        #expect(try query.where("score > 50 AND login LIKE 'A%'").all().map(\.id) == [1])
        #expect(try query.where("address.city = 'Bergen'").all().map(\.id) == [3])
        #expect(try query.where("repos.tags.name = 'cli'").all().map(\.id) == [1])
        #expect(try query.where("createdAt < '2024-01-01'").all().map(\.id) == [4])
    }

    @Test func typedFiltersBindTheirValues() throws {
        let query = mapper.query(APIUser.self)
        #expect(try query.where("score", .greaterThan, 50).all().map(\.id) == [1, 4])
        #expect(try query.where("login", .equals, "O'Brien").all().map(\.id) == [4])
        #expect(try query.where("login", .equals, "x' OR 1=1 --").all().isEmpty)
        #expect(try query.where("address.city", .equals, "Oslo").all().map(\.id) == [1])
        #expect(try query.where("name", .equals, String?.none).all().map(\.id) == [2, 3, 4])
        let cutoff = Date(timeIntervalSince1970: 1_704_067_200)
        #expect(try query.where("createdAt", .greaterThanOrEqual, cutoff).all().map(\.id) == [1])
        #expect(try query.where(.field("login", in: ["bo", "cy"]) || .isNull("login")).all().map(\.id) == [2, 3])
        #expect(try query.where(!.isNotNull("email") && .like("login", "%o%")).all().map(\.id) == [2, 4])
        #expect(try query.where(.field("login", in: [String]())).count() == 0)
        #expect(try mapper.query(APIRepo.self).where("owner", .equals, 1).count() == 2)
    }

    @Test func unknownNamesAndBadValuesAreQueryErrors() throws {
        let query = mapper.query(APIUser.self)
        #expect(throws: QueryError(.invalidFilter, "invalid filter: User has no field 'nme' (did you mean 'name'?)")) {
            try query.where("nme", .equals, "x").all()
        }
        #expect(throws: QueryError(.invalidFilter, "invalid filter at column 8: expected a value", column: 8)) {
            try query.where("score >").count()
        }
        #expect(throws: QueryError(.invalidFilter, "invalid filter: value for 'score': expected double, found string \"high\"")) {
            try query.where("score", .greaterThan, "high").count()
        }
        #expect(throws: QueryError(.unknownField, "cannot order by 'scor': User has no such attribute (did you mean 'score'?)")) {
            try query.order(by: "scor").all()
        }
        #expect(throws: QueryError(.invalidKey, "\"one\" is not a valid int for User.id")) {
            try mapper.find(APIUser.self, id: "one")
        }
        #expect(throws: QueryError(.invalidFilter, "the value compared with 'topics' must be a single value (a string, number, Boolean, date or nil)")) {
            try query.where("topics", .equals, ["swift"]).all()
        }
    }

    @Test func pluckReadsOnePropertyTypedOrSeveralAsJSON() throws {
        let query = mapper.query(APIUser.self).order(by: "login")
        #expect(try query.pluck("login", as: String.self) == ["O'Brien", "ana", "bo", "cy"])
        #expect(try query.pluck("address", as: APIAddress?.self).compactMap { $0?.city } == ["Oslo", "Bergen"])
        #expect(try mapper.query(APIRepo.self).pluck("tags", as: [String].self) == [["swift", "cli"], ["swift"]])
        let rows = try mapper.query(APIUser.self).where("id = 1").pluck(["login", "createdAt", "repos"])
        #expect(rows.map { RecordValue.object($0).jsonText } == [#"{"login":"ana","createdAt":"2024-01-02T03:04:05Z","repos":[10,11]}"#])
        #expect(throws: QueryError(.unknownField, "User has no property 'logins' (did you mean 'login'?)")) {
            try mapper.query(APIUser.self).pluck("logins", as: String.self)
        }
    }

    @Test func existsAndFindWithinAFilter() throws {
        #expect(try mapper.query(APIUser.self).where("score > 90").exists())
        #expect(try !mapper.query(APIUser.self).where("score > 100").exists())
        #expect(try mapper.query(APIUser.self).where("score > 50").find(3) == nil)
        #expect(try mapper.query(APIUser.self).where("score > 50").find(4)?.login == "O'Brien")
    }
}

@Suite(.tags(.sqliteOnly), .sqliteStore) struct QuerySQLTests {
    @Test func aQueryRunsOneSelectWithBoundValues() throws {
        let mapper = try makeMapper()
        let query = mapper.query(APIUser.self).where("score", .greaterThan, 50).where("address.city = 'Oslo'").order(by: "login").limit(10)
        let (_, compiled, _) = try mapper.store.withReader { try query.compiledQuery(in: $0) }
        let (sql, parameters) = (compiled.text, compiled.parameters)
        #expect(sql == #"SELECT r."id" FROM "User" r WHERE (r."score" > ? AND EXISTS (SELECT 1 FROM "Address" t1 WHERE t1."_id" = r."address" AND t1."city" IS ?)) AND r."_stub" = 0 ORDER BY r."login", r."id" LIMIT 10 OFFSET 0"#)
        #expect(parameters == [.real(50), .text("Oslo")])
        let find = mapper.query(APIUser.self)
        let (_, byKeys, _) = try mapper.store.withReader { try find.compiledQuery(in: $0, ids: [[.integer(1)], [.integer(7)]]) }
        let (byKey, keys) = (byKeys.text, byKeys.parameters)
        #expect(byKey == #"SELECT r."id" FROM "User" r WHERE r."id" IN (SELECT value FROM json_each(?)) AND r."_stub" = 0 ORDER BY r."id""#)
        #expect(keys == [.text("[1,7]")])
    }

    @Test func aPathIsOneSubqueryJoiningATablePerStep() throws {
        let mapper = try makeMapper()
        let query = mapper.query(APIUser.self).where("followers.repos.name = 'kit' AND NOT login = 'bo'")
        let (_, compiled, _) = try mapper.store.withReader { try query.compiledQuery(in: $0) }
        let (sql, parameters) = (compiled.text, compiled.parameters)
        let path = #"EXISTS (SELECT 1 FROM "User_followers" l1 JOIN "User" t1 ON t1."id" = l1."target" "#
            + #"JOIN "Repo" t2 ON t2."owner" = t1."id" WHERE l1."source" = r."id" AND t2."name" IS ?)"#
        // The more deeply nested part (the NOT) comes first: SQLite's parser then holds less.
        #expect(sql == #"SELECT r."id" FROM "User" r WHERE ((r."login" IS ?) IS NOT 1 AND "# + path + #") AND r."_stub" = 0 ORDER BY r."id""#)
        #expect(parameters == [.text("bo"), .text("kit")])
    }
}
