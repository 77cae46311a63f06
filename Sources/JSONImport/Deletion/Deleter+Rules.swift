/// `onDelete` rules over the marked rows: cascades, the `deny` check, and the neighbours whose
/// links the deletion changes.
extension Deleter {
    /// Marks, a step at a time, every row that a `cascade` relationship of a marked row links to
    /// (forward and back sides alike, each by its own rule), until a step adds nothing. A row is
    /// marked once, so cycles end.
    ///
    /// - Returns: how many rows the cascades marked.
    func markCascades() throws(StoreError) -> Int {
        var total = 0
        var active = counts.map { $0 > 0 }
        var round = 0
        while active.contains(true) {
            var next = Array(repeating: false, count: active.count)
            for entity in plan.entities where active[entity.index] {
                for relationship in entity.relationships where relationship.spec.onDelete == .cascade {
                    let target = plan.entities[relationship.target]
                    let added = try engine.markLinked(by: relationship, of: entity, fromRound: round)
                    guard added > 0 else { continue }
                    counts[target.index] += added
                    next[target.index] = true
                    total += added
                }
            }
            active = next
            round += 1
        }
        return total
    }

    /// Refuses the whole deletion when a marked row has a `deny` relationship linking it to a row
    /// that stays (links to rows deleted by the same operation do not block).
    func checkDenials(_ reason: Deletion.Reason) throws {
        let shown = 10
        var blocked: [DeleteError.BlockedRow] = []
        var total = 0
        for entity in plan.entities where counts[entity.index] > 0 {
            for relationship in entity.relationships where relationship.spec.onDelete == .deny {
                let (link, _) = plan.link(of: relationship)
                let rows = try engine.linksToUnmarked(by: relationship, of: entity)
                total += rows.count
                for (id, count) in rows.prefix(max(0, shown - blocked.count)) {
                    blocked.append(DeleteError.BlockedRow(
                        entity: entity.spec.name, key: try engine.key(of: entity, row: id),
                        relationship: "\(entity.spec.name).\(relationship.spec.name)",
                        linkedThrough: linkName(relationship, link: link), count: count))
                }
            }
        }
        if total > 0 { throw DeleteError(blocked: blocked, blockedCount: total, reason: reason) }
    }

    /// The link as the blocking rows see it: their own relationship when they have one, else
    /// the relationship that refuses.
    private func linkName(_ relationship: RelationshipPlan, link: Link) -> String {
        if relationship.spec.isForward {
            return link.back.map { "\(link.target).\($0)" } ?? link.qualifiedName
        }
        return link.qualifiedName
    }

    /// Counts as `updated` every surviving row that reads a link to a marked row (see the
    /// counting rule on ``Deleter``).
    func touchNeighbours(_ tracker: RowTracker) throws(StoreError) {
        for link in plan.spec.links {
            let source = plan.entity(named: link.source)!
            let target = plan.entity(named: link.target)!
            if counts[target.index] > 0 {
                for row in try engine.unmarkedNeighbours(through: link, fromSource: false) {
                    tracker.linkChanged(source.index, row)
                }
            }
            if link.back != nil && counts[source.index] > 0 {
                for row in try engine.unmarkedNeighbours(through: link, fromSource: true) {
                    tracker.linkChanged(target.index, row)
                }
            }
        }
    }
}
