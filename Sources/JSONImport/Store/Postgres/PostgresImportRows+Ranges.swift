/// Reads of rows by a set of ids, as ranges where the ids lie close together.
///
/// `r.c = ANY($1::int8[])` descends the index once per id, and past a few hundred ids the
/// planner reads the whole table instead: reading the links of 1,800 repos, among 275,000,
/// took 20 ms that way. The ids a batch names mostly lie close together (a batch's records were
/// numbered one after another), so runs of them are read as ranges, one index scan each, and
/// only the ids far from any other one by one: the same links took 1.3 ms. A range also reads
/// the rows of the ids between those asked for, which the read passes over; a read that
/// wastes many narrows the gap its runs may hold (``adjust(_:kept:wasted:)``).
extension PostgresImportRows {
    /// Ids split for a read: runs of at least ``runLength`` ids, each at most `gap` past the one
    /// before, as their first and last ids; the other ids one by one.
    struct IDRanges {
        private(set) var singles: [Int64] = []
        private(set) var lows: [Int64] = []
        private(set) var highs: [Int64] = []

        /// The fewest ids a range is read for.
        static let runLength = 4

        init(_ ids: some Sequence<Int64>, gap: Int64) {
            let sorted = ids.sorted()
            var start = 0
            for i in sorted.indices {
                if i + 1 < sorted.count {
                    let (step, overflow) = sorted[i + 1].subtractingReportingOverflow(sorted[i])
                    if !overflow, step <= gap { continue }
                }
                if i + 1 - start >= Self.runLength {
                    lows.append(sorted[start])
                    highs.append(sorted[i])
                } else {
                    singles += sorted[start...i]
                }
                start = i + 1
            }
        }
    }

    /// The widest gap between the ids of a range, where reads waste no rows.
    static let widestGap: Int64 = 16

    /// The read of `columns` of the rows of `table` (aliased `r`) whose `column` is one of
    /// `ids`, with the tenant filter of `entity`, in no order; and the key its
    /// gap is kept under, for ``adjust(_:kept:wasted:)``. It may return rows of other ids
    /// between those asked for.
    func idRead(
        _ columns: String, from table: String, where column: String, in ids: some Sequence<Int64>,
        tenantOf entity: EntitySpec
    ) -> (PostgresStatement, gapKey: String) {
        let key = Self.gapKey(table: table, column: column)
        let tenant = engine.tenantFilter(entity, alias: "r", parameter: 4)
        let statement = Self.idRead(
            columns, from: table, where: column, in: ids, gap: readGaps[key] ?? Self.widestGap, tenant: tenant)
        return (statement, key)
    }

    /// The key the gap of the ranges of reads of `table` by `column` is kept under.
    static func gapKey(table: String, column: String) -> String {
        table + "." + column
    }

    /// ``idRead(_:from:where:in:tenantOf:)`` with its ranges' `gap` and tenant filter
    /// given: it reads nothing of the row path, so a worker thread may build it.
    static func idRead(
        _ columns: String, from table: String, where column: String, in ids: some Sequence<Int64>, gap: Int64,
        tenant: (sql: String, parameters: [StoredValue]) = ("", [])
    ) -> PostgresStatement {
        let ranges = IDRanges(ids, gap: gap)
        let sql = "SELECT \(columns) FROM \(table) AS r WHERE r.\(column) = ANY($1::int8[])\(tenant.sql) "
            + "UNION ALL SELECT \(columns) FROM unnest($2::int8[], $3::int8[]) AS k(lo, hi) "
            + "JOIN \(table) AS r ON r.\(column) >= k.lo AND r.\(column) <= k.hi\(tenant.sql)"
        let parameters = [ranges.singles, ranges.lows, ranges.highs].map(PostgresEngine.array) + tenant.parameters
        return PostgresStatement(sql, parameters)
    }

    /// After a read under `key` kept `kept` rows and passed over `wasted`: more than one wasted
    /// for four kept narrows its ranges' gap to a quarter (at 1, a range holds only the ids
    /// asked for); none wasted widens it again, up to ``widestGap``.
    func adjust(_ key: String, kept: Int, wasted: Int) {
        let gap = readGaps[key] ?? Self.widestGap
        if wasted * 4 > kept {
            readGaps[key] = max(1, gap / 4)
        } else if wasted == 0, gap < Self.widestGap {
            readGaps[key] = min(Self.widestGap, gap * 2)
        }
    }
}
