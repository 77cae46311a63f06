import Foundation

/// Everything the importer needs about one entity, resolved once per store: JSON keys as bytes,
/// converters, validation, how its relationships are stored.
final class EntityPlan {
    let spec: EntitySpec
    let index: Int
    /// Quoted table name and row-id column.
    let table: String
    let rowID: String
    /// Attribute positions of the primary key, in key order.
    let keySlots: [Int]
    /// Attribute positions of the key a reference by key gives (``EntitySpec/referenceKey``).
    let referenceKeySlots: [Int]
    /// Attribute position of a distributed entity's tenant.
    let tenantSlot: Int?
    /// Tombstone rules with their key paths as UTF-8 (`deleteWhen`).
    let tombstones: [(path: [[UInt8]], value: LiteralValue)]
    /// Attribute position of the `version` attribute.
    let versionSlot: Int?
    /// Whether a record goes through step 0 (SPEC 2.2): tombstone rules or a version.
    var hasSyncRules: Bool { !tombstones.isEmpty || versionSlot != nil }
    let attributes: [AttributePlan]
    /// The type of each attribute, by position: read for every value a row stores, without
    /// going through its ``AttributePlan`` (a class: a retain and a release each time).
    let types: [AttributeType]
    /// Attribute positions of neither the key nor the tenant, in order: read after them.
    let otherSlots: [Int]
    /// Relationships in declaration order; `selfColumnRelationships` index into it.
    @exclusivity(unchecked) var relationships: [RelationshipPlan] = []
    /// Relationships stored in a column of this table, in column order.
    @exclusivity(unchecked) var selfColumns: [Int] = []

    /// Keyed, with no link column that points at an owned row (which a record updates in place)
    /// or that is unique (one ↔ one: other rows release the target first): such rows need not
    /// be read before they are written, so they may be inserted first.
    var allowsInsertFirst: Bool {
        !spec.isOwned && !selfColumns.contains { column in
            if case .selfColumn(_, true) = relationships[column].storage { return true }
            return relationships[column].isTargetOwned
        }
    }

    /// Keyed rows holding nothing but attributes: a repeated identical record changes nothing.
    var skipsRepeats: Bool { !spec.isOwned && selfColumns.isEmpty }

    /// Skips repeated records, and a record's values follow from its JSON alone (no tombstones,
    /// versions or tenant): a nested record may be recognised by its bytes (``RecordSignatures``).
    var recognisesRepeats: Bool { skipsRepeats && !hasSyncRules && tenantSlot == nil }

    /// Attribute positions of the `unique` attributes, key parts included.
    lazy var uniqueAttributeSlots: [Int] = spec.attributes.indices.filter { spec.attributes[$0].isUnique }

    /// Attribute positions of the `unique` attributes outside the key.
    lazy var uniqueSlots: [Int] = uniqueAttributeSlots.filter { !keySlots.contains($0) }

    /// The statements the store prepared for this entity's rows (its own type), kept for the
    /// store's life.
    @exclusivity(unchecked) var storeStatements: AnyObject?

    /// `true` when the single `int` key is the row id itself.
    let keyIsRowID: Bool
    /// Whether a batch's keys of this entity's rows are row ids (see ``KeyList``): a single
    /// `int` key, not distributed (whose reads name their tenants).
    let keysAreRowIDs: Bool

    init(spec: EntitySpec, index: Int) {
        self.spec = spec
        self.index = index
        self.table = quote(spec.table)
        let rowIDColumn = spec.rowIDColumn
        self.rowID = quote(rowIDColumn)
        self.keyIsRowID = rowIDColumn != "_id"
        self.attributes = spec.attributes.map { AttributePlan($0, isKey: spec.primaryKey.contains($0.name)) }
        self.keySlots = spec.primaryKey.compactMap { name in spec.attributes.firstIndex { $0.name == name } }
        self.referenceKeySlots = spec.referenceKey.compactMap { name in spec.attributes.firstIndex { $0.name == name } }
        self.tenantSlot = spec.tenantAttribute.flatMap { name in spec.attributes.firstIndex { $0.name == name } }
        self.tombstones = spec.tombstones.map { ($0.key.segments.map { Array($0.utf8) }, $0.value) }
        self.versionSlot = spec.versionAttribute.flatMap { name in spec.attributes.firstIndex { $0.name == name } }
        self.types = spec.attributes.map(\.type)
        self.otherSlots = spec.attributes.indices.filter { [keySlots, tenantSlot] slot in !keySlots.contains(slot) && slot != tenantSlot }
        self.keysAreRowIDs = keyIsRowID && keySlots.count == 1 && tenantSlot == nil
    }
}

/// One attribute, ready to read from JSON.
final class AttributePlan {
    let spec: AttributeSpec
    /// Key path segments as UTF-8, compared against JSON member keys without allocating.
    let path: [[UInt8]]
    let regex: NSRegularExpression?
    let defaultValue: Value
    /// Whether values are checked (`enum`, `min`/`max` or `pattern`; see ``AttributeValidation``).
    let hasRules: Bool
    /// Whether its values go into an index: a primary key's, an `index`ed or a `unique`
    /// attribute (see ``AttributeValidation/longestIndexedText``).
    let isIndexed: Bool

    init(_ spec: AttributeSpec, isKey: Bool) {
        self.spec = spec
        self.path = spec.key.segments.map { Array($0.utf8) }
        self.regex = spec.pattern.flatMap { try? NSRegularExpression(pattern: "^(?:\($0))$") }
        self.defaultValue = spec.defaultValue.map(Value.init) ?? .null
        self.hasRules = spec.allowedValues != nil || spec.minimum != nil || spec.maximum != nil || spec.pattern != nil
        self.isIndexed = isKey || spec.isIndexed || spec.isUnique
    }
}

/// One relationship, ready to import.
final class RelationshipPlan {
    let spec: RelationshipSpec
    let target: Int
    let path: [[UInt8]]
    /// The key path as JSON paths in errors show it.
    let pathLabel: String
    let storage: Storage
    /// Whether rows at the other end read this link (so a change touches them).
    let otherSideReads: Bool
    let isTargetOwned: Bool

    enum Storage {
        /// A column of this entity's table pointing at the target row.
        case selfColumn(column: String, isUnique: Bool)
        /// A column of the target's table pointing at this row.
        case otherColumn(column: String)
        /// A link table; `selfIsSource` on the forward side.
        case linkTable(name: String, selfIsSource: Bool)
    }

    /// The entity the relationship belongs to, and its target's plan.
    unowned let entity: EntityPlan
    unowned let targetPlan: EntityPlan
    /// For one concrete entity of a relationship to a union: the union, which routes each
    /// object to this relationship or to one of its siblings of the same name.
    let union: UnionPlan?
    /// The statements the store prepared for this relationship's links (its own type).
    @exclusivity(unchecked) var storeStatements: AnyObject?

    init(
        spec: RelationshipSpec, target: Int, path: [[UInt8]], storage: Storage, otherSideReads: Bool,
        isTargetOwned: Bool, entity: EntityPlan, targetPlan: EntityPlan, union: UnionPlan?
    ) {
        self.union = union
        self.spec = spec
        self.target = target
        self.path = path
        self.pathLabel = spec.key.description
        self.storage = storage
        self.otherSideReads = otherSideReads
        self.isTargetOwned = isTargetOwned
        self.entity = entity
        self.targetPlan = targetPlan
    }

    var columnName: String? {
        if case .selfColumn(let column, _) = storage { return column }
        return nil
    }

    /// The target attribute references match (`targetKey`), by its position; `nil` for the
    /// primary key.
    var targetKeySlot: Int? {
        spec.targetKey.flatMap { name in targetPlan.spec.attributes.firstIndex { $0.name == name } }
    }
}

/// A union (SPEC 1.4), ready to route objects to its concrete entities.
final class UnionPlan {
    let spec: UnionSpec
    /// The discriminator's key path as UTF-8.
    let path: [[UInt8]]
    /// What each discriminator value routes to.
    fileprivate(set) var routes: [String: Route] = [:]
    /// The concrete entities, by index, in ``UnionSpec/entities`` order.
    let entities: [Int]

    enum Route {
        case entity(Int)
        case union(UnionPlan)
    }

    /// The discriminators an object of concrete entity `entity` is written with: the key path
    /// and value of this union's route to it, then those of the nested unions on the way.
    func discriminators(of entity: Int) -> [(path: [String], value: String)] {
        for route in spec.routes {
            switch routes[route.value] {
            case .entity(let index)? where index == entity:
                return [(spec.key.segments, route.value)]
            case .union(let nested)? where nested.entities.contains(entity):
                return [(spec.key.segments, route.value)] + nested.discriminators(of: entity)
            default:
                continue
            }
        }
        return []
    }

    init(spec: UnionSpec, entities: [Int]) {
        self.spec = spec
        self.path = spec.key.segments.map { Array($0.utf8) }
        self.entities = entities
    }
}

/// The plans for every entity of a spec.
final class ImportPlan {
    let spec: MappingSpec
    let entities: [EntityPlan]
    /// Unions by name.
    let unions: [String: UnionPlan]

    init(spec: MappingSpec) {
        self.spec = spec
        let plans = spec.entities.enumerated().map { EntityPlan(spec: $1, index: $0) }
        var byName: [String: Int] = [:]
        for plan in plans { byName[plan.spec.name] = plan.index }
        var unions: [String: UnionPlan] = [:]
        for union in spec.unions {
            unions[union.name] = UnionPlan(spec: union, entities: union.entities.compactMap { byName[$0] })
        }
        for union in spec.unions {
            for route in union.routes where unions[union.name]!.routes[route.value] == nil {
                unions[union.name]!.routes[route.value] = byName[route.target].map(UnionPlan.Route.entity) ?? unions[route.target].map(UnionPlan.Route.union)
            }
        }
        self.unions = unions
        for plan in plans {
            for relationship in plan.spec.relationships {
                let link = spec.links[relationship.linkIndex]
                let target = plans[byName[relationship.target]!]
                let storage: RelationshipPlan.Storage
                switch link.storage {
                case .foreignKey(let table, let column, _, let isUnique):
                    storage = table == plan.spec.table
                        && (relationship.isForward ? link.storage.isOnSource : !link.storage.isOnSource)
                        ? .selfColumn(column: column, isUnique: isUnique) : .otherColumn(column: column)
                case .linkTable(let name):
                    storage = .linkTable(name: name, selfIsSource: relationship.isForward)
                }
                let entry = RelationshipPlan(
                    spec: relationship, target: target.index,
                    path: relationship.key.segments.map { Array($0.utf8) }, storage: storage,
                    otherSideReads: !relationship.isForward || link.back != nil,
                    isTargetOwned: target.spec.isOwned,
                    entity: plan, targetPlan: target, union: relationship.union.flatMap { unions[$0] })
                if entry.columnName != nil { plan.selfColumns.append(plan.relationships.count) }
                plan.relationships.append(entry)
            }
        }
        self.entities = plans
    }

    /// Whether any entity has a `unique` attribute besides its key.
    var hasUniqueAttributes: Bool { entities.contains { !$0.uniqueSlots.isEmpty } }

    func entity(named name: String) -> EntityPlan? {
        entities.first { $0.spec.name == name }
    }
}

extension Link.Storage {
    var isOnSource: Bool {
        if case .foreignKey(_, _, let onSource, _) = self { return onSource }
        return false
    }
}
