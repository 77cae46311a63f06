import Foundation
import Testing
@testable import JSONImport

private let catalogueYAML = """
    entities:
      Product:
        primaryKey: id
        attributes:
          id: int
          price: decimal
          parts: { type: int }
        relationships:
          bundle: { to: Product, kind: many }
    """

/// Parts of kits, to order by the price of a part's kit.
private let kitsYAML = """
    entities:
      Part:
        primaryKey: id
        attributes:
          id: int
          price: decimal
        relationships:
          kit: { to: Part, kind: one }
    """

private struct Product: Codable, Equatable, ImportableEntity {
    static let entityName = "Product"
    var id: Int
    var price: Decimal?
}

/// Decimals keep their text but compare, order and count changes by the number they spell.
@Suite struct DecimalComparisonTests {
    let mapper: Mapper

    init() throws {
        mapper = try Mapper(spec: MappingSpec.load(yaml: catalogueYAML, file: "test.yml"), store: TestStore.fresh())
        try mapper.importJSON(
            #"[{"id": 1, "price": 9.99}, {"id": 2, "price": "10.50"}, {"id": 3, "price": 100},"#
                + #" {"id": 4, "price": null, "bundle": [{"id": 5, "price": 0.1000000000000000000000000001}, 1]},"#
                + #" {"id": 6, "price": "0.1"}, {"id": 7, "price": -2.5e1}]"#, as: "Product")
    }

    private func ids(_ filter: String) throws -> [Int] {
        try mapper.query(Product.self).where(filter).all().map(\.id)
    }

    @Test func comparisonsUseTheNumericValue() throws {
        #expect(try ids("price > 9") == [1, 2, 3])
        #expect(try ids("price >= 10") == [2, 3])
        #expect(try ids("price = 10.5") == [2])
        #expect(try ids("price = '10.500'") == [2])
        #expect(try ids("price != 10.5") == [1, 3, 4, 5, 6, 7])
        #expect(try ids("price IN (100, 9.990)") == [1, 3])
        #expect(try ids("price < -24.99") == [7])
        #expect(try ids("price <= 1E2 AND price > 99.999999999999999999999999999") == [3])
    }

    @Test func digitsBeyondDoublePrecisionStayExact() throws {
        #expect(try ids("price > 0.1 AND price < 1") == [5])
        #expect(try ids("price = 0.1") == [6])
        #expect(try ids("price = 0.1000000000000000000000000001") == [5])
        #expect(try ids("price = 1.000000000000000000000000001E-1") == [5])
        #expect(try ids("bundle.price >= 1e-1") == [4])
    }

    @Test func typedFiltersCompareByValue() throws {
        let query = mapper.query(Product.self)
        #expect(try query.where("price", .greaterThan, Decimal(string: "10")!).all().map(\.id) == [2, 3])
        #expect(try query.where("price", .equals, Decimal(string: "10.5")!).all().map(\.id) == [2])
        #expect(try query.where("price", .lessThan, 10).all().map(\.id) == [1, 5, 6, 7])
    }

    @Test func orderingUsesTheNumericValue() throws {
        let ascending = try mapper.query(Product.self).where("price IS NOT NULL").order(by: "price").all().map(\.id)
        #expect(ascending == [7, 6, 5, 1, 2, 3])
        let descending = mapper.query(Product.self).where("price IS NOT NULL").order(by: "price", descending: true)
        #expect(try descending.all().map(\.id) == [3, 2, 1, 5, 6, 7])
    }

    @Test func orderingThroughAToOneRelationshipUsesTheNumericValue() throws {
        let kits = try Mapper(spec: MappingSpec.load(yaml: kitsYAML, file: "test.yml"), store: .inMemory)
        try kits.importJSON(
            #"[{"id": 1, "price": "-0"}, {"id": 2, "price": "-0.5"}, {"id": 3, "price": "-10.5"}, {"id": 4, "price": 9.99},"#
                + #" {"id": 5, "price": "10.50"}, {"id": 6, "kit": 1}, {"id": 7, "kit": 2}, {"id": 8, "kit": 3},"#
                + #" {"id": 9, "kit": 4}, {"id": 10, "kit": 5}]"#, as: "Part")
        let parts = kits.query("Part").where("kit IS NOT NULL")
        #expect(try parts.order(by: "kit.price").all().map { $0["id"] } == [8, 7, 6, 9, 10].map(RecordValue.int))
        #expect(try parts.order(by: "kit.price", descending: true).all().map { $0["id"] } == [10, 9, 6, 7, 8].map(RecordValue.int))
    }

    @Test func storedTextIsKeptAsThePayloadWroteIt() throws {
        let stored = try mapper.storedRows("Product", ids: [2, 5, 7], "price")
        #expect(stored == [[.text("10.50")], [.text("0.1000000000000000000000000001")], [.text("-2.5e1")]])
    }

    @Test func reimportingTheSameNumberSpelledDifferentlyIsUnchanged() throws {
        let report = try mapper.importJSON(#"[{"id": 2, "price": 10.5}, {"id": 3, "price": "1e2"}, {"id": 1, "price": 9.990}]"#, as: "Product")
        #expect(report.counts(for: "Product").list == [0, 0, 3, 0])
        let stored = try mapper.storedRows("Product", ids: [1, 2, 3], "price")
        #expect(stored == [[.text("9.99")], [.text("10.50")], [.text("100")]])
    }

    @Test func aChangedNumberIsUpdatedAndStoredAsWritten() throws {
        let report = try mapper.importJSON(#"{"id": 2, "price": 10.51}"#, as: "Product")
        #expect(report.counts(for: "Product").list == [0, 1, 0, 0])
        #expect(try mapper.storedRows("Product", ids: [2], "price") == [[.text("10.51")]])
    }

    @Test func anotherAttributeChangingKeepsTheDecimalText() throws {
        try mapper.importJSON(#"{"id": 2, "price": 10.5, "parts": 3}"#, as: "Product")
        #expect(try mapper.storedRows("Product", ids: [2], "price", "parts") == [[.text("10.50"), .integer(3)]])
    }

    @Test func anArrayOfTheSameNumbersSpelledDifferentlyIsUnchangedAndKeepsItsText() throws {
        let mapper = try makeMapper("entities:\n  Price:\n    primaryKey: id\n    attributes: { id: int, steps: \"[decimal]\" }\n")
        try mapper.importJSON(#"[{"id": 1, "steps": [10.50, "3"]}, {"id": 2, "steps": [1]}]"#, as: "Price")
        let same = try mapper.importJSON(#"[{"id": 1, "steps": ["10.5", 3.0]}, {"id": 2, "steps": [1]}]"#, as: "Price")
        #expect(same.counts(for: "Price").list == [0, 0, 2, 0])
        #expect(try mapper.storedRows("Price", ids: [1], "steps") == [[.text(#"["10.50","3"]"#)]])
        let changed = try mapper.importJSON(#"[{"id": 1, "steps": [3, 10.5]}, {"id": 2, "steps": [1, 1]}]"#, as: "Price")
        #expect(changed.counts(for: "Price").list == [0, 2, 0, 0])
        #expect(try mapper.storedRows("Price", ids: [1], "steps") == [[.text(#"["3","10.5"]"#)]])
        let back = try mapper.importJSON(#"[{"id": 2, "steps": [2]}, {"id": 2, "steps": [1.0, 1e0]}]"#, as: "Price")
        #expect(back.counts(for: "Price").list == [0, 0, 1, 0])
        // Nulls among the numbers stand where they stand.
        try mapper.importJSON(#"{"id": 3, "steps": [10.50, null]}"#, as: "Price")
        let nulls = try mapper.importJSON(#"[{"id": 3, "steps": [10.5, null]}]"#, as: "Price")
        #expect(nulls.counts(for: "Price").list == [0, 0, 1, 0])
        #expect(try mapper.storedRows("Price", ids: [3], "steps") == [[.text(#"["10.50",null]"#)]])
        let moved = try mapper.importJSON(#"[{"id": 3, "steps": [null, 10.5]}]"#, as: "Price")
        #expect(moved.counts(for: "Price").list == [0, 1, 0, 0])
    }

    @Test func changesThatCancelOutWithinOneImportAreUnchanged() throws {
        let report = try mapper.importJSON(#"[{"id": 2, "price": 11}, {"id": 2, "price": 10.500}]"#, as: "Product")
        #expect(report.counts(for: "Product").list == [0, 0, 1, 0])
    }

    @Test func savingAValueReadBackIsUnchangedAndKeepsTrailingZeros() throws {
        try mapper.importJSON(#"{"id": 8, "price": "8.50"}"#, as: "Product")
        let product = try #require(try mapper.find(Product.self, id: 8))
        #expect(product.price == Decimal(string: "8.5"))
        let report = try mapper.save(product)
        #expect(report.counts(for: "Product").list == [0, 0, 1, 0])
        #expect(try mapper.storedRows("Product", ids: [8], "price") == [[.text("8.50")]])
    }
}

@Suite struct DecimalOrderTests {
    private func order(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in DecimalOrder.compare(x, y) } }
    }

    @Test func equalNumbersSpelledDifferentlyCompareEqual() {
        for (a, b) in [("10.5", "10.50"), ("100", "1e2"), ("100", "1.00E+2"), ("0", "-0.0"), ("0.001", "1e-3"), ("-7", "-7.000")] {
            #expect(order(a, b) == 0, "\(a) vs \(b)")
        }
    }

    @Test func ordersBySignMagnitudeAndEveryDigit() {
        let ascending = [
            "-1e400", "-100", "-99.5", "-0.000001", "0", "1e-400", "0.1", "0.1000000000000000000000000001",
            "0.11", "9.99", "10", "10.000000000000000000000000000001", "99999999999999999999999999999999", "1e30000",
        ]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() {
                #expect(order(a, b) == (i < j ? -1 : i == j ? 0 : 1), "\(a) vs \(b)")
            }
        }
    }

    @Test func textThatIsNoNumberSortsAfterNumbersBytewise() {
        #expect(order("abc", "1e9") == 1)
        #expect(order("1e9", "abc") == -1)
        #expect(order("abc", "abd") == -1)
        #expect(order("1.", "1.") == 0)
    }
}
