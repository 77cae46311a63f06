extension Store {
    /// Row counts per entity, stubs per entity and links per forward relationship.
    func statistics() throws -> StoreStatistics {
        var stats = StoreStatistics()
        for entity in plan.entities {
            let count = try engine.rows("SELECT count(*) FROM \(entity.table)", [])
            stats.entities.append((entity.spec.name, count.first?.first?.integer ?? 0))
            let stubs = entity.spec.isOwned ? 0 : try engine.rows(
                "SELECT count(*) FROM \(entity.table) WHERE \"_stub\"", []).first?.first?.integer ?? 0
            stats.stubs.append((entity.spec.name, stubs))
        }
        for link in spec.links {
            let sql: String
            switch link.storage {
            case .foreignKey(let table, let column, _, _):
                sql = "SELECT count(*) FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL"
            case .linkTable(let name):
                sql = "SELECT count(*) FROM \(quote(name))"
            }
            let count = try engine.rows(sql, []).first?.first?.integer ?? 0
            // A relationship to a union is one link per concrete entity: counted as one.
            if stats.links.last?.name == link.qualifiedName {
                stats.links[stats.links.count - 1].count += count
            } else {
                stats.links.append((link.qualifiedName, count))
            }
        }
        return stats
    }
}

/// What a store holds (SPEC 4.2 `stats --format json`).
public struct StoreStatistics: Sendable, Hashable {
    /// Row count per entity, stubs included, in declaration order.
    public var entities: [(name: String, rows: Int)] = []
    /// Stub rows per entity, in declaration order (0 for owned entities).
    public var stubs: [(name: String, rows: Int)] = []
    /// Stored links per forward relationship, named `Entity.relationship`, in declaration order.
    public var links: [(name: String, count: Int)] = []

    /// Whether two statistics have the same JSON form.
    ///
    /// - Parameters:
    ///   - a: statistics.
    ///   - b: other statistics.
    /// - Returns: `true` when their ``json`` texts are equal.
    public static func == (a: Self, b: Self) -> Bool { a.json == b.json }
    /// Hashes the JSON form, consistently with `==`.
    ///
    /// - Parameter hasher: the hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }

    /// `{"entities": {...}, "stubs": {...}, "links": {...}}`, every entity and forward
    /// relationship listed.
    public var json: String {
        func object(_ pairs: [(String, Int)]) -> RecordValue {
            .object(RecordObject(pairs.map { ($0.0, RecordValue.int(Int64($0.1))) }))
        }
        return RecordValue.object(RecordObject([
            ("entities", object(entities.map { ($0.name, $0.rows) })),
            ("stubs", object(stubs.map { ($0.name, $0.rows) })),
            ("links", object(links.map { ($0.name, $0.count) })),
        ])).jsonText
    }
}

extension StoredValue {
    var integer: Int? {
        if case .integer(let v) = self { return Int(v) }
        return nil
    }
}
