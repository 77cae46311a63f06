/// The link behind a relationship, for deletion, cascades and the deny check.
extension ImportPlan {
    /// The link a relationship reads, and whether `entity` is its source.
    func link(of relationship: RelationshipPlan) -> (link: Link, fromSource: Bool) {
        (spec.links[relationship.spec.linkIndex], relationship.spec.isForward)
    }
}
