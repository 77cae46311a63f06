import Foundation
import Testing
@testable import JSONImport

/// Types of every attribute kind, composite keys and self-links.
let catalogYAML = """
    entities:
      Product:
        primaryKey: sku
        attributes:
          sku: uuid
          price: decimal
          homepage: url
          released: { type: date, format: epoch }
          sizes: "[int]"
          launches: "[date]"
          specs: json
        relationships:
          bundle: { to: Pair, kind: one }
          related: { to: Product, kind: many }
      Pair:
        primaryKey: [left, right]
        attributes:
          left: int
          right: int
          label: string
    """

@Suite struct DecodingTests {
    struct Product: Codable, Equatable {
        var sku: UUID
        var price: Decimal?
        var homepage: URL?
        var released: Date?
        var sizes: [Int]
        var launches: [Date]
        var specs: Specs?
        var bundle: [Int]?
        var related: [UUID]

        struct Specs: Codable, Equatable {
            var weight: Double
            var since: Date
        }
    }

    let sku = "8d3f5c1e-0b7a-4c8e-9f1d-2a6b3c4d5e6f"

    func catalog() throws -> Mapper {
        let mapper = try makeMapper(catalogYAML)
        try mapper.importJSON("""
            [{"sku": "8D3F5C1E-0B7A-4C8E-9F1D-2A6B3C4D5E6F", "price": 4.90, "homepage": "https://example.com/p",
              "released": 1700000000, "sizes": [38, 40], "launches": ["2023-11-14T22:13:20Z", "2024-03-09T16:00:00Z"],
              "specs": {"weight": 1.25, "since": "2024-01-01T00:00:00Z"},
              "bundle": {"left": 1, "right": 2, "label": "duo"},
              "related": ["00000000-0000-0000-0000-000000000001"]}]
            """, as: "Product")
        return mapper
    }

    @Test func scalarTypesDecodeAsFoundationTypes() throws {
        let product = try #require(try catalog().find(Product.self, id: UUID(uuidString: sku)!))
        #expect(product.sku == UUID(uuidString: sku))
        #expect(product.price == Decimal(string: "4.90"))
        #expect(product.homepage == URL(string: "https://example.com/p"))
        #expect(product.released == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(product.sizes == [38, 40])
        #expect(product.launches == [Date(timeIntervalSince1970: 1_700_000_000), Date(timeIntervalSince1970: 1_710_000_000)])
        #expect(product.specs == Product.Specs(weight: 1.25, since: Date(timeIntervalSince1970: 1_704_067_200)))
        #expect(product.bundle == [1, 2])
        #expect(product.related == [UUID(uuidString: "00000000-0000-0000-0000-000000000001")!])
    }

    @Test func decimalsAndDatesAlsoDecodeAsStringsAndJSONAsItsText() throws {
        struct Texts: Codable {
            var sku: String
            var price: String
            var released: String
            var specs: String
        }
        let texts = try #require(try catalog().query(Texts.self, entity: "Product").first())
        #expect(texts.sku == sku)
        #expect(texts.price == "4.90")
        #expect(texts.released == "2023-11-14T22:13:20Z")
        #expect(texts.specs == #"{"weight":1.25,"since":"2024-01-01T00:00:00Z"}"#)
    }

    @Test func compositeKeyTargetDecodesAsItsValuesOrNested() throws {
        struct Pair: Codable, Equatable {
            var left: Int
            var right: Int
            var label: String
        }
        struct WithPair: Codable {
            var bundle: Pair
        }
        let product = try #require(try catalog().query(WithPair.self, entity: "Product").first())
        #expect(product.bundle == Pair(left: 1, right: 2, label: "duo"))
        #expect(try catalog().find(Pair.self, id: [1, 2])?.label == "duo")
    }

    @Test func relationshipsDecodeAsNestedValuesOrKeysAsThePropertyAsks() throws {
        struct Repo: Codable {
            var id: Int
            var owner: Owner?
            var tags: [Tag]
        }
        struct Owner: Codable {
            var login: String
        }
        struct Tag: Codable {
            var name: String
        }
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let repo = try #require(try mapper.find(Repo.self, id: 10))
        #expect(repo.owner?.login == "ana")
        #expect(repo.tags.map(\.name) == ["swift", "cli"])
        let keys = try #require(try mapper.find(APIRepo.self, id: 10))
        #expect(keys.owner == 1)
        #expect(keys.tags == ["swift", "cli"])
    }

    @Test func missingLinksDecodeAsNilOrEmptyAndRequiredOnesThrow() throws {
        struct NeedsAddress: Codable, ImportableEntity {
            static let entityName = "User"
            var id: Int
            var address: APIAddress
        }
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let bo = try #require(try mapper.find(APIUser.self, id: 2))
        #expect(bo.address == nil)
        #expect(bo.repos.isEmpty)
        #expect(bo.email == nil)
        #expect {
            try mapper.find(NeedsAddress.self, id: 2)
        } throws: { error in
            guard case DecodingError.valueNotFound(_, let context) = error else { return false }
            return context.debugDescription == "'address' links to no Address" && context.codingPath.map(\.stringValue) == ["address"]
        }
    }

    @Test func unknownPropertiesAreNilWhenOptionalAndMisspeltOnesAreNamed() throws {
        struct Extra: Codable, ImportableEntity {
            static let entityName = "User"
            var id: Int
            var nickname: String?
        }
        struct Typo: Codable, ImportableEntity {
            static let entityName = "User"
            var id: Int
            var logn: String
        }
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        #expect(try mapper.find(Extra.self, id: 1)?.nickname == nil)
        #expect {
            try mapper.find(Typo.self, id: 1)
        } throws: { error in
            guard case DecodingError.keyNotFound(_, let context) = error else { return false }
            return context.debugDescription == "User has no property 'logn' (did you mean 'login'?)"
        }
        // A misspelt optional property is reported too, not read as nil; so is a JSON key where
        // the property name was meant.
        struct OptionalTypo: Codable, ImportableEntity {
            static let entityName = "User"
            var id: Int
            var logn: String?
        }
        struct JSONKeys: Codable, ImportableEntity {
            static let entityName = "User"
            var id: Int
            var createdAt: Date?
            enum CodingKeys: String, CodingKey {
                case id
                case createdAt = "created_at"
            }
        }
        for find in [{ _ = try mapper.find(OptionalTypo.self, id: 1) }, { _ = try mapper.find(JSONKeys.self, id: 1) }] {
            #expect {
                try find()
            } throws: { error in
                guard case DecodingError.keyNotFound(_, let context) = error else { return false }
                return context.debugDescription.contains("did you mean")
            }
        }
    }

    @Test func aTypeMismatchNamesTheStoredType() throws {
        struct Wrong: Codable, ImportableEntity {
            static let entityName = "User"
            var id: Int
            var login: Int
        }
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        #expect {
            try mapper.find(Wrong.self, id: 1)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.debugDescription == #"a stored string value ("ana") does not decode as Int"#
        }
    }

    @Test func aCycleInTheDataStopsNestingAtTheRepeatedRow() throws {
        struct User: Codable, ImportableEntity {
            var id: Int
            var repos: [Repo]
            var address: APIAddress?
        }
        struct Repo: Codable, ImportableEntity {
            var id: Int
            var owner: User
        }
        let mapper = try makeMapper()
        try mapper.importJSON(twoUsersJSON, as: "User")
        let ana = try #require(try mapper.find(User.self, id: 1))
        #expect(ana.repos.map(\.owner.id) == [1, 1])
        #expect(ana.repos[0].owner.repos.isEmpty)
        #expect(ana.repos[0].owner.address == nil)
        #expect(ana.address?.city == "Oslo")
    }

    @Test func aTypeNestingItselfStopsWhereTheDataCycles() throws {
        final class Person: Codable, ImportableEntity {
            static let entityName = "User"
            let id: Int
            let followers: [Person]
        }
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1, "follower_ids": [2]}, {"id": 2, "follower_ids": [3, 1]}, {"id": 3}]"#, as: "User")
        let one = try #require(try mapper.find(Person.self, id: 1))
        #expect(one.followers.map(\.id) == [2])
        #expect(one.followers[0].followers.map(\.id) == [3, 1])
        #expect(one.followers[0].followers[1].followers.isEmpty)
        // A row linking to itself repeats at once.
        try mapper.importJSON(#"[{"id": 4, "follower_ids": [4]}]"#, as: "User")
        let four = try #require(try mapper.find(Person.self, id: 4))
        #expect(four.followers.map(\.id) == [4])
        #expect(four.followers[0].followers.isEmpty)
    }

    /// Rows are read a page at a time, by id range when the ids are dense and by id list when
    /// they are scattered: both give exactly the rows asked for, with their own links.
    @Test func denseAndScatteredRowsDecodeAlike() throws {
        struct Shelf: Codable, ImportableEntity, Equatable {
            var id: Int
            var name: String
            var books: [Book]
            var featured: Book?
        }
        struct Book: Codable, ImportableEntity, Equatable {
            var id: Int
            var title: String
        }
        let yaml = """
            entities:
              Shelf:
                primaryKey: id
                attributes: { id: int, name: string }
                relationships:
                  books: { to: Book, kind: many }
                  featured: { to: Book, kind: one }
              Book:
                primaryKey: id
                attributes: { id: int, title: string }
            """
        let mapper = try makeMapper(yaml)
        // Shelves 1-6 are dense; 4_000_000_000_000 and -9 are far apart. Books likewise.
        let ids = [1, 2, 3, 4, 5, 6, 4_000_000_000_000, -9]
        let shelves = ids.map { id in
            Shelf(
                id: id, name: "shelf \(id)",
                books: [Book(id: id * 10 + 1, title: "b\(id)a"), Book(id: id * 10 + 2, title: "b\(id)b")],
                featured: id % 2 == 0 ? Book(id: id * 10 + 2, title: "b\(id)b") : nil)
        }
        try mapper.importData(JSONEncoder().encode(shelves), as: "Shelf")
        #expect(try mapper.all(Shelf.self).sorted { $0.id < $1.id } == shelves.sorted { $0.id < $1.id })
        // 1, 3 and 5 span a range holding 2 and 4, which must not be read as theirs.
        let odd = try mapper.find(Shelf.self, ids: [5, 1, 3])
        #expect(odd == [shelves[4], shelves[0], shelves[2]])
        let scattered = try mapper.find(Shelf.self, ids: [-9, 4_000_000_000_000, 2])
        #expect(scattered == [shelves[7], shelves[6], shelves[1]])
    }
}
