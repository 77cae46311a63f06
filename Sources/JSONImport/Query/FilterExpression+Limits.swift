/// What a filter may hold so that SQLite can always run it, and the rewriting that keeps
/// harmless filters within that: `NOT NOT x` is `x`, `a AND (b AND c)` is `a AND b AND c`.
///
/// Every filter goes through ``normalized()`` before it is compiled, whether it was parsed from
/// text or built with ``Filter``: a filter beyond a limit is a ``FilterError`` (a usage error),
/// never an SQLite failure.
extension FilterExpression {
    /// The deepest nesting of AND, OR and NOT after folding: SQLite's parser has a fixed stack
    /// (about 100 entries), and the compiled SQL spends one or a few of them per level (64
    /// levels still run; half of that leaves room).
    static let maximumNesting = 32
    /// The most conditions one filter holds: SQLite refuses expressions deeper than 1000.
    static let maximumConditions = 500
    /// The most values one filter binds (SQLite binds at most 32766 parameters per statement).
    static let maximumValues = 10_000
    /// The longest `LIKE` pattern in UTF-8 bytes (SQLITE_MAX_LIKE_PATTERN_LENGTH).
    static let maximumPatternBytes = 50_000

    /// This filter with `NOT NOT` folded away, nested ANDs and ORs flattened, and the most
    /// deeply nested part of each AND and OR first (SQLite's parser then holds one entry per
    /// level instead of three); the same rows match.
    ///
    /// - Throws: ``FilterError`` when the filter nests deeper than ``maximumNesting``, or holds
    ///   more than ``maximumConditions`` conditions, more than ``maximumValues`` values, or a
    ///   `LIKE` pattern longer than ``maximumPatternBytes``.
    func normalized() throws(FilterError) -> FilterExpression {
        var counts = (conditions: 0, values: 0)
        return try normalized(depth: 0, counts: &counts).expression
    }

    /// The normalized expression and how deeply it nests (0 for a single condition).
    private func normalized(depth: Int, counts: inout (conditions: Int, values: Int)) throws(FilterError)
        -> (expression: FilterExpression, nesting: Int)
    {
        switch self {
        case .not:
            // A run of NOTs is walked in a loop: a built filter may hold thousands.
            var inner = self
            var isNegated = false
            while case .not(let next) = inner {
                inner = next
                isNegated.toggle()
            }
            guard isNegated else { return try inner.normalized(depth: depth, counts: &counts) }
            try Self.checkNesting(depth + 1)
            let (normal, nesting) = try inner.normalized(depth: depth + 1, counts: &counts)
            if case .not(let positive) = normal { return (positive, max(0, nesting - 1)) }
            return (.not(normal), nesting + 1)
        case .and(let parts):
            return try Self.group(parts, isAnd: true, depth: depth, counts: &counts)
        case .or(let parts):
            return try Self.group(parts, isAnd: false, depth: depth, counts: &counts)
        case .compare, .contains:
            try Self.count(conditions: 1, values: 1, in: &counts)
        case .isIn(_, let values):
            try Self.count(conditions: 1, values: values.count, in: &counts)
        case .isNull:
            try Self.count(conditions: 1, values: 0, in: &counts)
        case .like(_, let pattern):
            try Self.count(conditions: 1, values: 1, in: &counts)
            let bytes = pattern.utf8.count
            guard bytes <= Self.maximumPatternBytes else {
                throw FilterError(
                    message: "LIKE pattern longer than \(Self.maximumPatternBytes) bytes (\(bytes) bytes)", column: nil)
            }
        }
        return (self, 0)
    }

    /// An AND (`isAnd`) or OR of `parts`, flattened, each part normalized, the deepest first.
    private static func group(
        _ parts: [FilterExpression], isAnd: Bool, depth: Int, counts: inout (conditions: Int, values: Int)
    ) throws(FilterError) -> (expression: FilterExpression, nesting: Int) {
        var flat: [FilterExpression] = []
        var pending = Array(parts.reversed())
        while var part = pending.popLast() {
            while case .not(.not(let inner)) = part { part = inner }
            switch (part, isAnd) {
            case (.and(let inner), true), (.or(let inner), false): pending += inner.reversed()
            default: flat.append(part)
            }
        }
        if flat.count == 1 { return try flat[0].normalized(depth: depth, counts: &counts) }
        try checkNesting(depth + 1)
        var normal: [(expression: FilterExpression, nesting: Int)] = []
        for part in flat {
            let (expression, nesting) = try part.normalized(depth: depth + 1, counts: &counts)
            switch (expression, isAnd) {
            case (.and(let inner), true), (.or(let inner), false):
                // Rare (a one-part group around it): a part that normalizes into this kind of
                // group joins it.
                normal += inner.map { ($0, $0.nesting) }
            default:
                normal.append((expression, nesting))
            }
        }
        let ordered = normal.enumerated().sorted { a, b in
            a.element.nesting != b.element.nesting ? a.element.nesting > b.element.nesting : a.offset < b.offset
        }.map(\.element)
        let expressions = ordered.map(\.expression)
        return (isAnd ? .and(expressions) : .or(expressions), (ordered.first?.nesting ?? 0) + 1)
    }

    /// How deeply a normalized expression nests: 0 for a condition, 1 for an AND of conditions.
    private var nesting: Int {
        switch self {
        case .not(let inner): return inner.nesting + 1
        case .and(let parts), .or(let parts): return (parts.map(\.nesting).max() ?? 0) + 1
        case .compare, .isIn, .isNull, .like, .contains: return 0
        }
    }

    private static func checkNesting(_ depth: Int) throws(FilterError) {
        guard depth <= maximumNesting else {
            throw FilterError(message: "AND, OR and NOT nested more than \(maximumNesting) levels deep", column: nil)
        }
    }

    private static func count(conditions: Int, values: Int, in counts: inout (conditions: Int, values: Int))
        throws(FilterError)
    {
        counts.conditions += conditions
        counts.values += values
        guard counts.conditions <= maximumConditions else {
            throw FilterError(message: "more than \(maximumConditions) conditions in one filter", column: nil)
        }
        guard counts.values <= maximumValues else {
            throw FilterError(message: "more than \(maximumValues) values in one filter", column: nil)
        }
    }
}
