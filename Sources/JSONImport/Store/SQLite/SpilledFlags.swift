/// The per-row flags of the ``RowTracker`` moved out of memory into temporary tables, one per
/// entity, once they pass their budget: an import of tens of millions of rows, or of millions
/// with sparse keys, holds a few MB of them at a time. The tables live in the import's
/// transaction and are dropped before it commits (a rollback drops them too).
///
/// The tracker asks for a row's flags only when memory has none, and only for rows inside
/// the range of those moved out (rows arriving in ascending order never ask) that a Bloom
/// filter of 2 MB says may have been moved out: with 2,000,000 rows out, about one new row in
/// 200 asks in vain, and none of the rest asks at all. A store error
/// here cannot be thrown through the tracker's accessors: the first one is kept in
/// ``failure`` and the importer throws it between records and before committing.
final class SpilledFlags {
    private let connection: SQLiteConnection
    private var tables: [Int: Statements] = [:]
    /// Per entity: the lowest and highest row moved out.
    private var ranges: [Int: ClosedRange<Int64>] = [:]
    /// The rows moved out, of every entity: three bits each, set in a fixed array (made when
    /// the first rows move out).
    private var filter: [UInt64] = []
    private static let filterBits = 1 << 24
    private(set) var failure: StoreError?

    private struct Statements {
        let upsert: SQLiteStatement
        let delete: SQLiteStatement
        let select: SQLiteStatement
    }

    init(connection: SQLiteConnection) {
        self.connection = connection
    }


    /// Whether any flags of `entity` were moved out.
    func holds(_ entity: Int) -> Bool { tables[entity] != nil }

    /// Whether any flags were moved out (the filter is made with the first ones).
    var holdsAny: Bool { !filter.isEmpty }

    /// Whether flags of `row` may have been moved out.
    func mayHold(_ entity: Int, _ row: Int64) -> Bool {
        guard !filter.isEmpty, ranges[entity]?.contains(row) == true else { return false }
        let (a, b, c) = Self.filterPositions(entity, row)
        return isSet(a) && isSet(b) && isSet(c)
    }

    private func isSet(_ position: Int) -> Bool { filter[position >> 6] & (1 << (position & 63)) != 0 }

    private func set(_ position: Int) { filter[position >> 6] |= 1 << (position & 63) }

    /// The three bits of `filter` that stand for `row` of `entity`.
    private static func filterPositions(_ entity: Int, _ row: Int64) -> (Int, Int, Int) {
        // A 64-bit mix (splitmix64's finaliser) of the row and entity, cut into three indexes.
        var x = UInt64(bitPattern: row) &+ UInt64(entity) &* 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        x ^= x >> 31
        let mask = UInt64(filterBits - 1)
        return (Int(x & mask), Int((x >> 21) & mask), Int((x >> 42) & mask))
    }

    /// The flags moved out for `row`, if any.
    func flags(of entity: Int, _ row: Int64) -> UInt8? {
        guard mayHold(entity, row), let select = tables[entity]?.select else { return nil }
        select.reset()
        select.bind(row, at: 1)
        do {
            return try select.step() ? UInt8(truncatingIfNeeded: select.int64(at: 0)) : nil
        } catch {
            keep(error)
            return nil
        }
    }

    /// Moves the flags of `map` out, replacing those moved out before; rows marked `cleared`
    /// lose theirs.
    func move(_ entity: Int, _ map: RowFlagMap, cleared: UInt8) {
        if filter.isEmpty { filter = [UInt64](repeating: 0, count: Self.filterBits / 64) }
        do {
            let table = try statements(for: entity)
            try map.forEach { (row, flags) throws(StoreError) in
                let statement = flags == cleared ? table.delete : table.upsert
                statement.reset()
                statement.bind(row, at: 1)
                if flags != cleared { statement.bind(Int64(flags), at: 2) }
                _ = try statement.step()
                guard flags != cleared else { return }
                let range = ranges[entity] ?? row...row
                ranges[entity] = min(range.lowerBound, row)...max(range.upperBound, row)
                let (a, b, c) = Self.filterPositions(entity, row)
                set(a)
                set(b)
                set(c)
            }
        } catch {
            keep(error)
        }
    }

    /// Calls `body` with every row of `entity` moved out, in ascending order, a chunk at a
    /// time (no statement stays open while `body` runs).
    func forEach<E: Error>(_ entity: Int, _ body: (Int64, UInt8) throws(E) -> Void) throws(E) {
        guard holds(entity) else { return }
        var after = Int64.min
        while true {
            var chunk: [(Int64, UInt8)] = []
            do {
                let select = try connection.prepare(
                    "SELECT \"row\", \"flags\" FROM \(table(entity)) WHERE \"row\" > ? ORDER BY \"row\" LIMIT 50000")
                select.bind(after, at: 1)
                while try select.step() { chunk.append((select.int64(at: 0), UInt8(truncatingIfNeeded: select.int64(at: 1)))) }
            } catch {
                keep(error)
                return
            }
            guard let last = chunk.last else { return }
            for (row, flags) in chunk { try body(row, flags) }
            after = last.0
        }
    }

    /// Drops the tables, throwing the first error met while they were in use.
    func drop() throws(StoreError) {
        if let failure { throw failure }
        for entity in tables.keys.sorted() {
            tables[entity] = nil
            try connection.execute("DROP TABLE IF EXISTS temp.\(table(entity))")
        }
        ranges = [:]
        filter = []
    }

    private func keep(_ error: StoreError) {
        if failure == nil { failure = error }
    }

    private func statements(for entity: Int) throws(StoreError) -> Statements {
        if let statements = tables[entity] { return statements }
        let table = table(entity)
        try connection.execute(
            "DROP TABLE IF EXISTS temp.\(table); CREATE TEMP TABLE \(table) (\"row\" INTEGER PRIMARY KEY, \"flags\" INTEGER NOT NULL)")
        let statements = Statements(
            upsert: try connection.prepare("INSERT OR REPLACE INTO \(table) VALUES (?, ?)"),
            delete: try connection.prepare("DELETE FROM \(table) WHERE \"row\" = ?"),
            select: try connection.prepare("SELECT \"flags\" FROM \(table) WHERE \"row\" = ?"))
        tables[entity] = statements
        return statements
    }

    private func table(_ entity: Int) -> String { quote("_import_flags_\(entity)") }
}
