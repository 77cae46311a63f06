import Foundation
import Testing

@testable import JSONImport

/// Imports into distributed entities (SPEC 6) on either store: keys unique within a tenant,
/// nested records and references taking the tenant of their record, and links across tenants
/// refused.
@Suite struct DistributedImportTests {
    private let members = """
        [
          {"org_id": 1, "id": 1, "login": "ann", "org": 1, "address": {"city": "Oslo"}, "friend_ids": [2],
           "projects": [{"id": 10, "title": "alpha", "tags": [{"name": "x"}]}, {"id": 11, "title": "beta", "org_id": 1}]},
          {"org_id": 2, "id": 1, "login": "bob", "org": 2, "projects": [{"id": 10, "title": "other", "tags": [{"name": "x"}]}]},
          {"org_id": 1, "id": 2, "login": "cid", "friend_ids": [1]}
        ]
        """

    @Test func oneKeyInTwoTenantsIsTwoRows() throws {
        let mapper = try makeMapper(tenantYAML)
        let report = try mapper.importJSON(members, as: "Member")
        #expect(report.errors.isEmpty)
        #expect(try texts(mapper.storedRows("Member", "orgId", "id", "login", orderedBy: "orgId", "id")) == [
            ["1", "1", "\"ann\""], ["1", "2", "\"cid\""], ["2", "1", "\"bob\""],
        ])
        #expect(try texts(mapper.storedRows("Project", "orgId", "id", "title", orderedBy: "orgId", "id")) == [
            ["1", "10", "\"alpha\""], ["1", "11", "\"beta\""], ["2", "10", "\"other\""],
        ])
        #expect(try texts(mapper.storedRows("Address", "orgId", "city")) == [["1", "\"Oslo\""]])
        // A reference entity is shared: both tenants' projects link to the one tag.
        #expect(try mapper.rowCount("Tag") == 1)
        #expect(try mapper.storedLinks("Project.tags").count == 2)
    }

    @Test func referencesByKeyTakeTheTenantOfTheirRecord() throws {
        let mapper = try makeMapper(tenantYAML)
        try mapper.importJSON(members, as: "Member")
        let friends = try mapper.storedLinks("Member.friends")
        let rows = try texts(mapper.storedRows("Member", "_id", "orgId", "id", orderedBy: "_id"))
        let key = Dictionary(uniqueKeysWithValues: rows.map { ($0[0], "\($0[1]).\($0[2])") })
        #expect(texts(friends).map { [key[$0[0]], key[$0[1]]] } == [["1.1", "1.2"], ["1.2", "1.1"]])
        // `org: 2` in tenant 2 is the Org whose key is that tenant.
        #expect(try texts(mapper.storedRows("Org", "id", orderedBy: "id")) == [["1"], ["2"]])
    }

    @Test(arguments: [
        (#"[{"org_id": 1, "id": 5, "projects": [{"id": 12, "org_id": 2}]}]"#, "$[0].projects[0].org_id",
         "tenant 'orgId' of Project is 2, but the record is in tenant 1: rows link only within their tenant"),
        (#"[{"org_id": 1, "id": 5, "org": 3}]"#, "$[0].org",
         "tenant 'id' of Org is 3, but the record is in tenant 1: rows link only within their tenant"),
        (#"[{"org_id": 1, "id": 5, "address": {"city": "x", "org_id": 9}}]"#, "$[0].address.org_id",
         "tenant 'orgId' of Address is 9, but the record is in tenant 1: rows link only within their tenant"),
        (#"[{"id": 5}]"#, "$[0].org_id", "missing tenant 'orgId' (key 'org_id') of distributed entity Member"),
        (#"[{"org_id": null, "id": 5}]"#, "$[0].org_id", "missing tenant 'orgId' (key 'org_id') of distributed entity Member"),
    ])
    func linksAcrossTenantsAreRecordErrors(payload: String, path: String, message: String) throws {
        let mapper = try makeMapper(tenantYAML)
        try mapper.importJSON(members, as: "Member")
        let before = try mapper.storedContent()
        let report = try mapper.importJSON(payload, as: "Member", options: .init(onError: .skip))
        #expect(report.errors.map(\.path) == [path])
        #expect(report.errors.map(\.message) == [message])
        #expect(try mapper.storedContent() == before)
    }

    @Test func anExportImportsBackUnchanged() throws {
        let mapper = try makeMapper(tenantYAML)
        try mapper.importJSON(members, as: "Member")
        let exported = try mapper.exportData("Member", depth: 3)
        let text = String(decoding: exported, as: UTF8.self)
        // References are written as the mapping declares the key: without the tenant.
        #expect(text.contains(#""friend_ids":[2]"#))
        let report = try mapper.importData(exported, as: "Member")
        #expect(report.changes.allSatisfy { $0.counts.inserted == 0 && $0.counts.updated == 0 && $0.counts.deleted == 0 })
        #expect(report.changes.map(\.entity) == ["Member", "Address", "Project", "Tag"])
    }

    @Test func pruneWorksInTheTenantsTheRootRecordsName() throws {
        let mapper = try makeMapper(tenantYAML)
        try mapper.importJSON(members, as: "Member")
        let report = try mapper.importJSON(#"[{"org_id": 1, "id": 2, "login": "cid"}]"#, as: "Member", options: .init(prune: true))
        #expect(report.counts(for: "Member").deleted == 1)
        // No root record names tenant 2: its member stays.
        #expect(try texts(mapper.storedRows("Member", "orgId", "id", orderedBy: "orgId", "id")) == [["1", "2"], ["2", "1"]])
        let none = try mapper.importJSON("[]", as: "Member", options: .init(prune: true))
        #expect(none.counts(for: "Member").deleted == 0)
        #expect(try mapper.rowCount("Member") == 2)
    }

    private func texts(_ rows: [[StoredValue]]) -> [[String]] { rows.map { $0.map(\.description) } }

    @Test func lookupsByKeyNameTheTenant() throws {
        let mapper = try makeMapper(tenantYAML)
        try mapper.importJSON(members, as: "Member")
        let exported = String(decoding: try mapper.exportData("Member", ids: ["2,1"], depth: 0), as: UTF8.self)
        #expect(exported.contains(#""login":"bob""#) && !exported.contains("ann"))
        #expect(throws: QueryError.self) { try mapper.exportData("Member", ids: ["1"], depth: 0) }
    }
}
