/// What an import reads its records as: the root records of an entity or a union (SPEC 1.4),
/// or the several record lists of a document (SPEC 1.5).
struct ImportTarget {
    /// The name the import was asked for, as its report names it.
    let name: String
    /// The record lists, in the order they are imported.
    let roots: [Root]
    /// `true` for a document: a root key missing from a payload imports nothing.
    let isDocument: Bool

    /// One record list.
    struct Root {
        /// Where the records are; `nil` for the whole payload.
        let path: JSONKeyPath?
        /// The entity its records are, or `nil` for a union's.
        let entity: EntityPlan?
        /// The union that routes each record to its entity.
        let union: UnionPlan?
        /// Every entity its records can be, in declaration order.
        let entities: [EntityPlan]
    }

    /// The target `name` names in `plan`, with the root key path of `options` (which only an
    /// entity or a union takes).
    ///
    /// - Throws: ``ImportError`` (usage) for an unknown name, or `--root` given for a document.
    init(named name: String, in plan: ImportPlan, options: ImportOptions) throws(ImportError) {
        let override = options.root.map(JSONKeyPath.init(dotted:))
        if let entity = plan.entity(named: name) {
            self.init(entity: entity, options: options)
        } else if let union = plan.unions[name] {
            self.init(name: name, roots: [Self.root(of: union, at: override ?? union.spec.root, plan)], isDocument: false)
        } else if let document = plan.spec.document(named: name) {
            if options.root != nil {
                throw ImportError(
                    code: .usage, message: "--root does not apply to document '\(name)': its roots say where each record list is",
                    report: ImportReport(entity: name))
            }
            let roots = document.roots.map { root in
                if let entity = plan.entity(named: root.entity) {
                    return Root(path: root.path, entity: entity, union: nil, entities: [entity])
                }
                return Self.root(of: plan.unions[root.entity]!, at: root.path, plan)
            }
            self.init(name: name, roots: roots, isDocument: true)
        } else {
            let names = plan.spec.entities.map(\.name) + plan.spec.unions.map(\.name) + plan.spec.documents.map(\.name)
            let hint = Suggestion.hint(for: name, among: names)
            throw ImportError(code: .usage, message: "unknown entity '\(name)'\(hint)", report: ImportReport(entity: name))
        }
    }

    /// The target of an import of `entity`'s records, at the root key path of `options` or
    /// the entity's own.
    init(entity: EntityPlan, options: ImportOptions) {
        let path = options.root.map(JSONKeyPath.init(dotted:)) ?? entity.spec.root
        self.init(name: entity.spec.name, roots: [Root(path: path, entity: entity, union: nil, entities: [entity])], isDocument: false)
    }

    private init(name: String, roots: [Root], isDocument: Bool) {
        self.name = name
        self.roots = roots
        self.isDocument = isDocument
    }

    private static func root(of union: UnionPlan, at path: JSONKeyPath?, _ plan: ImportPlan) -> Root {
        Root(path: path, entity: nil, union: union, entities: union.entities.map { plan.entities[$0] })
    }

    /// Every entity the import's root records can be, each once, in declaration order.
    var entities: [EntityPlan] {
        var seen: Set<Int> = []
        return roots.flatMap(\.entities).filter { seen.insert($0.index).inserted }.sorted { $0.index < $1.index }
    }
}
