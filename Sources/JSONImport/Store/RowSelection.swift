/// How a statement picks a set of rows by id: a range when the ids are dense, an id list
/// otherwise (each dialect spells the condition in an extension).
///
/// A range walks the table (or index) in order, which is far cheaper than looking up each id of
/// a list, and rows imported together have neighbouring ids; the rows in the range that were
/// not asked for are skipped by ``Filter`` as the statement returns them. Past twice as many
/// ids in the range as asked for, the list is cheaper.
struct RowSelection {
    /// The rows, ascending, without repeats.
    let rows: [Int64]
    let isRange: Bool

    init(_ rows: [Int64]) {
        var sorted = rows.sorted()
        var kept = 0
        for row in sorted where kept == 0 || sorted[kept - 1] != row {
            sorted[kept] = row
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        self.rows = sorted
        if let first = sorted.first, let last = sorted.last {
            let span = last.subtractingReportingOverflow(first)
            isRange = !span.overflow && span.partialValue < Int64(kept) * 2
        } else {
            isRange = false
        }
    }

    /// Picks, from ids a statement returns in ascending order, those that were asked for.
    var filter: Filter { Filter(rows: isRange ? rows : nil) }

    struct Filter {
        /// The rows asked for; `nil` when the statement returns no others.
        let rows: [Int64]?
        private var next = 0

        init(rows: [Int64]?) { self.rows = rows }

        /// `true` when `row` (not below the previous one) was asked for.
        mutating func wants(_ row: Int64) -> Bool {
            guard let rows else { return true }
            while next < rows.count && rows[next] < row { next += 1 }
            return next < rows.count && rows[next] == row
        }
    }
}
