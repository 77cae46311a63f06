/// Distribution for a distributed PostgreSQL (SPEC 6): which entities are spread by a tenant,
/// which are reference tables, and the tenant attribute of each entity that takes its tenant
/// from the entities it links to.
extension MappingLoader {
    /// A tenant attribute, and the entity whose `distribution` declares it.
    private struct Tenant {
        let attribute: AttributeSpec
        let origin: Int
    }

    /// The distribution of each draft, by index. An entity without `distribution` that links
    /// (either way, back sides included) to a distributed entity is distributed too, by the
    /// tenant attribute of the entity it links to; the attribute is added when the entity does
    /// not declare it, read from the same JSON key and otherwise taken from the record it is
    /// nested in. Reference entities stop that spread, and may not link to distributed ones.
    mutating func resolveDistributions(_ index: [String: Int]) -> [Distribution?] {
        var tenants: [Int: Tenant] = [:]
        var queue: [Int] = []
        for (i, draft) in drafts.enumerated() {
            guard case .key(let name, let location) = draft.distribution,
                let attribute = tenantAttribute(name, of: draft, at: location)
            else { continue }
            tenants[i] = Tenant(attribute: attribute, origin: i)
            queue.append(i)
        }
        let neighbours = linkedEntities(index)
        // Pairs of linked entities whose tenants disagree, reported once.
        var reported: Set<[Int]> = []
        var next = 0
        while next < queue.count {
            let i = queue[next]
            next += 1
            let tenant = tenants[i]!
            for other in neighbours[i] {
                if case .reference = drafts[other].distribution { continue }
                if let known = tenants[other] {
                    let pair = [min(i, other), max(i, other)]
                    if !reported.contains(pair) && !agree(known, tenant, at: other, linkedTo: i) { reported.insert(pair) }
                    continue
                }
                // A declared distribution that failed its checks is already reported.
                guard drafts[other].distribution == nil else { continue }
                tenants[other] = tenant
                queue.append(other)
            }
        }
        checkReferenceEntities(index, tenants: tenants)
        for i in tenants.keys.sorted() {
            for attribute in drafts[i].attributes where attribute.spec.isUnique {
                report(
                    .invalidDistribution,
                    "'unique' attribute '\(attribute.spec.name)' of distributed entity '\(drafts[i].name)': a distributed "
                        + "table keeps only unique values that hold the tenant; use 'index: true'",
                    at: attribute.spec.location)
            }
        }
        for (i, tenant) in tenants where drafts[i].distribution == nil { inherit(tenant, into: i) }
        return drafts.indices.map { i in
            if case .reference = drafts[i].distribution { return .reference }
            return tenants[i].map { .key($0.attribute.name) }
        }
    }

    /// The attribute `name` of `draft`, when it can hold a tenant; problems are reported.
    private mutating func tenantAttribute(_ name: String, of draft: EntityDraft, at location: SourceLocation) -> AttributeSpec? {
        guard let found = draft.attributes.first(where: { $0.spec.name == name }) else {
            let hint = Suggestion.hint(for: name, among: draft.attributes.map(\.spec.name))
            report(.invalidDistribution, "distribution key '\(name)' names no attribute of '\(draft.name)'\(hint)", at: location)
            return nil
        }
        guard found.isTypeKnown else { return nil }
        guard [.scalar(.int), .scalar(.string), .scalar(.uuid)].contains(found.spec.type) else {
            report(
                .invalidDistribution,
                "distribution key '\(name)' has type \(found.spec.type); a tenant is an int, a string or a uuid",
                at: location)
            return nil
        }
        if !found.spec.isExported, let exportLocation = found.exportLocation {
            report(
                .invalidDistribution,
                "distribution key '\(name)' cannot be 'export: false': it is part of every key of '\(draft.name)'",
                at: exportLocation)
            return nil
        }
        return found.spec
    }

    /// For each draft, the drafts it links to or is linked from, in declaration order.
    private func linkedEntities(_ index: [String: Int]) -> [[Int]] {
        var neighbours = [[Int]](repeating: [], count: drafts.count)
        for (i, draft) in drafts.enumerated() {
            for relationship in draft.relationships {
                guard let target = relationship.target.flatMap({ index[$0] }) else { continue }
                if !neighbours[i].contains(target) { neighbours[i].append(target) }
                if !neighbours[target].contains(i) { neighbours[target].append(i) }
            }
        }
        return neighbours
    }

    /// Whether the tenant `known` of entity `other` and the tenant of the entity `linked` it
    /// links to agree: one type, and one name unless `other` declares its own. Reports why not.
    private mutating func agree(_ known: Tenant, _ tenant: Tenant, at other: Int, linkedTo linked: Int) -> Bool {
        let draft = drafts[other]
        let location: SourceLocation
        if case .key(_, let declared) = draft.distribution { location = declared } else { location = draft.location }
        let theirs = "'\(drafts[tenant.origin].name)' (tenant '\(tenant.attribute.name)', \(tenant.attribute.type))"
        if known.attribute.type != tenant.attribute.type {
            report(
                .invalidDistribution,
                "entity '\(draft.name)' has tenant '\(known.attribute.name)' of type \(known.attribute.type) but links "
                    + "to '\(drafts[linked].name)', distributed like \(theirs): linked entities share one tenant type",
                at: location)
            return false
        }
        if draft.distribution == nil && known.attribute.name != tenant.attribute.name {
            report(
                .invalidDistribution,
                "entity '\(draft.name)' links to entities distributed like '\(drafts[known.origin].name)' (tenant "
                    + "'\(known.attribute.name)') and like \(theirs); give it 'distribution: { key: … }' of its own",
                at: location)
            return false
        }
        return true
    }

    /// A reference table is held whole by every node: it cannot point into one tenant's rows.
    private mutating func checkReferenceEntities(_ index: [String: Int], tenants: [Int: Tenant]) {
        for draft in drafts {
            guard case .reference = draft.distribution else { continue }
            for relationship in draft.relationships {
                guard let target = relationship.target, let t = index[target], tenants[t] != nil else { continue }
                report(
                    .invalidDistribution,
                    "reference entity '\(draft.name)' cannot link to distributed entity '\(target)' "
                        + "(relationship '\(relationship.name)'): rows shared by every tenant cannot point into one "
                        + "tenant's rows; declare the relationship on '\(target)' only",
                    at: relationship.location)
            }
        }
    }

    /// Gives draft `i` the tenant attribute of the entities it links to: its own attribute of
    /// that name, or a new one read from the same JSON key.
    private mutating func inherit(_ tenant: Tenant, into i: Int) {
        let name = tenant.attribute.name
        let draft = drafts[i]
        if let own = draft.attributes.first(where: { $0.spec.name == name }) {
            guard own.isTypeKnown, own.spec.type != tenant.attribute.type else { return }
            report(
                .invalidDistribution,
                "attribute '\(name)' of '\(draft.name)' has type \(own.spec.type), but '\(draft.name)' takes the tenant "
                    + "'\(name)' (\(tenant.attribute.type)) of '\(drafts[tenant.origin].name)', which it links to",
                at: own.spec.location)
            return
        }
        if let relationship = draft.relationships.first(where: { $0.name.lowercased() == name.lowercased() }) {
            report(
                .invalidDistribution,
                "relationship '\(relationship.name)' of '\(draft.name)' takes the name of the tenant attribute "
                    + "'\(name)' it inherits from '\(drafts[tenant.origin].name)'",
                at: relationship.location)
            return
        }
        let attribute = AttributeSpec(name: name, type: tenant.attribute.type, key: tenant.attribute.key, location: draft.location)
        drafts[i].attributes.append(AttributeDraft(spec: attribute, isTypeKnown: true, exportLocation: nil))
    }
}
