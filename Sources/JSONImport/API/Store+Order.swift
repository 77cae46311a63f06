/// What a query may sort by: an attribute of its entity, or one reached through to-one
/// relationships held in the rows (`address.city`, `repo.owner.login`).
extension Store {
    /// Checks that `field` is something `entity`'s rows can be sorted by.
    ///
    /// - Throws: ``QueryError`` `unknownField` naming what is wrong, with a suggestion.
    func checkOrder(by field: String, of entity: EntityPlan) throws(QueryError) {
        let segments = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        for segment in segments.dropLast() {
            guard let index = current.spec.relationships.firstIndex(where: { $0.name == segment }) else {
                let names = current.spec.relationships.map(\.name)
                throw QueryError(
                    .unknownField,
                    "cannot order by '\(field)': \(current.spec.name) has no relationship '\(segment)'\(Suggestion.hint(for: segment, among: names))")
            }
            let relationship = current.relationships[index]
            if let union = relationship.union {
                throw QueryError(
                    .unknownField,
                    "cannot order by '\(field)': '\(segment)' links to union \(union.spec.name), whose entities each hold their own fields")
            }
            guard relationship.spec.kind == .one, relationship.columnName != nil else {
                throw QueryError(
                    .unknownField,
                    "cannot order by '\(field)': '\(segment)' is not a to-one relationship held by \(current.spec.name) rows (only those give one value per row)")
            }
            current = relationship.targetPlan
        }
        let last = segments.last ?? field
        guard current.spec.attribute(named: last) != nil else {
            let names = current.spec.attributes.map(\.name)
            throw QueryError(
                .unknownField,
                "cannot order by '\(field)': \(current.spec.name) has no such attribute\(Suggestion.hint(for: last, among: names))")
        }
    }
}
