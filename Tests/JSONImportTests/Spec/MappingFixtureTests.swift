import Foundation
import Testing

@testable import JSONImport

/// Loading mapping locations from disk: directories, single files, and the fixtures.
@Suite struct MappingFixtureTests {
    @Test func validDirectoryLoadsEveryFileInNameOrder() throws {
        let directory = try fixturePath("Mappings/valid")
        let spec = try MappingSpec.load(from: directory)
        #expect(spec.files == [directory + "/github.yml", directory + "/shop.yml"])
        #expect(
            spec.entities.map(\.name) == [
                "User", "Address", "Repo", "Tag", "Order", "Invoice", "OrderLine", "InvoiceLine",
            ])
        #expect(
            spec.links.map(\.qualifiedName) == [
                "User.address", "User.repos", "User.followers", "Repo.tags", "Order.customer", "Order.lines",
                "Invoice.lines",
            ])
        #expect(
            spec.links.map(\.storage) == [
                .foreignKey(table: "User", column: "address", onSource: true, isUnique: false),
                .foreignKey(table: "Repo", column: "owner", onSource: false, isUnique: false),
                .linkTable(name: "User_followers"),
                .linkTable(name: "Repo_tags"),
                .foreignKey(table: "Order", column: "customer", onSource: true, isUnique: false),
                .linkTable(name: "Order_lines"),
                .linkTable(name: "Invoice_lines"),
            ])
    }

    @Test func specExampleDerivesKeysAndDefaults() throws {
        let spec = try MappingSpec.load(from: try fixturePath("Mappings/valid/github.yml"))
        let user = try #require(spec.entity(named: "User"))
        #expect(
            user.attributes.map(\.key.description) == [
                "id", "login", "name", "contact.email", "created_at", "site_admin", "score", "bio", "topics", "meta",
            ])
        #expect(user.attribute(named: "isAdmin")?.defaultValue == .integer(0))
        #expect(user.attribute(named: "topics")?.type == .array(.string))
        #expect(user.relationship(named: "followers")?.key.description == "follower_ids")
        #expect(spec.entity(named: "Address")?.cleanup == .orphans)
        #expect(spec.entity(named: "Repo")?.relationship(named: "owner")?.linkIndex == 1)
        #expect(spec.entity(named: "Tag")?.attribute(named: "name")?.transforms == [.lowercase])
    }

    @Test func anchorsAliasesAndMergeKeysShareDefinitions() throws {
        let spec = try MappingSpec.load(from: try fixturePath("Mappings/valid"))
        let invoice = try #require(spec.entity(named: "Invoice"))
        #expect(invoice.attributes.map(\.name) == ["id", "placed_at", "paid_at", "total"])
        #expect(invoice.attributes.map(\.key.description) == ["id", "placedAt", "paidAt", "total"])
        #expect(invoice.attribute(named: "id")?.isIndexed == true)
        #expect(invoice.attribute(named: "paid_at")?.dateFormat == .pattern("yyyy-MM-dd HH:mm:ss"))
        #expect(invoice.attribute(named: "total")?.defaultValue == .text("0.00"))
        let lines = try #require(invoice.relationship(named: "lines"))
        #expect(
            lines.target == "InvoiceLine" && lines.kind == .many && lines.onDelete == .cascade && lines.by == .object)
        let invoiceLine = try #require(spec.entity(named: "InvoiceLine"))
        #expect(invoiceLine.attributes.map(\.name) == ["sku", "quantity", "note", "code"])
        #expect(invoiceLine.attribute(named: "quantity")?.defaultValue == .integer(1))
        #expect(invoiceLine.attribute(named: "sku")?.transforms == [.trim, .uppercase])
        #expect(spec.entity(named: "Order")?.hasTimestamps == false)
    }

    @Test func seededMistakesAreAllReportedWithTheirPositions() throws {
        let directory = try fixturePath("Mappings/seeded-mistakes")
        var errors: [String] = []
        do {
            _ = try MappingSpec.load(from: directory)
        } catch {
            errors = error.diagnostics.map { $0.summary.replacingOccurrences(of: directory + "/", with: "") }
        }
        #expect(
            errors == [
                "a-catalog.yml:9:14: error: unknown type 'strng' (did you mean 'string'?)",
                "a-catalog.yml:10:40: error: invalid default for 'Product.price': expected decimal, found string \"cheap\"",
                "a-catalog.yml:11:32: error: 'min' must be a number, found string \"lots\"",
                "a-catalog.yml:12:38: error: invalid date format: unknown field 'Q' in date pattern 'yyyy-QQ-dd' (use yyyy, MM, dd, HH, mm, ss, SSS or 'quoted' text)",
                "a-catalog.yml:13:38: error: invalid regular expression '[A-Z'",
                "a-catalog.yml:14:31: error: 'format' applies only to date attributes ('Product.weight' is double)",
                "a-catalog.yml:16:23: error: unknown entity 'Categry' (did you mean 'Category'?)",
                "a-catalog.yml:17:36: error: unknown key 'polcy' in relationship 'Product.tags' (did you mean 'policy'?)",
                "a-catalog.yml:19:24: error: primary-key attribute 'meta' has type json; json, date and array types cannot be keys",
                "a-catalog.yml:25:14: error: invalid cleanup 'orphan' (did you mean 'orphans'?)",
                "a-catalog.yml:27:47: error: invalid transform 'lowercse' (did you mean 'lowercase'?)",
                "a-catalog.yml:28:13: error: unknown tag '!secret'",
                "b-people.yml:1:10: error: unsupported version '2' (only version 1 exists)",
                "b-people.yml:3:3: error: entity 'Person' has no 'attributes'",
                "b-people.yml:5:5: error: unknown key 'atributes' in entity 'Person' (did you mean 'attributes'?)",
                "b-people.yml:9:12: error: table 'category' of entity 'Customer' is already the table of entity 'Category'",
                "b-people.yml:11:32: error: primary-key attribute 'id' cannot be 'export: false': exports must keep the key",
                "b-people.yml:12:7: error: invalid property name '_secret': names beginning with '_' are reserved",
                "b-people.yml:14:49: error: invalid enum value: expected string, found a mapping",
                "b-people.yml:16:7: error: duplicate property 'address' in entity 'Customer', first declared at b-people.yml:13:7",
                "b-people.yml:16:46: error: 'by: id' cannot reference owned entity 'Address' (it has no primaryKey); use 'by: object'",
                "b-people.yml:17:51: error: inverse 'tags' names 'Product.tags', which points to 'Tag', not back to 'Customer'",
                "b-people.yml:18:36: error: invalid kind 'sevral' (expected one of: one, many)",
                "b-people.yml:22:38: error: expected true or false for 'required', found string \"yes\"",
                "b-people.yml:23:3: error: duplicate entity 'Product', first declared at a-catalog.yml:5:3",
            ])
    }

    @Test func missingPathIsADiagnostic() {
        #expect(
            throws: MappingLoadError(diagnostics: [
                MappingDiagnostic(
                    code: .unreadableFile, location: SourceLocation(file: "/no/such/Mappings", line: 1, column: 1),
                    message: "cannot read '/no/such/Mappings': no such file or directory")
            ])
        ) { try MappingSpec.load(from: "/no/such/Mappings") }
    }

    @Test func directoryWithoutMappingFilesIsADiagnostic() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mappings-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "not a mapping".write(toFile: directory + "/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory + "/nested.yml", withIntermediateDirectories: true)
        do {
            _ = try MappingSpec.load(from: directory)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(directory):1:1: error: no mapping files (*.yml, *.yaml) in '\(directory)'")
            #expect(error.diagnostics.map(\.code) == [.noMappingFiles])
        }
    }

    @Test func directoryReadsYmlAndYamlButNotHiddenFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mappings-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "entities:\n  B:\n    attributes: {x: int}\n".write(
            toFile: directory + "/b.yaml", atomically: true, encoding: .utf8)
        try "entities:\n  A:\n    attributes: {x: int}\n".write(
            toFile: directory + "/a.yml", atomically: true, encoding: .utf8)
        try "broken: [".write(toFile: directory + "/.swap.yml", atomically: true, encoding: .utf8)
        let spec = try MappingSpec.load(from: directory + "/")
        #expect(spec.entities.map(\.name) == ["A", "B"])
        #expect(spec.files == [directory + "/a.yml", directory + "/b.yaml"])
    }
}
