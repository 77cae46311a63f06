import Foundation
import Testing

@testable import JSONImport

/// The set-based import path of the PostgreSQL store: a batch's round trips do not grow with
/// its records, records left out under `skip` take no savepoint on the server, and every
/// import stores what SQLite stores.
@Suite(
    .tags(.postgres),
    .enabled(
        if: TestPostgres.url != nil,
        "JSONIMPORT_TEST_POSTGRES names no PostgreSQL server (bash Scripts/test.sh starts a throwaway one)"))
struct PostgresImportRowsTests {
    static let yaml = """
        version: 1
        entities:
          User:
            primaryKey: id
            attributes: { id: int, login: string, score: double, joined: date }
            relationships:
              address:   { to: Address, kind: one }
              repos:     { to: Repo, kind: many }
              followers: { to: User, kind: many, key: follower_ids, by: id }
          Address:
            attributes: { city: string }
          Repo:
            primaryKey: id
            cleanup: orphans
            attributes: { id: int, name: string }
            relationships:
              owner: { to: User, kind: one, inverse: repos }
              tags:  { to: Tag, kind: many }
          Tag:
            primaryKey: name
            attributes: { name: string }
        """

    /// Import options that read a payload in batches of about 1,000 JSON nodes.
    static var inBatches: ImportOptions {
        var options = ImportOptions.default
        options.parseAhead = .init(fromSize: 0, batchNodes: 1_000)
        return options
    }

    /// `count` users, each with an address, two repos with tags shared among users, and
    /// followers of whom some are not in the payload (stubs). `round` changes every third
    /// user's fields, address, repos and followers.
    static func users(_ count: Int, round: Int = 0) -> String {
        let records = (1...count).map { i in
            let changed = round > 0 && i % 3 == 0
            let login = changed ? "user\(i)-\(round)" : "user\(i)"
            let repos = (0..<2).map { r in
                let id = i * 10 + r + (changed && r == 1 ? 5 : 0)
                return #"{"id": \#(id), "name": "r\#(id)", "tags": [{"name": "t\#((i + r) % 9)"}, {"name": "u\#(i % 50)"}]}"#
            }
            let followers = changed ? [i + 1, count + i] : [i % count + 1, count + 2 * i, 1]
            return #"{"id": \#(i), "login": "\#(login)", "score": \#(Double(i) / 4), "joined": "2024-01-0\#(i % 9 + 1)T10:00:00.123456Z", "#
                + #""address": {"city": "\#(changed ? "Oslo" : "Rome")"}, "repos": [\#(repos.joined(separator: ", "))], "#
                + #""follower_ids": \#(followers)}"#
        }
        return "[" + records.joined(separator: ",\n") + "]"
    }

    /// A mapper on a SQLite store in memory and one on the PostgreSQL schema at `url`.
    private static func mappers(_ url: String) throws -> (sqlite: Mapper, postgres: Mapper) {
        let spec = try MappingSpec.load(yaml: yaml, file: "test.yml")
        return (try Mapper(spec: spec, store: .inMemory), try Mapper(spec: spec, store: .postgres(URL(string: url)!)))
    }

    private static func engine(_ mapper: Mapper) throws -> PostgresEngine {
        try #require(mapper.store.withLock { $0.engine as? PostgresEngine })
    }

    /// The statements `connection` ran or prepared for the first time while `body` ran.
    private static func statementsPrepared(on connection: PostgresConnection, _ body: () throws -> Void) throws -> [String] {
        connection.statementLog = []
        try body()
        return try #require(connection.statementLog)
    }

    /// Imports `json` into both stores and expects the same report counts and the same export.
    @discardableResult
    private static func importBoth(
        _ json: String, _ mappers: (sqlite: Mapper, postgres: Mapper), options: ImportOptions = .default,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> ImportReport {
        let expected = try mappers.sqlite.importData(Data(json.utf8), as: "User", options: options)
        let report = try mappers.postgres.importData(Data(json.utf8), as: "User", options: options)
        for entity in ["User", "Address", "Repo", "Tag"] {
            #expect(report.counts(for: entity) == expected.counts(for: entity), "\(entity)", sourceLocation: sourceLocation)
        }
        #expect(report.skipped == expected.skipped, sourceLocation: sourceLocation)
        #expect(report.errors.map(\.description) == expected.errors.map(\.description), sourceLocation: sourceLocation)
        for entity in ["User", "Repo", "Tag"] {
            let request = ExportRequest(entity: entity, depth: 3)
            let exported = String(decoding: try mappers.postgres.exportData(request), as: UTF8.self)
            #expect(exported == String(decoding: try mappers.sqlite.exportData(request), as: UTF8.self), "\(entity)",
                sourceLocation: sourceLocation)
        }
        return report
    }

    @Test func aBatchTakesAsManyRoundTripsForHundredsOfRecordsAsForAFew() throws {
        var trips: [[Int]] = []
        for count in [12, 600] {
            try TestPostgres.withSchema { url, _ in
                let mappers = try Self.mappers(url)
                try Self.importBoth(Self.users(count), mappers)
                let rows = try Self.engine(mappers.postgres).rowPath
                var counts: [Int] = []
                for round in 1...2 {
                    let start = rows.roundTrips
                    try Self.importBoth(Self.users(count, round: round), mappers)
                    counts.append(rows.roundTrips - start)
                }
                trips.append(counts)
            }
        }
        #expect(trips[0] == trips[1], "round trips of the row path per import, by size")
        #expect(trips[0].allSatisfy { $0 <= 40 }, "\(trips[0])")
    }

    /// Link tables' lists that the import changed are read back at its end, to count their
    /// sources by net effect: hundreds of them in one round trip, as the row path reads ahead.
    @Test func listsReadAheadTakeOneRoundTripForHundredsOfSources() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(600), mappers)
            let rows = try Self.engine(mappers.postgres).rowPath
            let followers = try #require(mappers.postgres.store.withLock { $0.plan }.entity(named: "User")?.relationships.first {
                $0.spec.name == "followers"
            })
            let start = rows.roundTrips
            try mappers.postgres.store.withLock { _ in
                try rows.readAhead(lists: followers, of: (1...600).map(Int64.init))
                let lists = try (1...600).map { try rows.linkedRows(followers, of: Int64($0)) }
                #expect(lists[0] == [2, 602, 1], "user 1's followers, in their order")
            }
            #expect(rows.roundTrips - start == 1)
        }
    }

    /// Rows of an entity with a `unique` attribute go with the others' hand-over, their values
    /// checked on the client, whether they give the attribute a value or not: before, each went
    /// to the server at once, in a savepoint (150,000 rows took 41 s against SQLite's 3 s). A
    /// taken value is refused at its record, as on SQLite, whether given on insert or by a
    /// later change of a row the server does not hold yet.
    @Test func rowsGivingNoUniqueValueAreHandedOverWithTheOthers() throws {
        let yaml = """
            entities:
              Member:
                primaryKey: id
                attributes: { id: int, name: string, code: { type: string, unique: true } }
            """
        let spec = try MappingSpec.load(yaml: yaml, file: "unique.yml")
        func members(_ count: Int, coded: Set<Int>) -> String {
            "[" + (1...count).map { i in
                coded.contains(i) ? #"{"id": \#(i), "name": "m\#(i)", "code": "c\#(i % 3)"}"# : #"{"id": \#(i), "name": "m\#(i)"}"#
            }.joined(separator: ", ") + "]"
        }
        var trips: [Int] = []
        for count in [12, 600] {
            try TestPostgres.withSchema { url, _ in
                let postgres = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
                let rows = try Self.engine(postgres).rowPath
                let start = rows.roundTrips
                try postgres.importData(Data(members(count, coded: []).utf8), as: "Member")
                trips.append(rows.roundTrips - start)
            }
        }
        #expect(trips[0] == trips[1], "\(trips)")
        // Codes given on insert and by a later change of a row the server does not hold yet;
        // a code taken is refused at its record, as on SQLite.
        let payload = members(9, coded: [2, 3, 5]).dropLast() + #", {"id": 1, "code": "c9"}, {"id": 4, "code": "c9"}]"#
        var options = ImportOptions.default
        options.onError = .skip
        try TestPostgres.withSchema { url, _ in
            let sqlite = try Mapper(spec: spec, store: .inMemory)
            let postgres = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
            let expected = try sqlite.importData(Data(payload.utf8), as: "Member", options: options)
            let report = try postgres.importData(Data(payload.utf8), as: "Member", options: options)
            #expect(report.errors.map(\.description) == expected.errors.map(\.description))
            #expect(report.errors.count == 2, "\(report.errors)")
            let request = ExportRequest(entity: "Member", depth: 0)
            #expect(try postgres.exportData(request) == sqlite.exportData(request))
        }
    }

    /// Repos point at their owner: a re-import reads them with their users (by `owner`), not a
    /// second time by their keys; a repo that moves to a user whose batch does not hold its old
    /// owner is read by its key, after the owners' repos.
    @Test func reposAreReadWithTheirOwnersAndByKeyOnlyWhenTheyMoved() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(600), mappers)
            let connection = try Self.engine(mappers.postgres).connection
            let reads = try Self.statementsPrepared(on: connection) { try Self.importBoth(Self.users(600), mappers) }
                .filter { $0.hasPrefix("SELECT ") && $0.contains(#"FROM "Repo" AS r"#) }
            #expect(reads.contains { $0.contains(#"WHERE r."owner" = ANY"#) })
            #expect(reads.allSatisfy { $0.contains(#"WHERE r."owner" = ANY"#) }, "\(reads)")
            // User 2's repo 20 moves to user 1, alone in its batch.
            let log = try Self.statementsPrepared(on: connection) {
                let moved = try Self.importBoth(
                    #"[{"id": 1, "login": "user1", "repos": [{"id": 10, "name": "r10"}, {"id": 20, "name": "moved"}]}]"#, mappers)
                #expect(moved.counts(for: "Repo").list[1] == 1, "repo 20 updated")
            }
            #expect(log.contains { $0.hasPrefix("SELECT ") && $0.contains(#"FROM "Repo" AS r WHERE r."id""#) })
        }
    }

    /// A key that is the row id names its row before the row is read: a re-import reads the
    /// users' repos (by `owner`), follower lists and the repos' tag lists with the users
    /// themselves, before what needs the users' rows (their addresses, through a link column).
    @Test func relationsOfRowsKeyedByTheirIDAreReadWithTheKeys() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(40), mappers)
            let connection = try Self.engine(mappers.postgres).connection
            let reads = try Self.statementsPrepared(on: connection) { try Self.importBoth(Self.users(40, round: 1), mappers) }
                .filter { $0.hasPrefix("SELECT ") }
            func first(_ fragment: String) throws -> Int { try #require(reads.firstIndex { $0.contains(fragment) }, "\(fragment)") }
            let addresses = try first(#"FROM "Address" AS r"#)
            for withKeys in [#"FROM "Repo" AS r WHERE r."owner""#, #"FROM "User_followers""#, #"FROM "Repo_tags""#] {
                #expect(try first(withKeys) < addresses, "\(withKeys)")
            }
        }
    }

    /// Once the references of a re-import have read a thousand rows one by one, the ids of all
    /// the users are read instead, and the references after link to stored users, stored stubs
    /// and new stubs as SQLite's do.
    @Test func referencesFoundAmongTheServersIdsLinkAsOnSQLite() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(1_500), mappers)
            let rows = try Self.engine(mappers.postgres).rowPath
            try Self.importBoth(Self.users(1_500, round: 1), mappers, options: Self.inBatches)
            #expect(rows.serverIDsTaken == 1)
            try Self.importBoth(Self.users(1_500, round: 2), mappers)
            #expect(rows.serverIDsTaken == 2, "read again in a new transaction")
        }
    }

    /// The ids of every row, read with a limit: a table the statistics count more rows in is
    /// not read, and a read that reaches the limit is dropped; below it, the cache knows which
    /// keys name rows, until a deletion makes it forget, and a read planned before is dropped.
    @Test func theServersIdsAreKeptOnlyWhenTheyAreAll() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(100), mappers)
            let engine = try Self.engine(mappers.postgres)
            let user = try #require(mappers.postgres.store.withLock { $0.plan.entity(named: "User") })
            try mappers.postgres.write {
                let rows = engine.rowPath
                let users = rows.cache.rows(user)
                // 200 rows counted by the statistics (100 users, 100 stubs), 300 stored.
                try engine.connection.execute("ANALYZE \"User\"")
                try engine.connection.execute(#"INSERT INTO "User" ("id", "_stub") SELECT g, true FROM generate_series(1001, 1100) AS g"#)
                try rows.run(rows.serverIDsLoad(users, limit: 250))
                #expect(users.serverIDs == nil, "more rows than the limit")
                try rows.run(rows.serverIDsLoad(users, limit: 150))
                #expect(users.serverIDs == nil, "the statistics count more rows")
                try rows.run(rows.serverIDsLoad(users, limit: 300))
                #expect(users.serverIDs?.count == 300)
                #expect(users.serverHolds(1) == true && users.serverHolds(1_050) == true && users.serverHolds(7_000) == false)
                #expect(try rows.rowID(user, key: [.integer(7_000)]) == nil)
                #expect(try rows.rowID(user, key: [.integer(1_050)]) == 1_050)
                #expect(!users.holds(1_050), "not read")
                rows.cache.forgetEachEntry()
                #expect(users.serverIDs == nil)
                let planned = rows.serverIDsLoad(users, limit: 300)
                rows.cache.distrustServerIDs()
                try rows.run(planned)
                #expect(users.serverIDs == nil, "read as planned before they stopped being trusted")
                try rows.run(rows.serverIDsLoad(users, limit: 300))
                #expect(users.serverIDs?.count == 300)
            }
        }
    }

    /// A user deleted in a transaction that read the ids of every user: a later reference to it
    /// makes a stub, as on SQLite, whether the cache forgets everything or forgets its entries
    /// one by one inside an open scope.
    @Test func aReferenceToARowDeletedAfterTheServersIdsWereReadMakesAStub() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(1_500), mappers)
            let rows = try Self.engine(mappers.postgres).rowPath
            let reference = #"[{"id": 1, "login": "one", "follower_ids": [1502, 4000]}]"#
            var exports: [String] = []
            for mapper in [mappers.sqlite, mappers.postgres] {
                try mapper.write {
                    try mapper.importData(Data(Self.users(1_500, round: 1).utf8), as: "User", options: Self.inBatches)
                    try mapper.write {
                        try mapper.delete("User", ids: ["1502", "4000"])
                        try mapper.importData(Data(reference.utf8), as: "User")
                    }
                }
                exports.append(String(decoding: try mapper.exportData(ExportRequest(entity: "User", depth: 1)), as: UTF8.self))
            }
            #expect(rows.serverIDsTaken == 1)
            #expect(exports[0] == exports[1])
            #expect(exports[1].contains("1502"))
        }
    }

    /// Imports in one transaction after a prune: the second finds the rows the prune deleted
    /// gone, though the first import read them (user 2, a follower, is pruned), and finds them
    /// again when the prune's scope was undone, as on SQLite.
    @Test func anImportAfterAPruneInOneTransactionFindsThePrunedRowsGone() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(6), mappers)
            var prune = ImportOptions.default
            prune.prune = true
            let first = #"[{"id": 1, "login": "one", "follower_ids": [2]}]"#
            let second = #"[{"id": 2, "login": "two", "repos": [{"id": 20, "name": "r20"}]}]"#
            var reports: [[String]] = []
            for mapper in [mappers.sqlite, mappers.postgres] {
                try mapper.write {
                    try mapper.importData(Data(first.utf8), as: "User", options: prune)
                    let report = try mapper.importData(Data(second.utf8), as: "User")
                    reports.append(["User", "Repo"].map { "\($0) \(report.counts(for: $0))" })
                }
            }
            #expect(reports[0] == reports[1])
            // A prune undone with its scope: user 3, a follower, stays stored.
            let third = #"[{"id": 4, "login": "four", "follower_ids": [3]}]"#
            let fourth = #"[{"id": 3, "login": "three"}]"#
            reports = []
            struct Undone: Error {}
            for mapper in [mappers.sqlite, mappers.postgres] {
                try mapper.write {
                    #expect(throws: Undone.self) {
                        try mapper.write {
                            try mapper.importData(Data(third.utf8), as: "User", options: prune)
                            throw Undone()
                        }
                    }
                    let report = try mapper.importData(Data(fourth.utf8), as: "User")
                    reports.append(["User", "Repo"].map { "\($0) \(report.counts(for: $0))" })
                }
            }
            #expect(reports[0] == reports[1])
            // Both imports inside a scope of their own, which stays open between them: the
            // cache forgets its entries one by one, into the scope's journal.
            let fifth = #"[{"id": 5, "login": "five", "follower_ids": [6, 1]}]"#
            let sixth = #"[{"id": 1, "login": "again", "repos": [{"id": 60, "name": "r60"}]}]"#
            reports = []
            for mapper in [mappers.sqlite, mappers.postgres] {
                try mapper.write {
                    try mapper.write {
                        try mapper.importData(Data(fifth.utf8), as: "User", options: prune)
                        let report = try mapper.importData(Data(sixth.utf8), as: "User")
                        reports.append(["User", "Repo"].map { "\($0) \(report.counts(for: $0))" })
                    }
                }
            }
            #expect(reports[0] == reports[1])
            for entity in ["User", "Repo", "Tag"] {
                let request = ExportRequest(entity: entity, depth: 3)
                #expect(try mappers.postgres.exportData(request) == mappers.sqlite.exportData(request), "\(entity)")
            }
        }
    }

    /// Ids are read as ranges where they lie close together, the others one by one; a range
    /// holds runs of at least four ids, and ids at the ends of `Int64` split without
    /// overflowing.
    @Test func idsSplitIntoRangesAndSingles() {
        let ranges = PostgresImportRows.IDRanges([30, 1, 2, 3, 4, 9, 100, 101, 102, 103, 118, -5, 7], gap: 16)
        #expect(ranges.lows == [-5, 100])
        #expect(ranges.highs == [9, 118])
        #expect(ranges.singles == [30])
        let apart = PostgresImportRows.IDRanges([1, 2, 3, 4, 40, 41, 42, 80], gap: 1)
        #expect(apart.lows == [1])
        #expect(apart.highs == [4])
        #expect(apart.singles == [40, 41, 42, 80])
        let (low, high) = (Int64.min, Int64.max)
        let ends = PostgresImportRows.IDRanges([low, low + 1, low + 2, low + 3, 0, high - 3, high - 2, high - 1, high], gap: 16)
        #expect(ends.lows == [low, high - 3])
        #expect(ends.highs == [low + 3, high])
        #expect(ends.singles == [0])
    }

    /// A payload naming every eighth user of a store that holds them all: its reads by id
    /// range over rows it did not ask for, which they pass over, and then narrow their ranges;
    /// the import ends as on SQLite.
    @Test func readsOfIdsFarApartNarrowTheirRanges() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            let options = Self.inBatches
            try Self.importBoth(Self.users(800), mappers, options: options)
            let rows = try Self.engine(mappers.postgres).rowPath
            try Self.importBoth(Self.users(800), mappers, options: options)
            #expect(rows.readGaps.isEmpty, "a re-import of every user wastes no row")
            try Self.importBoth(Self.users(800, round: 1), mappers, options: options)
            let sparse = stride(from: 8, through: 800, by: 8).map { i in
                #"{"id": \#(i), "login": "s\#(i)", "address": {"city": "Bern"}, "#
                    + #""repos": [{"id": \#(i * 10), "name": "s\#(i)", "tags": [{"name": "t1"}]}], "follower_ids": [\#(i + 1)]}"#
            }
            try Self.importBoth("[" + sparse.joined(separator: ",\n") + "]", mappers, options: options)
            #expect(rows.readGaps["\"User\".\"id\""].map { $0 < PostgresImportRows.widestGap } == true, "\(rows.readGaps)")
        }
    }

    /// A payload of several batches: each batch's first reads run while the batch before it is
    /// imported, before that batch's writes reach the server; what the batch before changed
    /// stands. Every user follows the one before and, the second time, is renamed and takes the
    /// repo of the one after, across the batches' bounds.
    @Test func readsForTheNextBatchRunWhileOneIsImported() throws {
        func users(_ round: Int) -> String {
            let records = (1...300).map { i in
                let repo = (round == 0 ? i : i + 1) * 10
                return #"{"id": \#(i), "login": "u\#(i)-\#(round)", "address": {"city": "c\#(round)"}, "#
                    + #""repos": [{"id": \#(repo), "name": "r\#(round)", "tags": [{"name": "t\#(i % 7)"}]}], "#
                    + #""follower_ids": \#(i > 1 ? [i - 1] : [])}"#
            }
            return "[" + records.joined(separator: ",\n") + "]"
        }
        let reads = try Self.reimportInBatches(users, counting: \.backgroundReads)
        #expect(reads >= 5, "batches whose first reads ran in the background")
    }

    /// The owned rows of a batch's records (their addresses) are read on the worker thread with
    /// the records' rows, before the batch begins: those of users read then, and those of users
    /// the cache held already (each user follows the next, read as a reference by the batch
    /// before). The first 100 users come again at the end, with another address. The 800
    /// records make 8 batches, the first of which reads before it begins.
    @Test func ownedRowsAreReadOnTheWorkerWithTheirOwnersRows() throws {
        func users(_ round: Int) -> String {
            let records = (0..<800).map { n in
                let i = n % 700 + 1
                return #"{"id": \#(i), "login": "u\#(i)", "address": {"city": "c\#(round)-\#(n)"}, "#
                    + #""follower_ids": [\#(i + 1)]}"#
            }
            return "[" + records.joined(separator: ",\n") + "]"
        }
        let reads = try Self.reimportInBatches(users, counting: \.followUpReads)
        #expect(reads >= 5, "addresses read on the worker")
    }

    /// Imports `users(0)` and then `users(1)` in batches into both stores (see
    /// ``importBoth(_:_:options:sourceLocation:)``); returns how much the PostgreSQL row path's
    /// `counter` grew during the second import.
    private static func reimportInBatches(
        _ users: (Int) -> String, counting counter: KeyPath<PostgresImportRows, Int>,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Int {
        var grown = 0
        try TestPostgres.withSchema { url, _ in
            let mappers = try mappers(url)
            try importBoth(users(0), mappers, options: inBatches, sourceLocation: sourceLocation)
            let rows = try engine(mappers.postgres).rowPath
            let before = rows[keyPath: counter]
            try importBoth(users(1), mappers, options: inBatches, sourceLocation: sourceLocation)
            grown = rows[keyPath: counter] - before
        }
        return grown
    }

    /// Into tables that were empty, whose new rows the cache holds, a key names a row the
    /// cache has or none: once a batch has found them empty, the batches after it plan no keys
    /// of theirs, and the import ends as on SQLite. A re-import plans every key.
    @Test func keysOfTablesThatWereEmptyAreNotPlanned() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            let options = Self.inBatches
            let rows = try Self.engine(mappers.postgres).rowPath
            let json = Self.users(300)
            try Self.importBoth(json, mappers, options: options)
            let first = rows.keysPlanned
            try Self.importBoth(json, mappers, options: options)
            let again = rows.keysPlanned - first
            // Every key of users, repos, tags and followers (1,652) is planned again; the first
            // import planned those of its first two batches alone.
            #expect(again > 1_000)
            #expect(first * 5 < again, "planned \(first) keys into empty tables, \(again) on re-import")
        }
    }

    /// A fresh import hands its writes over while the importer goes on through the batches
    /// after them: batches begin without waiting for the hand-over, which the importer waits
    /// for only when the connection is needed, and a hand-over due meanwhile is put off to a
    /// later batch rather than waited for. The first hand-over's worker is held until the
    /// importer puts one off (or waits for it): a worker slower than the importer, every run.
    /// The stores end as SQLite's, after the fresh import and after a re-import that changes a
    /// third of the users.
    @Test func aHandOverRunsOnThroughTheBatchesAfterItAndOneDueMeanwhileIsPutOff() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            let options = Self.inBatches
            let rows = try Self.engine(mappers.postgres).rowPath
            rows.handOverSize = 300
            rows.handOverGate = DispatchSemaphore(value: 0)
            let report = try Self.importBoth(Self.users(600), mappers, options: options)
            #expect(report.counts(for: "User").inserted > 600, "users and follower stubs inserted")
            #expect(rows.batchesBegunDuringHandOver > 0)
            #expect(rows.handOversPostponed > 0)
            #expect(rows.handOverGate == nil, "the held worker was let go")
            try Self.importBoth(Self.users(600, round: 1), mappers, options: options)
        }
    }

    /// A re-import that sees every row of a table but its stubs marks the table once, in the
    /// metadata table, instead of a seen row per row; rows a later import sees get their own,
    /// the others keep the mark's time, and stubs keep the time they were made.
    @Test func anImportThatSeesEveryRowOfATableMarksTheTable() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(12), mappers)
            let connection = try Self.engine(mappers.postgres).connection
            func seen(_ entity: String) throws -> [StoredValue: StoredValue] {
                try Dictionary(uniqueKeysWithValues: mappers.postgres.storedRows(entity, "id", "_seen_at").map { ($0[0], $0[1]) })
            }
            let first = try seen("Repo")
            let firstUsers = try seen("User")
            Thread.sleep(forTimeInterval: 0.01)
            let log = try Self.statementsPrepared(on: connection) { try Self.importBoth(Self.users(12), mappers) }
            // Every repo, address and tag is in the payload, and every user but the followers
            // outside it (14, 16, … 36), stubs.
            for table in ["Repo", "User"] {
                #expect(!log.contains { $0.hasPrefix(#"INSERT INTO "\#(table)__seen""#) || $0.hasPrefix(#"UPDATE "\#(table)__seen""#) })
            }
            // Placed by counting the rows to be seen, with no row id sent for an anti-join.
            #expect(!log.contains { $0.contains("unnest($3::int8[])") })
            let users = try seen("User")
            #expect(users[.integer(1)]!.number! > firstUsers[.integer(1)]!.number!)
            #expect(users[.integer(14)] == firstUsers[.integer(14)])
            let second = try seen("Repo")
            #expect(Set(second.values).count == 1)
            #expect(second[.integer(10)]!.number! > first[.integer(10)]!.number!)
            // User 1 alone: its repos are seen again.
            Thread.sleep(forTimeInterval: 0.01)
            try Self.importBoth(#"[{"id": 1, "login": "user1", "repos": [{"id": 10, "name": "r10"}, {"id": 11, "name": "r11"}]}]"#, mappers)
            let third = try seen("Repo")
            #expect(third[.integer(10)]!.number! > second[.integer(10)]!.number!)
            #expect(third[.integer(11)] == third[.integer(10)])
            #expect(third[.integer(20)] == second[.integer(20)])
        }
    }

    /// A row whose change waits for the hand-over takes its `_updated_at` with it, in the same
    /// `UPDATE`, once the records are done: only rows the import counts updated, as on SQLite.
    @Test func updatedRowsTakeTheirUpdatedAtWithTheirChange() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(12), mappers)
            func updated(_ mapper: Mapper) throws -> [StoredValue: StoredValue] {
                try Dictionary(uniqueKeysWithValues: mapper.storedRows("User", "id", "_updated_at").map { ($0[0], $0[1]) })
            }
            let before = (sqlite: try updated(mappers.sqlite), postgres: try updated(mappers.postgres))
            Thread.sleep(forTimeInterval: 0.01)
            let connection = try Self.engine(mappers.postgres).connection
            // User 1 changes, user 2 changes and changes back, user 3 changes its followers
            // alone, user 4 is as it was.
            let log = try Self.statementsPrepared(on: connection) {
                let report = try Self.importBoth(#"""
                    [{"id": 1, "login": "changed"}, {"id": 2, "login": "x"}, {"id": 2, "login": "user2"},
                     {"id": 3, "follower_ids": [5]}, {"id": 4, "login": "user4"}]
                    """#, mappers)
                #expect(report.counts(for: "User").list == [0, 2, 2, 0])
            }
            #expect(log.contains { $0.contains(#""_updated_at" = coalesce(s."_updated_at", t."_updated_at")"#) })
            for (mapper, was) in [(mappers.sqlite, before.sqlite), (mappers.postgres, before.postgres)] {
                let now = try updated(mapper)
                let changed = now.keys.filter { now[$0] != was[$0] }.compactMap { $0.number }.sorted()
                #expect(changed == [1, 3], "\(mapper === mappers.sqlite ? "SQLite" : "PostgreSQL")")
                #expect(now[.integer(1)] == now[.integer(3)])
            }
            // When every updated row took its `_updated_at` with its change, the bookkeeping
            // sends no `UPDATE` of it: the row path knows which rows it wrote. On a connection
            // of its own, which logs each statement as it prepares it the first time.
            Thread.sleep(forTimeInterval: 0.01)
            let again = (sqlite: mappers.sqlite, postgres: try Self.mappers(url).postgres)
            let stamped = try Self.statementsPrepared(on: Self.engine(again.postgres).connection) {
                let report = try Self.importBoth(#"[{"id": 1, "login": "changed again"}, {"id": 4, "login": "user4"}]"#, again)
                #expect(report.counts(for: "User").list == [0, 1, 1, 0])
            }
            #expect(stamped.contains { $0.contains(#""_updated_at" = coalesce(s."_updated_at", t."_updated_at")"#) })
            #expect(!stamped.contains { $0.contains(#"SET "_updated_at" = $1"#) })
            let last = (sqlite: try updated(mappers.sqlite), postgres: try updated(mappers.postgres))
            #expect(last.postgres[.integer(1)] != last.postgres[.integer(3)] && last.postgres[.integer(4)] == before.postgres[.integer(4)])
            #expect(last.sqlite[.integer(1)] != last.sqlite[.integer(3)] && last.sqlite[.integer(4)] == before.sqlite[.integer(4)])
        }
    }

    /// The mark is placed by counting the rows the cache knows the import saw, and the cache
    /// keeps rows a deletion removed: a row the import saw that its clean-up pass removed
    /// afterwards must not count, or it would stand in for a row it did not see.
    @Test func aSeenRowTheCleanUpRemovesDoesNotCountTowardTheMark() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            func repos(_ ids: [Int]) -> String { ids.map { #"{"id": \#($0), "name": "r\#($0)"}"# }.joined(separator: ", ") }
            try Self.importBoth(#"[{"id": 1, "login": "a", "repos": [\#(repos([10, 11]))]}, {"id": 2, "login": "b", "repos": [\#(repos([20]))]}]"#, mappers)
            func seen() throws -> [StoredValue: StoredValue] {
                try Dictionary(uniqueKeysWithValues: mappers.postgres.storedRows("Repo", "id", "_seen_at").map { ($0[0], $0[1]) })
            }
            let before = try seen()
            Thread.sleep(forTimeInterval: 0.01)
            // Repo 11 is seen, then left by its owner's later record and removed as an orphan:
            // the payload saw two repos, and the store holds two full repos it did not write.
            let report = try Self.importBoth(#"[{"id": 1, "login": "a", "repos": [\#(repos([10, 11]))]}, {"id": 1, "login": "a", "repos": [\#(repos([10]))]}]"#, mappers)
            #expect(report.orphansRemoved.map(\.entity) == ["Repo"])
            let after = try seen()
            #expect(after[.integer(11)] == nil)
            #expect(after[.integer(10)]!.number! > before[.integer(10)]!.number!)
            #expect(after[.integer(20)] == before[.integer(20)])
        }
    }

    /// When the rows the cache knows do not settle the seen mark (the cache was emptied on the
    /// way), the check that no other row is left unseen hashes the ids of thousands of rows seen
    /// with the table's, rather than walking them all for each row: a re-import of 150,000
    /// customers took minutes there, and 3.8 s after.
    @Test func theSeenMarkOfThousandsOfRowsHashesTheirIds() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(6_000), mappers)
            let engine = try Self.engine(mappers.postgres)
            engine.rowPath.cacheBudget = 2_000
            let log = try Self.statementsPrepared(on: engine.connection) { try Self.importBoth(Self.users(6_000), mappers) }
            #expect(log.contains { $0.contains(#""User" AS r WHERE coalesce(r."_seen_at" < $2, true) AND NOT r."_stub" EXCEPT SELECT unnest"#) }, "\(log.filter { $0.contains("_jsonimport_meta") })")
            let mark = try mappers.postgres.store.withLock { try $0.engine.rows(
                "SELECT \"value\" FROM \(quote(StorageSchema.metadataTable)) WHERE \"key\" = 'seen:User'", []) }
            #expect(mark.count == 1, "every user was seen: the mark is placed")
        }
    }

    /// Each user names the next as a follower: a stub, filled in by a later record. Past the
    /// first batch (1 MB of JSON), its writes leave the cache while the stubs wait, so a
    /// filled-in stub is written once, whole: no `UPDATE` of users in a fresh import (whose
    /// new rows go in one `COPY` per table, see ``PostgresHeldCopies``).
    @Test func aStubFilledInByALaterBatchGoesToTheServerOnce() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            let json = Self.users(6_000)
            #expect(json.utf8.count > 1 << 20, "more than one batch")
            let connection = try Self.engine(mappers.postgres).connection
            let log = try Self.statementsPrepared(on: connection) { try Self.importBoth(json, mappers) }
            #expect(log.filter { $0.hasPrefix(#"COPY "User" "#) }.count == 1, "new users held for one COPY")
            #expect(!log.contains { $0.hasPrefix(#"UPDATE "User""#) }, "\(log.filter { $0.hasPrefix("UPDATE") })")
        }
    }

    /// A cache emptied in the middle of an import, past its budget, forgets rows the import
    /// inserted into tables that were empty: a record naming one later (every user follows
    /// user 1, and user 1 comes again last) finds it on the server, and nothing is inserted
    /// twice.
    @Test func anImportPastTheCachesBudgetFindsTheRowsItWroteBeforeEmptyingIt() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            let rows = try Self.engine(mappers.postgres).rowPath
            rows.cacheBudget = 2_000
            let connection = try Self.engine(mappers.postgres).connection
            let json = Self.users(9_000)
            #expect(json.utf8.count > 2 << 20, "more than two batches")
            // The first user again, last: an update of a row the cache no longer holds.
            let log = try Self.statementsPrepared(on: connection) {
                try Self.importBoth(json.dropLast() + #", {"id": 1, "login": "again"}]"#, mappers)
            }
            #expect(log.contains { $0.hasPrefix(#"SELECT "#) && $0.contains(#"FROM "User" AS r WHERE"#) }, "users read back once the cache was emptied")
            try Self.importBoth(Self.users(9_000, round: 1), mappers)
        }
    }

    @Test func recordsLeftOutUnderSkipTakeNoSavepointOnTheServer() throws {
        try TestPostgres.withSchema { url, _ in
            let mappers = try Self.mappers(url)
            try Self.importBoth(Self.users(40), mappers)
            // Every fifth record fails in a nested record, after its user, address and first
            // repo were written: hundreds of records left out, more than the server's 64
            // subtransactions that fit in its cache.
            var records = (1...400).map { i in
                #"{"id": \#(i), "login": "v\#(i)", "address": {"city": "C\#(i)"}, "repos": [{"id": \#(i * 10), "name": "n", "tags": [{"name": "k"}]}, "#
                    + #"{"id": \#(i * 10 + 1), "name": "m", "tags": [\#(i % 5 == 0 ? #"{"name": null}"# : #"{"name": "z\#(i % 7)"}"#)]}], "#
                    + #""follower_ids": [\#(i % 40 + 1), \#(1000 + i)]}"#
            }
            records.append(#"{"id": 2, "score": "not a number"}"#)
            let before = try Self.engine(mappers.postgres).savepointsOnServer
            let report = try Self.importBoth("[" + records.joined(separator: ",") + "]", mappers, options: .init(onError: .skip))
            #expect(report.skipped == 81)
            #expect(try Self.engine(mappers.postgres).savepointsOnServer == before)
        }
    }

    @Test func aRecordLeftOutAfterAWriteAtOnceIsUndoneOnTheServerToo() throws {
        try TestPostgres.withSchema { url, _ in
            let yaml = """
                version: 1
                entities:
                  User:
                    primaryKey: id
                    attributes: { id: int, email: { type: string, unique: true } }
                    relationships:
                      team: { to: Team, kind: one }
                  Team:
                    primaryKey: id
                    attributes: { id: int, name: string }
                """
            let spec = try MappingSpec.load(yaml: yaml, file: "test.yml")
            let mappers = (sqlite: try Mapper(spec: spec, store: .inMemory), postgres: try Mapper(spec: spec, store: .postgres(URL(string: url)!)))
            // Users are written at once (a unique attribute in a table past the limit of the
            // values known on the client); the third fails in its team after its own row went
            // to the server.
            try Self.engine(mappers.postgres).rowPath.uniqueIndexLimit = 0
            let json = """
                [{"id": 1, "email": "a@x", "team": {"id": 7, "name": "seven"}},
                 {"id": 2, "email": "b@x", "team": {"id": 8, "name": "eight"}},
                 {"id": 3, "email": "c@x", "team": {"id": "nine"}},
                 {"id": 4, "email": "c@x", "team": {"id": 7, "name": "seven"}}]
                """
            let expected = try mappers.sqlite.importData(Data(json.utf8), as: "User", options: .init(onError: .skip))
            let report = try mappers.postgres.importData(Data(json.utf8), as: "User", options: .init(onError: .skip))
            #expect(report.skipped == 1 && expected.skipped == 1)
            #expect(report.counts(for: "User") == expected.counts(for: "User"))
            for entity in ["User", "Team"] {
                let request = ExportRequest(entity: entity, depth: 2)
                #expect(try mappers.postgres.exportData(request) == mappers.sqlite.exportData(request), "\(entity)")
            }
            #expect(try Self.engine(mappers.postgres).savepointsOnServer > 0)
        }
    }
}
