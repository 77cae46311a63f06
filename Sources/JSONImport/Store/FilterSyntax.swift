/// How one SQL dialect spells the parts of a selection that dialects spell differently:
/// null-safe equality, two-valued negation, `LIKE`, how a column compares and sorts, and
/// where NULLs sort. ``FilterCompiler`` and the sort keys here build everything else the same
/// way for every store.
protocol FilterSyntax {
    /// Holds where `condition` is false or NULL.
    static func isNotTrue(_ condition: String) -> String

    /// `a` equal to `b`, NULL equal to NULL; `valueIsNull` tells whether the value bound for
    /// `b` is NULL (where it is not, plain `=` selects the same rows, and an index can serve it).
    static func isNotDistinct(_ a: String, from b: String, valueIsNull: Bool) -> String

    /// `a` not equal to `b`, NULL not equal to any value.
    static func isDistinct(_ a: String, from b: String) -> String

    /// The column of `attribute` as comparisons and orderings read it.
    static func compared(_ column: String, _ attribute: AttributeSpec) -> String

    /// A bound value (`placeholder`) as it is compared with ``compared(_:_:)`` of `attribute`.
    static func comparedValue(_ placeholder: String, _ attribute: AttributeSpec) -> String

    /// `compared` (``compared(_:_:)`` of a column of `attribute`) equal to one of `values`, and
    /// the parameters the condition binds, in order.
    static func isIn(_ compared: String, _ values: [StoredValue], _ attribute: AttributeSpec) -> (sql: String, parameters: [StoredValue])

    /// The column of `attribute` matching the `LIKE` pattern bound next: `%` and `_` the only
    /// wildcards, no escape character, ASCII letters matching either case.
    static func like(_ column: String, _ attribute: AttributeSpec) -> String

    /// The `[T]` column `column` (JSON text, elements as ``ValueConversion/jsonElement(_:of:)``
    /// writes them) holding the element `element` of type `type`, and the parameters the
    /// condition binds. A NULL array holds nothing.
    static func contains(_ column: String, _ element: StoredValue, of type: ScalarType) -> (sql: String, parameters: [StoredValue])

    /// An `ORDER BY` term for `key`, NULLs first when ascending and last when descending.
    static func orderTerm(_ key: String, descending: Bool) -> String

    /// Whether a sort key read through subqueries applies ``compared(_:_:)`` to the column
    /// inside them rather than to the outermost subquery.
    static var comparesInsideSubqueries: Bool { get }
}

extension FilterSyntax {
    /// `text` as a SQL text value, for comparing with a bound text value as a column of
    /// strings is (the `entity` of a union step); `text` holds no `'`.
    static func textLiteral(_ text: String) -> String {
        "CAST('\(text)' AS text)"
    }

    /// The `ORDER BY` terms of a selection of `entity` (alias `r`): each field of `order` once
    /// (a field sorted by a second time changes nothing, its ties are already equal), then the
    /// key that breaks ties (the primary key, or an owned entity's row id) by its stored value.
    static func orderTerms(_ order: [(field: String, descending: Bool)], of entity: EntityPlan) -> [String] {
        var terms: [String] = []
        var ordered: Set<String> = []
        for (field, descending) in order where ordered.insert(field).inserted {
            terms.append(orderTerm(sortKey(field, of: entity), descending: descending))
        }
        for field in entity.spec.isOwned ? [entity.spec.rowIDColumn] : entity.spec.primaryKey where ordered.insert(field).inserted {
            terms.append("r.\(quote(field))")
        }
        return terms
    }

    /// What a row of `entity` (alias `r`) sorts by for `field`: the attribute's column, or for
    /// a path through to-one relationships held in the rows (`address.city`), the attribute
    /// of the row they reach, read by a subquery per relationship (NULL where a link is
    /// missing); as ``compared(_:_:)`` reads it (decimals by value).
    static func sortKey(_ field: String, of entity: EntityPlan) -> String {
        let segments = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        var alias = "r"
        var opened: [(table: String, alias: String, link: String, outer: String)] = []
        for (depth, segment) in segments.dropLast().enumerated() {
            guard let relationship = current.relationships.first(where: { $0.spec.name == segment }),
                let column = relationship.columnName
            else { break }
            let target = relationship.targetPlan
            let inner = "o\(depth + 1)"
            opened.append((target.table, inner, "\(inner).\(target.rowID)", "\(alias).\(quote(column))"))
            current = target
            alias = inner
        }
        let last = segments.last ?? field
        let column = "\(alias).\(quote(last))"
        let attribute = current.spec.attribute(named: last)
        let inner = attribute.map { comparesInsideSubqueries ? compared(column, $0) : column } ?? column
        let value = opened.reversed().reduce(inner) { inner, step in
            "(SELECT \(inner) FROM \(step.table) \(step.alias) WHERE \(step.link) = \(step.outer))"
        }
        return attribute.map { comparesInsideSubqueries ? value : compared(value, $0) } ?? value
    }
}
