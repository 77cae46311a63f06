/// How ``Filter/field(_:_:_:)`` compares a field with a value.
public enum Comparison: Sendable, Hashable, CaseIterable {
    /// `=`; null-safe: comparing with `nil` is `IS NULL`.
    case equals
    /// `!=`; null-safe: holds for a NULL field compared with a value.
    case notEquals
    /// `<`
    case lessThan
    /// `<=`
    case lessThanOrEqual
    /// `>`
    case greaterThan
    /// `>=`
    case greaterThanOrEqual

    var `operator`: FilterExpression.Operator {
        switch self {
        case .equals: return .equal
        case .notEquals: return .notEqual
        case .lessThan: return .less
        case .lessThanOrEqual: return .lessOrEqual
        case .greaterThan: return .greater
        case .greaterThanOrEqual: return .greaterOrEqual
        }
    }
}
