/// A condition on records, for `Query.where(_:)`: the expression language of
/// SPEC 4.3, written as text or built from typed parts.
///
/// Built filters never become SQL text: field names are checked against the mappings when the
/// query runs (an unknown name is a ``QueryError`` naming it), and every value is bound as a
/// parameter, converted to the attribute's type (a `Date` compares as an instant).
///
/// ```swift
/// let filter: Filter = .field("score", .greaterThan, 50) && .field("address.city", .equals, "Oslo")
/// let users = try mapper.query(User.self).where(filter).all()
/// // SQL: … WHERE (r."score" > ? AND EXISTS (SELECT 1 FROM "Address" t1 WHERE … AND t1."city" IS ?))
/// ```
///
/// Limits, so that SQLite can run every filter: AND, OR and NOT nested at most 32 levels deep
/// (`!!f` is `f`), at most 500 conditions and 10,000 values, `like` patterns of at most
/// 50,000 bytes, paths through at most 32 relationships. Beyond them the query throws a
/// ``QueryError`` naming the limit.
public struct Filter: Sendable {
    let expression: Result<FilterExpression, QueryError>

    init(_ expression: Result<FilterExpression, QueryError>) { self.expression = expression }

    /// A filter written in the expression language of SPEC 4.3.
    ///
    /// ```swift
    /// let filter = Filter("score > 50 AND (login LIKE 'a%' OR bio IS NULL)")
    /// ```
    ///
    /// A malformed expression is reported when the query runs, as a ``QueryError``.
    ///
    /// - Parameter text: the expression.
    public init(_ text: String) {
        do throws(FilterError) {
            expression = .success(try FilterParser.parse(text))
        } catch {
            expression = .failure(QueryError(error))
        }
    }

    /// `path` compared with `value`.
    ///
    /// `path` names an attribute, possibly through relationships (`address.city`; through a
    /// to-many relationship it holds when any linked row matches); a relationship alone stands
    /// for its target's key (`owner`). `.equals` and `.notEquals` are null-safe (`nil` matches
    /// NULL); the orderings never hold for NULL.
    ///
    /// ```swift
    /// Filter.field("createdAt", .lessThan, Date(timeIntervalSince1970: 1_700_000_000))
    /// ```
    ///
    /// - Parameters:
    ///   - path: a property name, or a dotted path through relationships.
    ///   - comparison: how to compare.
    ///   - value: a string, number, Boolean, date, UUID, URL, decimal or `nil`.
    /// - Returns: the filter.
    public static func field(_ path: String, _ comparison: Comparison, _ value: some Encodable) -> Filter {
        Filter(literal(value, for: path).map { .compare(path: split(path), op: comparison.operator, value: $0) })
    }

    /// `path` equal to one of `values`.
    ///
    /// ```swift
    /// Filter.field("login", in: ["octocat", "hubot"])   // login IN ('octocat', 'hubot')
    /// ```
    ///
    /// - Parameters:
    ///   - path: a property name, or a dotted path through relationships.
    ///   - values: the allowed values; an empty list matches nothing.
    /// - Returns: the filter.
    public static func field(_ path: String, in values: [some Encodable]) -> Filter {
        guard !values.isEmpty else {
            // Never true, but the path is still checked when the query runs.
            let known = isNotNull(path)
            return known && !known
        }
        var literals: [FilterExpression.Literal] = []
        for value in values {
            switch literal(value, for: path) {
            case .success(let literal): literals.append(literal)
            case .failure(let error): return Filter(.failure(error))
            }
        }
        return Filter(.success(.isIn(path: split(path), values: literals)))
    }

    /// `path` is NULL (for a to-one relationship: it links to nothing).
    ///
    /// - Parameter path: a property name, or a dotted path through relationships.
    /// - Returns: the filter.
    public static func isNull(_ path: String) -> Filter { Filter(.success(.isNull(path: split(path), negated: false))) }

    /// `path` is not NULL.
    ///
    /// - Parameter path: a property name, or a dotted path through relationships.
    /// - Returns: the filter.
    public static func isNotNull(_ path: String) -> Filter { Filter(.success(.isNull(path: split(path), negated: true))) }

    /// `path` matches a `LIKE` pattern: `%` any run of characters, `_` one character,
    /// case-insensitive for ASCII letters.
    ///
    /// ```swift
    /// Filter.like("login", "octo%")
    /// ```
    ///
    /// - Parameters:
    ///   - path: a property name, or a dotted path through relationships.
    ///   - pattern: the pattern.
    /// - Returns: the filter.
    public static func like(_ path: String, _ pattern: String) -> Filter {
        Filter(.success(.like(path: split(path), pattern: pattern)))
    }

    /// The `[T]` attribute at `path` holds `element`: `topics CONTAINS 'swift'`.
    ///
    /// ```swift
    /// Filter.contains("topics", "swift")
    /// ```
    ///
    /// - Parameters:
    ///   - path: an array attribute's name, or a dotted path through relationships to one.
    ///   - element: a string, number, Boolean, date, UUID, URL or decimal.
    /// - Returns: the filter.
    public static func contains(_ path: String, _ element: some Encodable) -> Filter {
        Filter(literal(element, for: path).map { .contains(path: split(path), value: $0) })
    }

    /// Both filters hold.
    ///
    /// - Returns: the conjunction.
    public static func && (lhs: Filter, rhs: Filter) -> Filter {
        combine(lhs, rhs) { .and([$0, $1]) }
    }

    /// Either filter holds.
    ///
    /// - Returns: the disjunction.
    public static func || (lhs: Filter, rhs: Filter) -> Filter {
        combine(lhs, rhs) { .or([$0, $1]) }
    }

    /// The filter does not hold; `!!filter` is `filter`.
    ///
    /// - Returns: the negation.
    public static prefix func ! (filter: Filter) -> Filter {
        Filter(filter.expression.map { expression in
            if case .not(let inner) = expression { return inner }
            return .not(expression)
        })
    }

    private static func combine(_ a: Filter, _ b: Filter, _ make: (FilterExpression, FilterExpression) -> FilterExpression) -> Filter {
        switch (a.expression, b.expression) {
        case (.success(let x), .success(let y)): return Filter(.success(make(x, y)))
        case (.failure(let error), _), (_, .failure(let error)): return Filter(.failure(error))
        }
    }

    private static func split(_ path: String) -> [String] {
        path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    private static func literal(_ value: some Encodable, for path: String) -> Result<FilterExpression.Literal, QueryError> {
        guard let encoded = try? PropertyEncoder.encode(value), let literal = encoded.literal else {
            return .failure(QueryError(.invalidFilter, "the value compared with '\(path)' must be a single value (a string, number, Boolean, date or nil)"))
        }
        return .success(literal)
    }
}
