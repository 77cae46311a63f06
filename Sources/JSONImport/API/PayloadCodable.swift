import Foundation

/// A type whose `Codable` form is its entity's API payload — JSON keys, key paths as nested
/// objects, dates in their attribute's `format`, relationships as nested records or keys — as
/// the types `jsonimport codegen` writes are.
///
/// The mapper reads and writes such a type through that form, so that every property
/// round-trips however its JSON key differs from its name: `find`, `all`, queries, `map`'s
/// read-back and `observe` decode the record `export` writes (forward relationships nested one
/// level, keys below) with `JSONDecoder`; `save` imports what `JSONEncoder` makes of the value.
/// A type that decodes by property name (a plain `Codable` struct) does not adopt it.
///
/// ```swift
/// extension User: PayloadCodable {}      // written by `jsonimport codegen`
/// let user = try mapper.find(User.self, id: 1)
/// try mapper.save(user)
/// ```
public protocol PayloadCodable: Codable {}

extension DecodingContext {
    /// Levels of forward relationships nested in the payloads ``PayloadCodable`` values read.
    static let payloadDepth = 1

    /// `rows` of `entity` as `T`s read from their payload form (see ``PayloadCodable``), in
    /// order; rows that do not exist are left out.
    func decodePayloads<T: Decodable>(_ type: T.Type, entity: EntityPlan, rows: [Int64]) throws -> [T] {
        let existing = Set(try store.keys(of: entity, rows: Array(Set(rows))).map(\.0))
        let exporter = RecordExporter(reader: store.reader)
        let decoder = JSONDecoder()
        var result: [T] = []
        result.reserveCapacity(rows.count)
        for page in Store.pages(of: rows.filter(existing.contains)) {
            try exporter.prefetch(entity, rows: page, depth: Self.payloadDepth, fields: .all)
            for row in page {
                let record = try exporter.record(entity, row: row, depth: Self.payloadDepth)
                result.append(try decoder.decode(T.self, from: Data(RecordValue.object(record).jsonText.utf8)))
            }
        }
        return result
    }
}
