import Foundation
import Testing

@testable import JSONImport

/// `CONTAINS` (SPEC 4.3): an array attribute holding an element, compared in the element's
/// type, on either store.
@Suite struct ContainsFilterTests {
    private let yaml = """
        entities:
          Thing:
            primaryKey: id
            attributes:
              id: int
              tags: { type: "[string]", transform: lowercase }
              sizes: "[int]"
              ratios: "[double]"
              days: "[date]"
              flags: "[bool]"
              prices: "[decimal]"
            relationships:
              parts: { to: Thing, kind: many, key: part_ids, by: id }
        """

    private let things = """
        [{"id": 1, "tags": ["Swift", "go"], "sizes": [1, 9007199254740993], "ratios": [0.5, 2], "days": ["2024-01-01"],
          "flags": [true], "prices": ["1.50"], "part_ids": [2]},
         {"id": 2, "tags": ["rust"], "sizes": [2], "ratios": [1.25], "days": ["2024-02-01T10:00:00Z"], "flags": [false],
          "prices": ["2"], "part_ids": []},
         {"id": 3, "tags": null}]
        """

    private func ids(_ mapper: Mapper, _ filter: String) throws -> [Int64] {
        try mapper.query("Thing").where(filter).all().compactMap { record -> Int64? in
            if case .int(let id)? = record["id"] { return id }
            return nil
        }
    }

    @Test(arguments: [
        ("tags CONTAINS 'swift'", [1]), ("tags contains 'SWIFT'", [1]), ("NOT tags CONTAINS 'go'", [2, 3]),
        ("sizes CONTAINS 9007199254740993", [1]), ("sizes CONTAINS 9007199254740992", []), ("sizes CONTAINS 2", [2]),
        ("ratios CONTAINS 2", [1]), ("ratios CONTAINS 1.25", [2]), ("days CONTAINS '2024-02-01T10:00:00Z'", [2]),
        ("days CONTAINS '2024-01-01'", [1]), ("flags CONTAINS true", [1]), ("flags CONTAINS false", [2]),
        ("prices CONTAINS 1.50", [1]), ("parts.tags CONTAINS 'rust'", [1]), ("tags CONTAINS 'x' OR sizes CONTAINS 1", [1]),
        // Decimals by the number they spell (SPEC 1.2), however the element or the value is written.
        ("prices CONTAINS 1.5", [1]), ("prices CONTAINS 1.500", [1]), ("prices CONTAINS 2.0", [2]), ("prices CONTAINS 0.2e1", [2]),
        ("prices CONTAINS 1.51", []), ("NOT prices CONTAINS 2", [1, 3]),
    ])
    func anArrayHoldsAnElementOfItsType(filter: String, expected: [Int64]) throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(things, as: "Thing")
        #expect(try ids(mapper, filter) == expected, "\(filter)")
    }

    @Test func theSwiftFilterIsTheSame() throws {
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(things, as: "Thing")
        #expect(try mapper.query("Thing").where(Filter.contains("sizes", 2) || Filter.contains("tags", "go")).count() == 2)
    }

    @Test(arguments: [
        ("id CONTAINS 1", "invalid filter: CONTAINS applies to array attributes ('id' is int)"),
        ("tags CONTAINS null", "invalid filter: CONTAINS takes an element value, not null ('tags' holds no null)"),
        ("sizes CONTAINS 'x'", #"invalid filter: value for 'sizes': expected int, found string "x""#),
    ])
    func containsOnAnythingButAnArrayElementIsAQueryError(filter: String, message: String) throws {
        let mapper = try makeMapper(yaml)
        #expect { try mapper.query("Thing").where(filter).all() } throws: { "\($0)" == message }
    }
}
