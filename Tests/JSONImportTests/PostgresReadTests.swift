import Foundation
import Testing

@testable import JSONImport

/// Every type, compared, matched and sorted: labels for `LIKE`, decimals of any digits (and,
/// written behind import's back, text that is not a number), a key of every key type.
private let itemsYAML = """
    entities:
      Item:
        primaryKey: id
        attributes:
          id: int
          label: string
          amount: decimal
          ratio: double
          flag: bool
          at: date
          token: uuid
          site: url
          data: json
          words: "[string]"
        relationships:
          parent: { to: Item, kind: one }
          parts: { to: Item, kind: many }
      Slot:
        primaryKey: [code, size, open, ref, price, site]
        attributes:
          day: date
          code: string
          size: double
          open: bool
          ref: uuid
          price: decimal
          site: url
          note: string
    """

/// Labels `LIKE` must tell apart: ASCII and non-ASCII case, wildcards and backslashes as text.
private let labels: [String?] = [
    "Ärger", "ärger", "ÄRGER", "abc", "ABC", "aBc", "a%c", "a_c", #"a\c"#, #"a\\c"#, "a\\%", "100%", "x'y",
    "straße", "STRASSE", "ǅ", "日本", "", nil, "ab", "abcd",
]

/// Decimals in many spellings of equal and unequal numbers; non-numbers follow, written raw.
private let amounts: [String?] = [
    "0", "-0", "0.0", "0e5", "1", "1.0", "10.5", "10.50", "1.05e1", "105e-1", "-10.5", "-10.49", "-10.51", "-10.500",
    "0.1000000000000000000000000001", "0.1", "1e-400", "-1e-400", "1E400", "1e+400", "-1e400",
    "1e1125899906842624", "1e1125899906842625", "1e99999999999999999999", "2e99999999999999999999",
    "-1e99999999999999999999", "1e-99999999999999999999", "123456789012345678901234567890.123456789",
    "123456789012345678901234567890.1234567890000", "9" + String(repeating: "9", count: 400),
    "1" + String(repeating: "0", count: 401), "0." + String(repeating: "0", count: 300) + "1", "-0.5", "-5e-1", "3", nil,
]
private let nonNumbers = ["abc", "", "NaN", "1.", ".5", "+1", "01", "1e", "Infinity", "zzz", "ABC", "1 ", "-", "é"]

/// Doubles as SQLite prints them for `LIKE`: integral, tiny, huge, 15 and 16 digits, negative.
private let ratios: [Double] = [
    0, -0.0, 1.5, 100, 1e20, 1e-5, 0.1 + 0.2, 123456789012345, 1234567890123456, 1.0 / 3, -2.5e-300, .leastNonzeroMagnitude,
    1.7976931348623157e308, 0.0001, 0.00001234, 1e15, 999999999999999.9, 1e14, 99999999999999.99, -7, 2.5e-5,
    1704067200.123456, 0.5, 9.999999999999999e22, 1e100, 12345.678901234567,
]

/// Items 1…n: a label, amount and ratio each from the lists above (cycled), dates with and
/// without fractions, a parent and parts (link order not key order).
private func itemsJSON() -> String {
    let count = max(labels.count, amounts.count, ratios.count)
    var random = SeededGenerator(seed: 11)
    var items: [String] = []
    for i in 0..<count {
        var fields = [#""id": \#(i + 1)"#]
        if let label = labels[i % labels.count] { fields.append(#""label": \#(ValueConversion.jsonString(label))"#) }
        if let amount = amounts[i % amounts.count] { fields.append(#""amount": \#(ValueConversion.jsonString(amount))"#) }
        fields.append(#""ratio": \#(ratios[i % ratios.count])"#)
        if i % 5 != 4 { fields.append(#""flag": \#(i % 2 == 0)"#) }
        let seconds = 1_704_067_200 + Int(random.next() % 100_000_000) - 50_000_000
        let fraction = ["", ".5", ".123456", ".25"][i % 4]
        if i % 7 != 6 { fields.append(#""at": "\#(DateCoding.format(Double(seconds), format: .iso8601).dropLast())\#(fraction)Z""#) }
        let hex = String(format: "%08x", UInt32(truncatingIfNeeded: random.next()))
        if i % 6 != 5 { fields.append(#""token": "\#(i % 2 == 0 ? hex.uppercased() : hex)-4f89-41d3-9a0c-0305e82c33\#(String(format: "%02d", i % 100))""#) }
        fields.append(#""site": "https://example.com/\#(i % 9)?q=\#(i % 3)""#)
        fields.append(#""data": \#(["{\"a\":1}", "[1,2]", "\"s\"", "null", "12.50", "true"][i % 6])"#)
        fields.append(#""words": [\#((0..<(i % 3)).map { "\"w\($0 + i % 4)\"" }.joined(separator: ","))]"#)
        if i % 3 != 0 { fields.append(#""parent": \#((i * 7) % count + 1)"#) }
        fields.append(#""parts": [\#([(i * 5) % count + 1, (i * 3) % count + 1, (i * 11) % count + 1].map(String.init).joined(separator: ","))]"#)
        items.append("{" + fields.joined(separator: ", ") + "}")
    }
    return "[" + items.joined(separator: ",\n") + "]"
}

private func slotsJSON() -> String {
    var slots: [String] = []
    for i in 0..<24 {
        let day = ["2024-01-01", "2024-01-01T00:00:00.5Z", "1969-12-31T23:59:59.25Z"][i % 3]
        let code = ["a", "B", "é", "a\"b", #"c\d"#, "x,y", "{z}", "NULL"][i % 8]
        let size = [0.5, -1, 1e-7, 3][i % 4]
        let ref = "3f2504e0-4f89-41d3-9a0c-0305e82c33\(String(format: "%02d", i % 5))"
        let price = ["1.50", "1.5", "-2", "1e3"][i % 4]
        slots.append(
            #"{"day": "\#(day)", "code": \#(ValueConversion.jsonString(code)), "size": \#(size), "open": \#(i % 2 == 0), "#
                + #""ref": "\#(ref)", "price": \#(price), "site": "https://x.io/\#(i % 7)", "note": "n\#(i)"}"#)
    }
    return "[" + slots.joined(separator: ",") + "]"
}

/// The PostgreSQL store's reads give what the SQLite store's give for the same stored data:
/// the same rows in the same order, the same values, the same errors.
@Suite(
    .tags(.postgres),
    .enabled(
        if: TestPostgres.url != nil,
        "JSONIMPORT_TEST_POSTGRES names no PostgreSQL server (bash Scripts/test.sh starts a throwaway one)"))
struct PostgresReadTests {
    /// Items and Slots, and items 201… whose `amount` is text that is no number (written
    /// behind import's back).
    private func withItems(_ body: (StorePair) throws -> Void) throws {
        let adjust = nonNumbers.enumerated().map { i, text in
            (sql: "INSERT INTO \"Item\" (\"id\", \"amount\", \"_stub\") VALUES (?, ?, 0)",
             values: [StoredValue.integer(Int64(201 + i)), .text(text)])
        }
        try StorePair.with(itemsYAML, imports: [("Item", itemsJSON()), ("Slot", slotsJSON())], adjust: adjust, body)
    }

    /// Stores from random payloads of the generated mapping: every attribute type, owned
    /// targets, link columns and link tables, stubs, a composite and a uuid key.
    private func withGenerated(seed: UInt64, _ body: (StorePair) throws -> Void) throws {
        var generator = PayloadGenerator(seed: seed)
        let imports = [
            ("User", generator.users(14)), ("Repo", generator.repos(6)), ("User", generator.users(10)),
            ("Tag", generator.tags(4)), ("User", generator.users(6)),
        ]
        try StorePair.with(generatedMappingYAML, imports: imports, body)
    }

    // MARK: Filters

    static let userFilters = [
        "id = 3", "id != 3", "id < 10", "id <= 10", "id > 20", "id >= 20", "id IN (1, 2, 3, 40)", "id IS NULL",
        "id IS NOT NULL", "id = null", "id != null", "id = 1e1", "id IN (3, null)", "NOT id IN (3, null)",
        "login LIKE 'ana%'", "login LIKE 'ANA%'", "login < 'c'", "login >= 'chloé'", "login > 'zoë'", "login LIKE '%o%'",
        "login LIKE 'O''B%'", "login LIKE '_o%'", "login LIKE 'ZOË%'", "login LIKE 'zoë%'", "login LIKE 'CHLOÉ%'",
        "name = ''", "name IS NULL", "name != 'plain'", #"name LIKE '%\%'"#, "name LIKE '% %'", #"name = 'back\slash'"#,
        "name LIKE 'ÜNÏ%'", "name LIKE 'ünï%'", "name > 'line'", "name < 'O'", "name >= 'مرحبا'", "name LIKE '%_'",
        "email IS NOT NULL AND email != ''", "email LIKE 'PLAIN'",
        "createdAt > '2020-01-01'", "createdAt <= '2001-09-09T01:46:40Z'", "createdAt = null", "createdAt IS NOT NULL",
        "lastSeen < '2010-01-01T00:00:00.5Z'", "birthday >= '1990-01-01'", "joinedAt = '2021-02-01T00:00:00.5Z'",
        "joinedAt IN ('1970-01-01', '1969-12-31')", "joinedAt != '1970-01-01'", "createdAt LIKE '1%'",
        "isAdmin = true", "isAdmin = false", "isAdmin != true", "isAdmin < true", "isAdmin IN (true)", "NOT isAdmin = true",
        "isAdmin = 1", "isAdmin LIKE '1'", "isAdmin LIKE 'true'", "isAdmin > false",
        "score > 0", "score = -1.5", "score < 1e-6", "score IN (0, 3.14159)", "score != 71.25", "score >= -1.5 AND score <= 3.2",
        "score LIKE '%e%'", "score LIKE '-%'", "score LIKE '0.0'",
        "balance = 12.5", "balance = '12.50'", "balance > 0", "balance < 1000", "balance <= 1e3", "balance IN (-3, 0)",
        "balance != 0", "balance = 0.00", "balance >= -3.0", "balance = null", "balance LIKE '1%'", "NOT balance > 0",
        "homepage LIKE '%q=a%'", "homepage > 'https://example.com/u/5'", "homepage = 'https://example.com/u/1?q=a%20b'",
        "token IS NOT NULL", "token > '80000000-0000-0000-0000-000000000000'", "token LIKE '%a%'", "token LIKE '%A%'",
        "token < '8FFFFFFF-0000-0000-0000-000000000000'",
        "topics LIKE '%plain%'", "topics = '[]'", "topics IS NULL", "luckyNumbers LIKE '%-%'", "logins != '[]'",
        "prices LIKE '%4.90%'", #"prices = '["0.10"]'"#, "topics > '[\"p'",
        "meta IS NULL", "meta LIKE '{%'", "meta = '1.50'", "meta > '['", "meta = 12345678901234567890", "meta = true",
        "secret LIKE '%'", "level > 3", "level IN (1, 2)",
        "address.city = 'Oslo'", "address.city LIKE 'malm%'", "address.city LIKE 'MALMÖ'", "address.zip IS NULL",
        "previousAddresses.city = '東京'", "repos.name = 'plain'", "repos.stars > 1000", "repos.tags.name = 'swift'",
        "followers.login LIKE 'ana%'", "followers = 3", "bestFriend = 5", "bestFriend.login LIKE 'b%'",
        "bestFriend.address.city = 'Oslo'", "badges.kind = 'gold'", "badges.rank >= 2",
        "profile = '3F2504E0-4F89-41D3-9A0C-0305E82C3301'", "profile.motto IS NULL",
        "profile.id = '3f2504e0-4f89-41d3-9a0c-0305e82c3302'", "repos.contributors.login LIKE 'c1%'",
        "followers.followers.id > 10", "bestFriend.balance > 1", "NOT bestFriend.balance > 1",
        "NOT (score > 0)", "NOT name = 'plain'", "NOT (name LIKE 'p%')", "NOT (isAdmin = true OR score > 1)", "NOT NOT id = 3",
        "(id < 5 OR id > 25) AND NOT login LIKE 'a%'", "name = null OR NOT (email IS NULL)", "NOT address.city = 'Oslo'",
        "NOT followers.id = 3", "NOT (name != 'plain')", "NOT name != null", "NOT (score < 1 AND (balance > 0 OR name IS NULL))",
    ]

    static let otherFilters: [(entity: String, filter: String)] = [
        ("Repo", "owner = 3"), ("Repo", "owner.login LIKE 'a%'"), ("Repo", "tags.name IN ('swift', 'db')"),
        ("Repo", "language IS NULL"), ("Repo", "pushedAt > '2030-01-01'"), ("Repo", "contributors.id < 10"),
        ("Repo", "name LIKE '%'"), ("Repo", "NOT language = 'Swift'"), ("Repo", "stars >= 0 AND stars < 2500"),
        ("Tag", "name = 'swift'"), ("Tag", "name = 'Swift'"), ("Tag", "name IN ('SWIFT', 'db')"), ("Tag", "color IS NULL"),
        ("Tag", "repos.stars > 100"), ("Tag", "name < 'd'"), ("Tag", "name LIKE 'S%'"),
        ("Badge", "kind = 'gold' AND rank = 1"), ("Badge", "rank IN (0, 2)"), ("Badge", "title IS NULL"),
        ("Badge", "NOT kind > 'gold'"),
        ("Profile", "id = '3F2504E0-4F89-41D3-9A0C-0305E82C3301'"), ("Profile", "user.login LIKE 'a%'"),
        ("Profile", "motto LIKE '%''%'"), ("Profile", "id > '3f2504e0-4f89-41d3-9a0c-0305e82c3304'"),
        ("Profile", "id IN ('3f2504e0-4f89-41d3-9a0c-0305e82c3305', '3F2504E0-4F89-41D3-9A0C-0305E82C3306')"),
        ("Address", "city = 'Oslo'"), ("Address", "zip LIKE '1%'"), ("Address", "street IS NULL"),
        ("Address", "city > 'Oslo'"), ("Address", "NOT city LIKE 'o%'"),
    ]

    @Test(arguments: [3, 8])
    func everyFilterSelectsTheRowsSQLiteSelects(seed: UInt64) throws {
        try withGenerated(seed: seed) { pair in
            var selected = 0
            for filter in Self.userFilters {
                for excludesStubs in [false, true] {
                    let ids = try pair.expectSameRows("User", .filtered(filter, excludesStubs: excludesStubs), filter)
                    if !ids.isEmpty { selected += 1 }
                }
            }
            for (entity, filter) in Self.otherFilters {
                let ids = try pair.expectSameRows(entity, .filtered(filter, excludesStubs: true), filter)
                if !ids.isEmpty { selected += 1 }
            }
            // The filters are worth comparing: most of them select some rows and leave others.
            #expect(selected > Self.userFilters.count)
        }
    }

    @Test func ordersThroughToOneRelationshipsDescendingLimitsAndOffsetsMatch() throws {
        try withGenerated(seed: 5) { pair in
            let user = try pair.entity("User")
            var orders: [[(field: String, descending: Bool)]] = user.spec.attributes.flatMap { [[($0.name, false)], [($0.name, true)]] }
            orders += [
                [("address.city", false)], [("address.zip", true)], [("bestFriend.login", false)],
                [("bestFriend.bestFriend.score", true)], [("profile.motto", false)], [("bestFriend.address.city", true)],
                [("bestFriend.balance", false)], [("score", true), ("name", false)], [("balance", false), ("id", true)],
                [("name", false), ("name", true), ("login", true)], [("isAdmin", true), ("createdAt", false)],
            ]
            let pages: [(limit: Int?, offset: Int?)] = [(nil, nil), (5, nil), (nil, 3), (5, 3), (0, 0), (-1, 2), (3, -2), (100, 100)]
            for order in orders {
                for (limit, offset) in pages {
                    let label = "\(order) limit \(limit.map(String.init) ?? "-") offset \(offset.map(String.init) ?? "-")"
                    try pair.expectSameRows("User", .filtered(order: order, limit: limit, offset: offset), label)
                }
                try pair.expectSameRows("User", .filtered("score > 0 OR name IS NULL", order: order, limit: 4, offset: 1, excludesStubs: true), "\(order) filtered")
            }
            for entity in ["Repo", "Tag", "Badge", "Profile", "Address"] {
                for attribute in try pair.entity(entity).spec.attributes {
                    for descending in [false, true] {
                        try pair.expectSameRows(entity, .filtered(order: [(attribute.name, descending)], limit: 7, offset: 1), "\(attribute.name) \(descending)")
                    }
                }
            }
            try pair.expectSameRows("Repo", .filtered(order: [("owner.login", true), ("owner.address.city", false)]), "owner paths")
        }
    }

    // MARK: LIKE

    @Test func likeFoldsOnlyASCIILettersAndTreatsBackslashesAsText() throws {
        try withItems { pair in
            let patterns = [
                "ä%", "Ä%", "är%", "ÄR%", "ärger", "abc", "ABC", "a_c", #"a\_c"#, #"a\%"#, #"%\%"#, #"%\\%"#, #"a\c"#, #"a\\c"#,
                #"100\%"#, "100%", "%%", "_", "__", "", "%", "%'%", "STRASSE", "strasse", "ß", "%SS%", "日_", "_本", "ǆ", "ǅ",
                "a%", "%c", "A_C%", "_b_", "%b%d",
            ]
            for pattern in patterns {
                let filter = "label LIKE \(Self.quoted(pattern))"
                try pair.expectSameRows("Item", .filtered(filter), filter)
                try pair.expectSameRows("Item", .filtered("NOT " + filter), "NOT " + filter)
            }
            func labelsMatching(_ pattern: String) throws -> [String] {
                let ids = try pair.postgres.rowIDs(try pair.entity("Item"), .filtered("label LIKE \(Self.quoted(pattern))"), plan: pair.plan)
                return ids.map { labels[Int($0 - 1) % labels.count] ?? "NULL" }
            }
            // Only ASCII letters fold; `\` is an ordinary character; `%` and `_` are wildcards.
            #expect(try Set(labelsMatching("ä%")) == ["ärger"])
            #expect(try Set(labelsMatching("ÄRGER")) == ["Ärger", "ÄRGER"])
            #expect(try Set(labelsMatching("abc")) == ["abc", "ABC", "aBc"])
            #expect(try Set(labelsMatching(#"a\c"#)) == [#"a\c"#])
            #expect(try Set(labelsMatching(#"a\%"#)) == [#"a\c"#, #"a\\c"#, "a\\%"])
            #expect(try Set(labelsMatching("a_c")) == ["abc", "ABC", "aBc", "a%c", "a_c", #"a\c"#])
            #expect(try Set(labelsMatching("strasse")) == ["STRASSE"])
        }
    }

    @Test func likeOnNumbersBooleansDatesAndUUIDsMatchesTheTextSQLiteReads() throws {
        try withItems { pair in
            let item = try pair.entity("Item")
            // Each row's own text as SQLite prints it, as a pattern that matches it exactly.
            let printed = try pair.sqliteEngine.rows(
                "SELECT DISTINCT CAST(\"ratio\" AS TEXT), CAST(\"at\" AS TEXT), CAST(\"id\" AS TEXT) FROM \(item.table)", [])
            var patterns: Set<String> = ["%e+%", "%e-%", "%.0", "-%", "1%", "%5", "0.0", "%e+15", "1.0e+20", "17040%"]
            for row in printed {
                for case .text(let text) in row { patterns.insert(text) }
            }
            for pattern in patterns.sorted() {
                for field in ["ratio", "at", "id"] {
                    let filter = "\(field) LIKE \(Self.quoted(pattern))"
                    try pair.expectSameRows("Item", .filtered(filter), filter)
                }
            }
            for filter in ["flag LIKE '1'", "flag LIKE '0'", "flag LIKE 'true'", "flag LIKE '%'", "token LIKE '%ab%'",
                           "token LIKE '%AB%'", "token LIKE '3_2%'", "data LIKE '{%'", "words LIKE '%w1%'", "site LIKE '%?q=1'",
                           "amount LIKE '1%'", "amount LIKE '%e%'"] {
                try pair.expectSameRows("Item", .filtered(filter), filter)
            }
        }
    }

    /// (SQLite 3.40 rounds some doubles whose 16th digit is a tie otherwise, see README's
    /// Storage; the seed's doubles hold none.)
    @Test func likeOnRandomDoublesMatchesSQLitesFifteenDigitText() throws {
        var random = SeededGenerator(seed: 42)
        var values: [Double] = []
        while values.count < 300 {
            let value = values.count.isMultiple(of: 2)
                ? Double(bitPattern: random.next())
                : Double(Int64(bitPattern: random.next()) % 10_000_000_000) / [1, 10, 1000, 1e6, 1e12][values.count % 5]
            if value.isFinite { values.append(value) }
        }
        let json = "[" + values.enumerated().map { #"{"id": \#($0 + 1), "ratio": \#($1)}"# }.joined(separator: ",") + "]"
        try StorePair.with(itemsYAML, imports: [("Item", json)]) { pair in
            let item = try pair.entity("Item")
            let printed = try pair.sqliteEngine.rows("SELECT \"id\", CAST(\"ratio\" AS TEXT) FROM \(item.table) ORDER BY 1", [])
            var mismatches: [String] = []
            for row in printed {
                guard case .text(let text) = row[1] else { continue }
                let selection = try RecordReader.Selection.filtered("ratio LIKE \(Self.quoted(text))")
                let ids = try pair.postgres.rowIDs(item, selection, plan: pair.plan)
                if !ids.contains(row[0].integer.map(Int64.init) ?? 0) { mismatches.append(text) }
                #expect(try ids == pair.sqliteEngine.rowIDs(item, selection, plan: pair.plan), "ratio LIKE '\(text)'")
            }
            #expect(mismatches.isEmpty, "SQLite texts PostgreSQL did not match: \(mismatches)")
        }
    }

    @Test func aDateInAFilterIsRoundedToTheMicrosecondOnEveryStore() throws {
        try withItems { pair in
            let item = try pair.entity("Item")
            let stored = try #require(try pair.sqliteEngine.rows("SELECT \"at\" FROM \(item.table) WHERE \"id\" = 1", []).first?.first)
            guard case .real(let seconds) = stored else { throw StoreError(.other, "no date in item 1") }
            // Item 1's date has no fraction: a literal 0.4 µs later is the same microsecond.
            let later = DateCoding.format(seconds, format: .iso8601).dropLast() + ".0000004Z"
            let selection = try RecordReader.Selection.filtered("at = '\(later)'")
            #expect(try pair.postgres.rowIDs(item, selection, plan: pair.plan) == [1])
            #expect(try pair.sqliteEngine.rowIDs(item, selection, plan: pair.plan) == [1])
        }
    }

    // MARK: Decimals

    @Test func decimalsCompareAndSortByValueWhateverTheirDigitsWithNonNumbersLast() throws {
        try withItems { pair in
            let item = try pair.entity("Item")
            for descending in [false, true] {
                for (limit, offset) in [(nil, nil), (10, 5)] as [(Int?, Int?)] {
                    try pair.expectSameRows("Item", .filtered(order: [("amount", descending)], limit: limit, offset: offset), "amount \(descending)")
                }
                try pair.expectSameRows("Item", .filtered(order: [("parent.amount", descending)]), "parent.amount \(descending)")
                try pair.expectSameRows("Slot", .filtered(order: [("price", descending)]), "price \(descending)")
            }
            let filters = [
                "amount = 10.5", "amount = '10.50'", "amount != 10.5", "amount < 0", "amount <= 0", "amount > 1e400",
                "amount >= 1E400", "amount IN (10.5, 0, -1e-400)", "NOT amount IN (10.5, 0)", "amount = -0", "amount = 0",
                "amount > 1e1125899906842624", "amount >= 1e1125899906842624", "amount < -1e400", "amount > -10.5",
                "amount < 0.1000000000000000000000000001", "amount > 0.1", "amount = 1e99999999999999999999",
                "amount >= 123456789012345678901234567890.123456789", "amount = null", "amount != null", "NOT amount > 1",
                "amount < 3 AND amount > -1", "parent.amount > 1", "parts.amount = 10.5", "amount > 1e-99999999999999999999",
            ]
            for filter in filters { try pair.expectSameRows("Item", .filtered(filter), filter) }
            for filter in ["price = 1.5", "price > 1", "price IN (1e3, -2)", "NOT price = 1.50"] {
                try pair.expectSameRows("Slot", .filtered(filter), filter)
            }

            // The order is DecimalOrder's, ties broken by key, non-numbers last in byte order.
            let stored = try pair.sqliteEngine.rows("SELECT \"id\", \"amount\" FROM \(item.table)", [])
            let expected = stored.sorted { a, b in
                switch (a[1], b[1]) {
                case (.null, .null): return a[0].integer! < b[0].integer!
                case (.null, _): return true
                case (_, .null): return false
                case (.text(let x), .text(let y)):
                    var x = x, y = y
                    let order = x.withUTF8 { x in y.withUTF8 { y in DecimalOrder.compare(x, y) } }
                    return order != 0 ? order < 0 : a[0].integer! < b[0].integer!
                default: return false
                }
            }.map { Int64($0[0].integer!) }
            #expect(try pair.postgres.rowIDs(item, .filtered(order: [("amount", false)]), plan: pair.plan) == expected)
            let tenAndAHalf = try pair.postgres.rowIDs(item, .filtered("amount = 10.5"), plan: pair.plan)
            #expect(tenAndAHalf.map { amounts[Int($0 - 1) % amounts.count] } == ["10.5", "10.50", "1.05e1", "105e-1"])
        }
    }

    // MARK: Keys

    @Test func keyListsAndKeyOrderPagesSelectThePrimaryKeysOfEveryType() throws {
        try withItems { pair in
            try Self.expectSameKeySelections(pair, entities: ["Item", "Slot"])
        }
        try withGenerated(seed: 4) { pair in
            try Self.expectSameKeySelections(pair, entities: ["User", "Repo", "Tag", "Badge", "Profile"])
            // An owned entity pages in row-id order.
            let address = try pair.entity("Address")
            try Self.expectSamePages(pair, address, filter: nil, keys: [])
            try Self.expectSamePages(pair, address, filter: try FilterParser.parse("city != 'Oslo'"), keys: [])
        }
    }

    private static func expectSameKeySelections(_ pair: StorePair, entities: [String]) throws {
        for name in entities {
            let entity = try pair.entity(name)
            let rows = try pair.allRows(name)
            let keys = try pair.sqliteEngine.keyValues(of: entity, rows: rows).map(\.1)
            #expect(keys.count == rows.count)
            var random = SeededGenerator(seed: UInt64(rows.count))
            let some = keys.filter { _ in random.next() % 3 == 0 }
            let missing = keys.prefix(3).map { key in
                zip(key, entity.spec.keyAttributes).map { value, attribute -> StoredValue in
                    switch value {
                    case .integer(let v): return attribute.type == .scalar(.bool) ? value : .integer(v + 100_000)
                    case .real(let v): return .real(v + 0.125)
                    case .text(let s): return .text(s.count == 36 ? "00000000-0000-0000-0000-000000000000" : s + "?")
                    case .null: return .null
                    }
                }
            }
            let lists: [(String, [[StoredValue]])] = [
                ("all", keys), ("some", some), ("missing", missing), ("some and missing", some + missing), ("none", []),
                ("repeated", Array(keys.prefix(2)) + Array(keys.prefix(2))),
            ]
            for (label, list) in lists {
                var selection = RecordReader.Selection()
                selection.ids = list
                try pair.expectSameRows(name, selection, "\(label) keys")
                selection.order = [(entity.spec.attributes[1].name, true)]
                selection.limit = 5
                try pair.expectSameRows(name, selection, "\(label) keys, ordered, limited")
                try expectSamePages(pair, entity, filter: nil, keys: list)
            }
            try expectSamePages(pair, entity, filter: try FilterParser.parse("\(entity.spec.attributes[1].name) IS NOT NULL"), keys: some)
        }
    }

    /// Pages through `entity` three rows at a time in both stores, expecting the same pages.
    private static func expectSamePages(
        _ pair: StorePair, _ entity: EntityPlan, filter: FilterExpression?, keys: [[StoredValue]],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        var after: [StoredValue]? = nil
        var pages = 0
        repeat {
            let expected = try pair.sqliteEngine.keyOrderPage(entity, filter: filter, keys: keys, after: after, limit: 3, plan: pair.plan)
            let page = try pair.postgres.keyOrderPage(entity, filter: filter, keys: keys, after: after, limit: 3, plan: pair.plan)
            #expect(page.rows == expected.rows, "\(entity.spec.name) page \(pages)", sourceLocation: sourceLocation)
            #expect(page.lastKey == expected.lastKey, "\(entity.spec.name) page \(pages)", sourceLocation: sourceLocation)
            after = expected.lastKey
            pages += 1
        } while after != nil && pages < 1000
    }

    // MARK: Rows and links

    @Test(arguments: [2, 9])
    func rowsValuesAndLinksReadTheSameForDenseScatteredAndMissingRows(seed: UInt64) throws {
        try withGenerated(seed: seed) { pair in
            try Self.expectSameRowReads(pair, entities: pair.plan.entities.map(\.spec.name))
        }
    }

    @Test func rowsOfEveryTypeAndLinksInLinkOrderReadTheSame() throws {
        try withItems { pair in
            try Self.expectSameRowReads(pair, entities: ["Item", "Slot"])
            // Parts come in link order, not key order.
            let item = try pair.entity("Item")
            let parts = try #require(item.relationships.first { $0.spec.name == "parts" })
            var links: [Int64] = []
            try pair.postgres.forEachLink(parts, of: item, rows: [2], plan: pair.plan) { links.append($1) }
            #expect(links == [6, 4, 12])
        }
    }

    private static func expectSameRowReads(_ pair: StorePair, entities: [String]) throws {
        for name in entities {
            let entity = try pair.entity(name)
            let rows = try pair.allRows(name)
            let last = rows.last ?? 0
            var random = SeededGenerator(seed: UInt64(rows.count) + 1)
            let lists: [(String, [Int64])] = [
                ("dense", rows), ("scattered", rows.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)),
                ("random, unsorted, repeated", rows.filter { _ in random.next() % 2 == 0 }.reversed() + rows.prefix(2)),
                ("with missing", [last + 1, -5] + rows.suffix(4) + [last + 1000]), ("one", Array(rows.prefix(1))), ("none", []),
                ("dense with a gap", rows.filter { $0 != rows.dropFirst().first }),
            ]
            for (label, list) in lists {
                let context = "\(name), \(label) rows"
                let expectedRows = try pair.sqliteEngine.storedRows(entity, rows: list)
                let storedRows = try pair.postgres.storedRows(entity, rows: list)
                #expect(storedRows.mapValues(\.values) == expectedRows.mapValues(\.values), "\(context): stored rows")
                #expect(storedRows.mapValues(\.isStub) == expectedRows.mapValues(\.isStub), "\(context): stubs")
                for meta in [false, true] {
                    #expect(
                        try pair.postgres.attributeRows(entity, rows: list, meta: meta)
                            == pair.sqliteEngine.attributeRows(entity, rows: list, meta: meta), "\(context): attributes, meta \(meta)")
                }
                var values: [StoredValue] = [], expectedValues: [StoredValue] = []
                let found = try pair.postgres.readRows(of: entity, list, into: &values)
                #expect(found == (try pair.sqliteEngine.readRows(of: entity, list, into: &expectedValues)), "\(context): rows read")
                #expect(values == expectedValues, "\(context): values read")
                for relationship in entity.relationships {
                    var links: [Int64] = [], expectedLinks: [Int64] = []
                    try pair.postgres.forEachLink(relationship, of: entity, rows: list, plan: pair.plan) { links += [$0, $1] }
                    try pair.sqliteEngine.forEachLink(relationship, of: entity, rows: list, plan: pair.plan) { expectedLinks += [$0, $1] }
                    #expect(links == expectedLinks, "\(context): links of \(relationship.spec.name)")
                }
                if !entity.spec.isOwned {
                    let keys = try pair.postgres.keyValues(of: entity, rows: list)
                    let expectedKeys = try pair.sqliteEngine.keyValues(of: entity, rows: list)
                    #expect(keys.map(\.0) == expectedKeys.map(\.0) && keys.map(\.1) == expectedKeys.map(\.1), "\(context): keys")
                }
            }
        }
    }

    // MARK: Errors

    @Test func aFilterTheMappingsRefuseThrowsSQLitesErrorBeforeAnyStatementRuns() throws {
        try withGenerated(seed: 1) { pair in
            let first = pair.postgres.handOverCount
            var handOvers: Int { pair.postgres.handOverCount - first }
            let refused: [(entity: String, filter: String)] = [
                ("User", "nmae = 'x'"), ("User", "address.country = 'x'"), ("User", "badges = 1"), ("User", "createdAt > 'soon'"),
                ("User", "id = 'x'"), ("User", "score < true"), ("User", "token = 'not-a-uuid'"), ("User", "balance > 'many'"),
                ("User", "repos.tags.colour IS NULL"), ("Repo", "owner.nope LIKE 'a'"), ("Address", "user = 1"),
                ("User", Array(repeating: "bestFriend", count: 33).joined(separator: ".") + ".id = 1"),
            ]
            for (name, text) in refused {
                let entity = try pair.entity(name)
                let selection = try RecordReader.Selection.filtered(text)
                let expected = try Self.filterError { try pair.sqliteEngine.rowIDs(entity, selection, plan: pair.plan) }
                #expect(expected != nil, "SQLite refuses \(text)")
                #expect(try Self.filterError { try pair.postgres.rowIDs(entity, selection, plan: pair.plan) } == expected, "\(text)")
                #expect(try Self.filterError { try pair.postgres.count(entity, selection, plan: pair.plan) } == expected, "\(text)")
                #expect(try Self.filterError { try pair.postgres.compiledQuery(entity, selection, plan: pair.plan) } == expected, "\(text)")
                #expect(
                    try Self.filterError {
                        try pair.postgres.keyOrderPage(entity, filter: selection.filter, keys: [], after: nil, limit: 5, plan: pair.plan)
                    } == expected, "\(text)")
            }
            #expect(handOvers == 0)
            _ = try pair.postgres.rowIDs(try pair.entity("User"), .filtered("id = 1"), plan: pair.plan)
            #expect(handOvers == 1)
        }
    }

    private static func filterError(_ body: () throws -> Any) throws -> FilterError? {
        do {
            _ = try body()
            return nil
        } catch let error as FilterError {
            return error
        }
    }

    /// `text` as a filter's single-quoted string.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
