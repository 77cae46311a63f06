import Foundation
import Testing

@testable import JSONImport

/// Distributed entities on PostgreSQL (SPEC 6): the tables carry the tenant in their keys,
/// link tables and seen tables, and every statement an import sends about their rows names
/// the tenants, so that Citus runs it on those tenants' shards only.
@Suite(
    .tags(.postgres),
    .enabled(
        if: TestPostgres.url != nil,
        "JSONIMPORT_TEST_POSTGRES names no PostgreSQL server (bash Scripts/test.sh starts a throwaway one)"))
struct PostgresDistributionTests {
    /// `count` members spread over three organisations, each with an address, two projects
    /// with tags shared by every tenant, and friends in its organisation (some of them stubs).
    /// `round` changes every third member's login, address, projects and friends.
    static func members(_ count: Int, round: Int = 0) -> String {
        let records = (1...count).map { i in
            let org = i % 3 + 1
            let changed = round > 0 && i % 3 == 0
            let projects = (0..<2).map { p in
                let id = i * 10 + p + (changed && p == 1 ? 5 : 0)
                return #"{"id": \#(id), "title": "p\#(id)", "tags": [{"name": "t\#((i + p) % 7)"}]}"#
            }
            let friends = changed ? [i + 3, count + i] : [(i + 3) % count + 1, 2 * count + i]
            return #"{"org_id": \#(org), "id": \#(i), "login": "m\#(i)\#(changed ? "-\(round)" : "")", "org": \#(org), "#
                + #""address": {"city": "\#(changed ? "Oslo" : "Rome")"}, "projects": [\#(projects.joined(separator: ", "))], "#
                + #""friend_ids": \#(friends)}"#
        }
        return "[" + records.joined(separator: ",\n") + "]"
    }

    /// The tables of distributed entities, quoted, with their tenant column, quoted.
    static func distributedTables(_ spec: MappingSpec) -> [(table: String, tenant: String)] {
        var tables: [(String, String)] = []
        for entity in spec.entities {
            guard let tenant = entity.tenantAttribute else { continue }
            tables.append((quote(entity.table), quote(tenant)))
            let seenKey = entity.rowIDColumn == tenant ? "_id" : tenant
            if entity.hasTimestamps { tables.append((quote(StorageSchema.seenTable(of: entity.table)), quote(seenKey))) }
        }
        for link in spec.links {
            guard case .linkTable(let name) = link.storage, let tenant = spec[entity: link.source].tenantAttribute else { continue }
            tables.append((quote(name), quote(tenant)))
        }
        return tables
    }

    /// The statements of `log` that name a distributed table and neither filter nor join on its
    /// tenant column. Rows a `COPY` or an `INSERT` writes are routed by the tenant they hold, so
    /// those need the column among theirs; DDL and the row-id numbering (`max`, once per table
    /// and transaction) are left out. An `UPDATE` may not set the tenant column: Citus refuses
    /// to change a distribution column.
    static func unrouted(_ log: [String], _ tables: [(table: String, tenant: String)]) -> [String] {
        log.filter { sql in
            tables.contains { table, tenant in
                guard sql.contains(table), !sql.hasPrefix("CREATE "), !sql.contains("max(") else { return false }
                if sql.hasPrefix("COPY \(table) (") || sql.hasPrefix("INSERT INTO \(table) (") {
                    let columns = sql.drop { $0 != "(" }.prefix { $0 != ")" }
                    if columns.contains(tenant) { return false }
                }
                guard let clause = sql.range(of: " WHERE ") else { return true }
                if sql.hasPrefix("UPDATE "), sql[..<clause.lowerBound].contains("\(tenant) = ") { return true }
                return !sql[clause.upperBound...].contains(tenant)
            }
        }
    }

    /// Whether `sql` is the clean-up pass's marking of the rows of entity `index` that no
    /// link reaches.
    static func marksUnreachable(_ sql: String, _ index: Int) -> Bool {
        sql.hasPrefix("INSERT INTO \"_delete_\(index)\" (id, round) SELECT *, 0 FROM (SELECT t.") && sql.contains("WHERE NOT EXISTS")
    }

    @Test func everyStatementOfAnImportNamesTheTenantOfTheRowsItTouches() throws {
        try TestPostgres.withSchema { url, _ in
            let spec = try MappingSpec.load(yaml: tenantYAML, file: "m.yml")
            let mapper = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
            let engine = try #require(mapper.store.withLock { $0.engine as? PostgresEngine })
            engine.connection.statementLog = []
            let options = ImportOptions(onError: .skip)
            for round in 0...2 {
                try mapper.importData(Data(Self.members(600, round: round).utf8), as: "Member", options: options)
            }
            let refused = try mapper.importData(
                Data(#"[{"org_id": 1, "id": 1, "projects": [{"id": 10, "org_id": 2}]}]"#.utf8), as: "Member", options: options)
            #expect(refused.errors.count == 1)
            // A sync of the first 200 members, in all three tenants: prune deletes the other
            // 401, their addresses and projects cascade, and the tag only member 601 used is
            // an orphan.
            try mapper.importData(
                Data(#"[{"org_id": 2, "id": 601, "projects": [{"id": 9000, "title": "x", "tags": [{"name": "solo"}]}]}]"#.utf8),
                as: "Member")
            var sync = ImportOptions(onError: .skip)
            sync.prune = true
            let synced = try mapper.importData(Data(Self.members(200).utf8), as: "Member", options: sync)
            #expect(synced.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Tag 1"])
            #expect(try mapper.query("Member").count() == 200)
            // What SQLite, one node, does with the same imports.
            let file = NSTemporaryDirectory() + "distribution-\(UUID().uuidString).sqlite"
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
            let local = try Mapper(spec: spec, store: Mapper.StoreLocation(file))
            for round in 0...2 {
                try local.importData(Data(Self.members(600, round: round).utf8), as: "Member", options: options)
            }
            try local.importData(
                Data(#"[{"org_id": 2, "id": 601, "projects": [{"id": 9000, "title": "x", "tags": [{"name": "solo"}]}]}]"#.utf8),
                as: "Member")
            let expected = try local.importData(Data(Self.members(200).utf8), as: "Member", options: sync)
            #expect(synced.changes.map { "\($0.entity) \($0.counts)" } == expected.changes.map { "\($0.entity) \($0.counts)" })
            #expect(try mapper.exportData(ExportRequest(entity: "Member", depth: 2)) == local.exportData(ExportRequest(entity: "Member", depth: 2)))
            let log = try #require(engine.connection.statementLog)
            let tables = Self.distributedTables(spec)
            // What the check reads: merges of changed rows, link lists replaced, seen rows,
            // prune and its cascades, the clean-up pass.
            let tag = try #require(mapper.store.withLock { $0.plan.entity(named: "Tag")?.index })
            for kind in ["UPDATE \"Member\" AS t SET", "DELETE FROM \"Member_friends\"", "COPY \"Project_tags\"",
                         "INSERT INTO \"Member__seen\"", "COPY \"Member\"", "WITH gone AS (DELETE FROM \"Project\"",
                         "DELETE FROM \"Project_tags\"", "INSERT INTO \"_delete_\(tag)\""] {
                #expect(log.contains { $0.hasPrefix(kind) }, "no statement begins with \(kind)")
            }
            // But those that start from tags, rows of a reference entity, which links of every
            // tenant hold: marking the tags no link reaches, and the links of orphan tags
            // dropped.
            let unrouted = Self.unrouted(log, tables)
            #expect(!unrouted.isEmpty)
            #expect(unrouted.allSatisfy { sql in
                Self.marksUnreachable(sql, tag)
                    || sql.contains("FROM \"Project_tags\" WHERE \"target\" IN (SELECT id FROM \"_delete_\(tag)\"")
            })
            // The check refuses a statement without its tenant.
            #expect(Self.unrouted(["SELECT \"source\" FROM \"Member_friends\" WHERE \"target\" = ANY($1)"], tables).count == 1)
            #expect(Self.unrouted([#"UPDATE "Address" AS t SET "orgId" = s."orgId" FROM s WHERE t."orgId" = s."orgId""#], tables).count == 1)
        }
    }

    /// Tenants of two types, named in one transaction: each statement names those of its own.
    @Test func tenantsOfTwoTypesInOneTransaction() throws {
        try TestPostgres.withSchema { url, _ in
            let spec = try MappingSpec.load(
                yaml: """
                    entities:
                      Member:
                        primaryKey: id
                        distribution: { key: orgId }
                        attributes: { orgId: int, id: int, login: string }
                      Page:
                        primaryKey: slug
                        distribution: { key: space }
                        attributes: { space: string, slug: string, title: string }
                    """, file: "m.yml")
            let mapper = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
            for round in 0...1 {
                try mapper.write {
                    try mapper.importData(Data(#"[{"orgId": 1, "id": 1, "login": "m\#(round)"}]"#.utf8), as: "Member")
                    try mapper.importData(Data(#"[{"space": "docs", "slug": "a", "title": "t\#(round)"}]"#.utf8), as: "Page")
                    try mapper.importData(Data(#"[{"orgId": 1, "id": 2, "login": "n\#(round)"}]"#.utf8), as: "Member")
                }
            }
            let members = try mapper.exportData(ExportRequest(entity: "Member"))
            #expect(String(decoding: members, as: UTF8.self).contains(#""login":"n1""#))
            let pages = try mapper.exportData(ExportRequest(entity: "Page"))
            #expect(String(decoding: pages, as: UTF8.self).contains(#""title":"t1""#))
        }
    }

    /// `delete` by key names the tenants of its keys in every statement, the bookkeeping of
    /// the neighbours it unlinks included; by query alone, it reaches every tenant.
    @Test func deleteByKeyNamesTheTenantsOfItsKeys() throws {
        try TestPostgres.withSchema { url, schema in
            let spec = try MappingSpec.load(yaml: tenantYAML, file: "m.yml")
            let mapper = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
            try mapper.importData(Data(Self.members(30).utf8), as: "Member")
            let engine = try #require(mapper.store.withLock { $0.engine as? PostgresEngine })
            engine.connection.statementLog = []
            // Member 1 is in organisation 2; its projects 10 and 11 stay, without an owner.
            let report = try mapper.delete("Member", ids: ["2,1"], options: DeleteOptions(cascade: false))
            #expect(report.changes.first { $0.entity == "Project" }?.counts.updated == 2)
            let log = try #require(engine.connection.statementLog)
            #expect(log.contains { $0.hasPrefix("UPDATE \"Project\" SET \"owner\" = NULL") })
            #expect(log.contains { $0.hasPrefix("UPDATE \"Project\" AS r SET \"_updated_at\"") })
            // Only the clean-up pass's marking of tags no link reaches, which links of every
            // tenant keep.
            let tag = try #require(mapper.store.withLock { $0.plan.entity(named: "Tag")?.index })
            #expect(Self.unrouted(log, Self.distributedTables(spec)).allSatisfy { Self.marksUnreachable($0, tag) })
            // Member 2, of organisation 3, by query: every tenant.
            let byQuery = try mapper.delete("Member", where: "login = 'm2'")
            #expect(byQuery.changes.first { $0.entity == "Member" }?.counts.deleted == 1)
            let admin = try PostgresConnection(url: url)
            let rows = try admin.rows(
                "SELECT count(*) FILTER (WHERE \"_updated_at\" > \"_created_at\"), count(*) FILTER (WHERE \"owner\" IS NULL) "
                    + "FROM \(quote(schema)).\"Project\" WHERE \"id\" IN (10, 11)")
            #expect(rows == [[.integer(2), .integer(2)]])
        }
    }

    @Test func tablesHoldTheTenantInTheirKeysLinksAndSeenRows() throws {
        try TestPostgres.withSchema { url, schema in
            let spec = try MappingSpec.load(yaml: tenantYAML, file: "m.yml")
            let mapper = try Mapper(spec: spec, store: .postgres(URL(string: url)!))
            try mapper.importData(Data(Self.members(30).utf8), as: "Member")
            try mapper.importData(Data(Self.members(30).utf8), as: "Member")
            let admin = try PostgresConnection(url: url)
            func keyColumns(_ table: String) throws -> [String] {
                try admin.rows(
                    "SELECT a.attname::text FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
                        + "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary "
                        + "ORDER BY array_position(i.indkey, a.attnum)", [.text("\(quote(schema)).\(quote(table))")]
                ).map { $0[0].description }
            }
            #expect(try keyColumns("Member") == [#""orgId""#, #""_id""#])
            #expect(try keyColumns("Member_friends") == [#""orgId""#, #""source""#, #""target""#])
            #expect(try keyColumns("Member__seen") == [#""orgId""#, #""_id""#])
            #expect(try keyColumns("Org") == [#""id""#])
            #expect(try keyColumns("Tag") == [#""_id""#])
            // Links and seen rows carry their source's tenant.
            let wrong = try admin.rows(
                "SELECT count(*) FROM \(quote(schema)).\"Member_friends\" l JOIN \(quote(schema)).\"Member\" m "
                    + "ON m.\"_id\" = l.\"source\" WHERE m.\"orgId\" <> l.\"orgId\"")
            #expect(wrong == [[.integer(0)]])
            let seen = try admin.rows(
                "SELECT count(*), count(*) FILTER (WHERE s.\"orgId\" = m.\"orgId\") FROM \(quote(schema)).\"Member__seen\" s "
                    + "JOIN \(quote(schema)).\"Member\" m ON m.\"_id\" = s.\"_id\"")
            #expect(seen.first?[0] == seen.first?[1] && seen.first?[0] != .integer(0))
        }
    }
}
