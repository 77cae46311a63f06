/// Checks that span entities and files, pairs forward and back sides, and decides link
/// storage (SPEC 1.3): done once, so the rest of the package reads a resolved model.
extension MappingLoader {
    /// A relationship by its position: entity draft index, then relationship index.
    struct RelationshipID: Hashable, Comparable {
        let entity: Int
        let relationship: Int

        static func < (a: Self, b: Self) -> Bool { (a.entity, a.relationship) < (b.entity, b.relationship) }
    }

    /// The resolved model; empty when problems were found.
    struct Resolved {
        var entities: [EntitySpec] = []
        var links: [Link] = []
        var unions: [UnionSpec] = []
        var documents: [DocumentSpec] = []
    }

    mutating func resolve() -> Resolved {
        let (index, duplicates) = indexEntities()
        var tables = checkTables(skipping: duplicates)
        let (unions, documents) = resolveUnions(index)
        checkTargets(index)
        let backSides = pairInverses(index)
        let (links, linkIndex) = makeLinks(index, backSides: backSides, skipping: duplicates, tables: &tables)
        guard diagnostics.isEmpty else { return Resolved() }
        let distributions = resolveDistributions(index)
        guard diagnostics.isEmpty else { return Resolved() }
        let entities = drafts.enumerated().map { i, draft in
            makeEntity(draft, at: i, distribution: distributions[i], linkIndex: linkIndex)
        }
        checkColumnCounts(entities, links: links)
        return Resolved(entities: entities, links: links, unions: unions, documents: documents)
    }

    /// Reports each entity whose table would need more columns than SQLite allows, so that
    /// `validate` refuses what the store could never create.
    private mutating func checkColumnCounts(_ entities: [EntitySpec], links: [Link]) {
        for entity in entities {
            let count = entity.columnCount(links: links)
            guard count > EntitySpec.maximumColumns else { continue }
            report(
                .tooManyColumns,
                "entity '\(entity.name)' needs \(count) columns (\(entity.attributes.count) attributes, "
                    + "\(count - entity.attributes.count) link and bookkeeping columns); "
                    + "a SQLite table holds at most \(EntitySpec.maximumColumns)",
                at: entity.location)
        }
    }

    private func relationship(_ id: RelationshipID) -> RelationshipDraft {
        drafts[id.entity].relationships[id.relationship]
    }

    private func qualifiedName(_ id: RelationshipID) -> String {
        "\(drafts[id.entity].name).\(relationship(id).name)"
    }

    /// The first declaration of each entity name; later ones are reported.
    private mutating func indexEntities() -> (index: [String: Int], duplicates: Set<Int>) {
        var index: [String: Int] = [:]
        var duplicates: Set<Int> = []
        for (i, draft) in drafts.enumerated() {
            if let first = index[draft.name] {
                report(
                    .duplicateName, "duplicate entity '\(draft.name)', first declared at \(drafts[first].location)",
                    at: draft.location)
                duplicates.insert(i)
            } else {
                index[draft.name] = i
            }
        }
        return (index, duplicates)
    }

    /// Table names compared as SQLite compares them (ignoring case); returns who owns each.
    private mutating func checkTables(skipping duplicates: Set<Int>) -> [String: String] {
        var owners: [String: String] = [:]
        for (i, draft) in drafts.enumerated() where !duplicates.contains(i) {
            if draft.table.lowercased().hasPrefix("sqlite_") {
                report(
                    .invalidName,
                    "table name '\(draft.table)' of entity '\(draft.name)' is reserved "
                        + "(names beginning with 'sqlite_' belong to SQLite)",
                    at: draft.tableLocation)
            }
            if let owner = owners[draft.table.lowercased()] {
                report(
                    .duplicateName, "table '\(draft.table)' of entity '\(draft.name)' is already the table of \(owner)",
                    at: draft.tableLocation)
            } else {
                owners[draft.table.lowercased()] = "entity '\(draft.name)'"
            }
        }
        return owners
    }

    private mutating func checkTargets(_ index: [String: Int]) {
        for draft in drafts {
            for relationship in draft.relationships {
                guard let target = relationship.target else { continue }
                guard let t = index[target] else {
                    let hint = Suggestion.hint(for: target, among: drafts.map(\.name))
                    report(.unknownEntity, "unknown entity '\(target)'\(hint)", at: relationship.targetLocation)
                    continue
                }
                checkTargetKey(relationship, of: drafts[t])
                if relationship.by.isReference, drafts[t].isOwned, let location = relationship.byLocation {
                    report(
                        .invalidReference,
                        "'by: \(relationship.by.rawValue)' cannot reference owned entity '\(target)' (it has no primaryKey); use 'by: object'",
                        at: location)
                }
            }
        }
    }

    /// `targetKey` names a `unique` attribute of the target, on a reference that can take a
    /// missing target without a stub.
    private mutating func checkTargetKey(_ relationship: RelationshipDraft, of target: EntityDraft) {
        guard let name = relationship.targetKey, let location = relationship.targetKeyLocation else { return }
        guard let attribute = target.attributes.first(where: { $0.spec.name == name }) else {
            let hint = Suggestion.hint(for: name, among: target.attributes.map(\.spec.name))
            report(.invalidReference, "targetKey '\(name)' names no attribute of '\(target.name)'\(hint)", at: location)
            return
        }
        if !attribute.spec.isUnique {
            report(
                .invalidReference,
                "targetKey '\(name)' of '\(target.name)' is not 'unique': a reference must name one row", at: location)
        }
        if relationship.by == .object {
            report(
                .invalidReference, "'targetKey' applies to references (by: id, keyObject or auto), not to 'by: object'",
                at: location)
        }
        if relationship.missing == .stub, let missing = relationship.missingLocation {
            report(
                .invalidReference,
                "'missing: stub' cannot go with 'targetKey': a stub needs a primary key; use 'skip' or 'error'", at: missing)
        }
    }

    /// Pairs each back side with the forward relationship its `inverse` names.
    private mutating func pairInverses(_ index: [String: Int]) -> [RelationshipID: RelationshipID] {
        var backSides: [RelationshipID: RelationshipID] = [:]
        for (i, draft) in drafts.enumerated() {
            for j in draft.relationships.indices {
                let id = RelationshipID(entity: i, relationship: j)
                guard let forwardID = forwardSide(of: id, index) else { continue }
                if let existing = backSides[forwardID] {
                    let first = relationship(existing).inverseLocation ?? relationship(existing).location
                    report(
                        .invalidInverse,
                        "'\(qualifiedName(forwardID))' already has back side '\(qualifiedName(existing))' "
                            + "(inverse at \(first)); a forward relationship has at most one back side",
                        at: relationship(id).inverseLocation ?? relationship(id).location)
                } else {
                    backSides[forwardID] = id
                }
            }
        }
        return backSides
    }

    /// The forward relationship that back side `id` names, or `nil` (reported) when it names
    /// none that points back; `nil` too when `id` is not a back side or its target is unknown.
    private mutating func forwardSide(of id: RelationshipID, _ index: [String: Int]) -> RelationshipID? {
        let back = relationship(id)
        let source = drafts[id.entity].name
        guard let name = back.inverse, let location = back.inverseLocation, let target = back.target,
            let t = index[target]
        else { return nil }
        // Of a relationship to a union, the back side pairs with the one to its own entity.
        let candidates = drafts[t].relationships.indices.filter { drafts[t].relationships[$0].name == name }
        guard let k = candidates.first(where: { drafts[t].relationships[$0].target == source }) ?? candidates.first else {
            let hint = Suggestion.hint(for: name, among: drafts[t].relationships.map(\.name))
            report(.invalidInverse, "inverse '\(name)' names no relationship of '\(target)'\(hint)", at: location)
            return nil
        }
        let forwardID = RelationshipID(entity: t, relationship: k)
        let forward = relationship(forwardID)
        let named = "inverse '\(name)' names '\(qualifiedName(forwardID))'"
        if forwardID == id {
            report(.invalidInverse, "relationship '\(qualifiedName(id))' cannot be its own inverse", at: location)
        } else if let other = forward.inverse, other == back.name, forward.target == source {
            // Both sides name each other: reported once, at the later one.
            if forwardID < id {
                report(
                    .invalidInverse,
                    "'\(qualifiedName(forwardID))' and '\(qualifiedName(id))' both declare 'inverse'; "
                        + "only the back side may declare it",
                    at: location)
            }
        } else if let other = forward.inverse {
            report(.invalidInverse, "\(named), which is itself a back side (inverse: \(other))", at: location)
        } else if let forwardTarget = forward.target, forwardTarget != source {
            // A target that names no entity is reported on its own.
            if index[forwardTarget] != nil {
                report(
                    .invalidInverse, "\(named), which points to '\(forwardTarget)', not back to '\(source)'",
                    at: location)
            }
        } else {
            return forwardID
        }
        return nil
    }

    /// One link per forward relationship, in declaration order, stored as SPEC 1.3 says.
    private mutating func makeLinks(
        _ index: [String: Int], backSides: [RelationshipID: RelationshipID], skipping duplicates: Set<Int>,
        tables: inout [String: String]
    ) -> (links: [Link], linkIndex: [RelationshipID: Int]) {
        var links: [Link] = []
        var linkIndex: [RelationshipID: Int] = [:]
        for (i, draft) in drafts.enumerated() where !duplicates.contains(i) {
            for (j, forward) in draft.relationships.enumerated() where forward.inverse == nil {
                guard let kind = forward.kind, let target = forward.target, let t = index[target] else { continue }
                let id = RelationshipID(entity: i, relationship: j)
                let backID = backSides[id]
                let back = backID.map(relationship)
                let storage: Link.Storage
                switch (kind, back?.kind) {
                case (.many, .one):
                    storage = .foreignKey(
                        table: drafts[t].table, column: back?.name ?? "", onSource: false, isUnique: false)
                case (.one, let backKind):
                    storage = .foreignKey(
                        table: draft.table, column: forward.storageName, onSource: true, isUnique: backKind == .one)
                case (.many, _):
                    let name = "\(draft.table)_\(forward.storageName)"
                    claimLinkTable(name, for: qualifiedName(id), at: forward.location, tables: &tables)
                    storage = .linkTable(name: name)
                }
                linkIndex[id] = links.count
                if let backID { linkIndex[backID] = links.count }
                links.append(
                    Link(source: draft.name, forward: forward.name, target: target, back: back?.name, storage: storage))
            }
        }
        return (links, linkIndex)
    }

    /// Records link table `name`, reporting a clash with an entity table or another link table.
    private mutating func claimLinkTable(
        _ name: String, for relationship: String, at location: SourceLocation, tables: inout [String: String]
    ) {
        if let owner = tables[name.lowercased()] {
            report(
                .duplicateName, "link table '\(name)' of '\(relationship)' collides with the table of \(owner)",
                at: location)
        } else {
            tables[name.lowercased()] = "link table of '\(relationship)'"
        }
    }

    private func makeEntity(
        _ draft: EntityDraft, at i: Int, distribution: Distribution?, linkIndex: [RelationshipID: Int]
    ) -> EntitySpec {
        let relationships = draft.relationships.enumerated().map { j, r in
            guard let target = r.target, let kind = r.kind,
                let link = linkIndex[RelationshipID(entity: i, relationship: j)]
            else {
                preconditionFailure("relationship '\(draft.name).\(r.name)' unresolved without a diagnostic")
            }
            return RelationshipSpec(
                name: r.name, target: target, kind: kind, key: r.key, by: r.by, inverse: r.inverse, policy: r.policy,
                onDelete: r.onDelete, missing: r.missing, linkIndex: link, targetKey: r.targetKey, union: r.union,
                location: r.location)
        }
        // A distributed entity's keys are unique within its tenant: the tenant comes first in them.
        let declaredKey = draft.primaryKey.map(\.name)
        var primaryKey = declaredKey
        if case .key(let tenant)? = distribution, !draft.isOwned, !declaredKey.contains(tenant) {
            primaryKey = [tenant] + declaredKey
        }
        return EntitySpec(
            name: draft.name, table: draft.table, primaryKey: primaryKey,
            attributes: draft.attributes.map(\.spec), relationships: relationships, root: draft.root,
            cleanup: draft.cleanup ?? (draft.isOwned ? .orphans : .none), hasTimestamps: draft.hasTimestamps,
            distribution: distribution, referenceKey: declaredKey, tombstones: draft.tombstones,
            versionAttribute: draft.version?.name, location: draft.location)
    }
}
