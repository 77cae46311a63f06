/// The link behind a relationship, for deletion, cascades and the deny check.
extension ImportPlan {
    /// The link a relationship reads, and whether `entity` is its source.
    func link(of relationship: RelationshipPlan) -> (link: Link, fromSource: Bool) {
        (spec.links[relationship.spec.linkIndex], relationship.spec.isForward)
    }
}

extension ImportPlan {
    /// Per link of the spec, which rows read it, for counting link changes by net effect.
    var netEffectEnds: [LinkNetEffect.Ends] {
        spec.links.map { link in
            let isTable: Bool
            let isOnTarget: Bool
            switch link.storage {
            case .linkTable:
                (isTable, isOnTarget) = (true, false)
            case .foreignKey(_, _, let onSource, _):
                (isTable, isOnTarget) = (false, !onSource)
            }
            return LinkNetEffect.Ends(
                source: entity(named: link.source)!.index, target: entity(named: link.target)!.index,
                sourceByPairs: !isTable, targetReads: link.back != nil || isOnTarget)
        }
    }
}
