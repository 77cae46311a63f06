/// Reading a file's top level and its entities (SPEC 1, 1.1).
extension MappingLoader {
    static let topLevelKeys = ["version", "defaults", "entities", "documents"]
    static let defaultsKeys = ["keyStyle"]
    static let entityKeys = [
        "primaryKey", "attributes", "relationships", "keyStyle", "root", "table", "cleanup", "timestamps",
        "distribution", "oneOf", "deleteWhen", "version",
    ]

    static let keyStyles = KeyStyle.allCases.map { ($0.rawValue, $0) }
    static let cleanupPolicies: [(String, CleanupPolicy)] = [("orphans", .orphans), ("none", .none)]

    mutating func readTopLevel(_ root: YAMLNode?) {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard let root, root.resolved != .null else {
            report(.missingKey, "mapping file is empty: expected top-level 'entities'", at: start)
            return
        }
        guard let top = fields(root, allowed: Self.topLevelKeys, place: "at the top level") else { return }
        if let version = top["version"], version.resolved != .int(1, text: "1") {
            report(
                .invalidValue,
                "unsupported version '\(version.scalar?.value ?? version.summary)' (only version 1 exists)", at: version
            )
        }
        var keyStyle = KeyStyle.asIs
        if let defaults = top["defaults"],
            let fields = fields(defaults, allowed: Self.defaultsKeys, place: "in 'defaults'"),
            let node = fields["keyStyle"]
        {
            keyStyle = option(node, for: "keyStyle", Self.keyStyles) ?? .asIs
        }
        if let documents = top["documents"] {
            for pair in pairs(documents, place: "for 'documents'") ?? [] {
                guard let name = pair.key.scalar?.value else { continue }
                readDocument(name, key: pair.key, body: pair.value)
            }
        }
        guard let entities = top["entities"] else {
            if top["documents"] == nil { report(.missingKey, "missing top-level key 'entities'", at: location(of: root)) }
            return
        }
        for pair in pairs(entities, place: "for 'entities'") ?? [] {
            guard let name = pair.key.scalar?.value else { continue }
            readEntity(name, key: pair.key, body: pair.value, keyStyle: keyStyle)
        }
    }

    private mutating func readEntity(_ name: String, key: YAMLNode, body: YAMLNode, keyStyle fileStyle: KeyStyle) {
        var entity = EntityDraft(name: name, location: location(of: key))
        checkName(name, kind: "entity", at: entity.location)
        let place = "in entity '\(name)'"
        guard let fields = fields(body, allowed: Self.entityKeys, place: place) else {
            drafts.append(entity)
            return
        }
        if let node = fields["oneOf"] {
            readUnion(name, at: entity.location, oneOf: node, fields: fields)
            return
        }
        let keyStyle = fields["keyStyle"].flatMap { option($0, for: "keyStyle", Self.keyStyles) } ?? fileStyle
        if let node = fields["table"], let table = text(node, for: "table") {
            entity.table = table
            entity.tableLocation = location(of: node)
            checkName(table, kind: "table", at: entity.tableLocation)
        }
        if let node = fields["root"] { entity.root = keyPath(node, for: "root") }
        if let node = fields["cleanup"] { entity.cleanup = option(node, for: "cleanup", Self.cleanupPolicies) }
        if let node = fields["timestamps"] { entity.hasTimestamps = bool(node, for: "timestamps") ?? true }
        if let node = fields["distribution"] { entity.distribution = readDistribution(node, of: name) }
        if let node = fields["deleteWhen"] {
            entity.tombstones = readTombstones(node, of: name)
            entity.tombstonesLocation = fields.keyNode("deleteWhen").map(location(of:))
        }
        if let node = fields["version"], let version = text(node, for: "version") { entity.version = (version, location(of: node)) }
        if let node = fields["primaryKey"] {
            entity.declaresPrimaryKey = true
            entity.primaryKey = readPrimaryKey(node)
        }
        if let node = fields["attributes"] {
            for pair in pairs(node, place: "for 'attributes' of '\(name)'") ?? [] {
                guard let property = pair.key.scalar?.value else { continue }
                entity.attributes.append(
                    readAttribute(property, of: name, key: pair.key, body: pair.value, keyStyle: keyStyle))
            }
            if entity.attributes.isEmpty, node.resolved == .null || node.mapping?.isEmpty == true {
                report(
                    .missingKey, "entity '\(name)' needs at least one attribute",
                    at: fields.keyNode("attributes") ?? node)
            }
        } else {
            report(.missingKey, "entity '\(name)' has no 'attributes'", at: key)
        }
        if let node = fields["relationships"] {
            for pair in pairs(node, place: "for 'relationships' of '\(name)'") ?? [] {
                guard let property = pair.key.scalar?.value else { continue }
                entity.relationships.append(
                    readRelationship(property, of: name, key: pair.key, body: pair.value, keyStyle: keyStyle))
            }
        }
        checkPropertyNames(of: entity)
        // Without attributes every key name would be reported too; the missing attributes say it all.
        if !entity.attributes.isEmpty {
            checkPrimaryKey(of: entity)
            checkSyncRules(of: entity)
        }
        drafts.append(entity)
    }

    /// `deleteWhen: { key: KEYPATH, equals: VALUE }`, or a list of them.
    private mutating func readTombstones(_ node: YAMLNode, of entity: String) -> [Tombstone] {
        var rules: [Tombstone] = []
        for item in node.sequence ?? [node] {
            guard item.mapping != nil else {
                report(.invalidValue, "'deleteWhen' is '{ key: KEYPATH, equals: VALUE }' or a list of them, found \(item.summary)", at: item)
                continue
            }
            guard let fields = fields(item, allowed: ["key", "equals"], place: "in 'deleteWhen' of '\(entity)'") else { continue }
            guard let keyNode = fields["key"], let equals = fields["equals"] else {
                report(.missingKey, "'deleteWhen' of '\(entity)' needs 'key' (where the marker is) and 'equals' (its value)", at: item)
                continue
            }
            guard let key = keyPath(keyNode, for: "key") else { continue }
            guard let value = Self.literal(equals) else {
                report(.invalidValue, "'equals' takes a JSON value (a string, number, bool or null), found \(equals.summary)", at: equals)
                continue
            }
            rules.append(Tombstone(key: key, value: value))
        }
        return rules
    }

    /// A tombstone deletes a row by its key, and a version is an `int` or a `date` attribute.
    private mutating func checkSyncRules(of entity: EntityDraft) {
        if entity.isOwned, let location = entity.tombstonesLocation {
            report(.invalidValue, "'deleteWhen' needs a primary key: entity '\(entity.name)' is owned, a tombstone could not name its row", at: location)
        }
        guard let (name, location) = entity.version else { return }
        guard let attribute = entity.attributes.first(where: { $0.spec.name == name }) else {
            let hint = Suggestion.hint(for: name, among: entity.attributes.map(\.spec.name))
            report(.invalidValue, "version '\(name)' names no attribute of '\(entity.name)'\(hint)", at: location)
            return
        }
        if attribute.isTypeKnown, attribute.spec.type != .scalar(.int), attribute.spec.type != .scalar(.date) {
            report(.invalidValue, "version attribute '\(name)' of '\(entity.name)' is \(attribute.spec.type); a version is an int or a date", at: location)
        }
    }

    /// `distribution: reference` or `distribution: { key: ATTRIBUTE }`.
    private mutating func readDistribution(_ node: YAMLNode, of entity: String) -> DistributionDraft? {
        if node.scalar?.value == "reference", node.resolved != .null { return .reference(location(of: node)) }
        guard node.mapping != nil else {
            report(
                .invalidValue,
                "'distribution' is 'reference' or '{ key: ATTRIBUTE }', found \(node.summary)", at: node)
            return nil
        }
        let place = "in 'distribution' of '\(entity)'"
        guard let fields = fields(node, allowed: ["key"], place: place) else { return nil }
        guard let keyNode = fields["key"] else {
            report(.missingKey, "'distribution' of '\(entity)' needs 'key: ATTRIBUTE' (the tenant attribute)", at: node)
            return nil
        }
        return text(keyNode, for: "key").map { .key($0, location(of: keyNode)) }
    }

    private mutating func readPrimaryKey(_ node: YAMLNode) -> [(name: String, location: SourceLocation)] {
        let items = node.sequence ?? [node]
        if items.isEmpty { report(.invalidPrimaryKey, "'primaryKey' lists no attribute", at: node) }
        var names: [(name: String, location: SourceLocation)] = []
        for item in items {
            guard let name = text(item, for: "primaryKey") else { continue }
            if names.contains(where: { $0.name == name }) {
                report(.invalidPrimaryKey, "primary key lists '\(name)' twice", at: item)
            } else {
                names.append((name, location(of: item)))
            }
        }
        return names
    }

    /// Attributes and relationships share one namespace, and their columns are compared
    /// without regard to case, as SQLite compares them.
    private mutating func checkPropertyNames(of entity: EntityDraft) {
        var seen: [String: (name: String, location: SourceLocation)] = [:]
        let properties =
            entity.attributes.map { ($0.spec.name, $0.spec.location) }
            + entity.relationships.map { ($0.name, $0.location) }
        for (name, location) in properties.sorted(by: { ($0.1.line, $0.1.column) < ($1.1.line, $1.1.column) }) {
            if let first = seen[name.lowercased()] {
                let caseNote = first.name == name ? "" : " (as '\(first.name)'; column names ignore case)"
                report(
                    .duplicateName,
                    "duplicate property '\(name)' in entity '\(entity.name)'\(caseNote), "
                        + "first declared at \(first.location)",
                    at: location)
            } else {
                seen[name.lowercased()] = (name, location)
            }
        }
    }

    private mutating func checkPrimaryKey(of entity: EntityDraft) {
        for key in entity.primaryKey {
            guard let attribute = entity.attributes.first(where: { $0.spec.name == key.name }) else {
                let hint = Suggestion.hint(for: key.name, among: entity.attributes.map(\.spec.name))
                report(
                    .invalidPrimaryKey, "primary key '\(key.name)' names no attribute of '\(entity.name)'\(hint)",
                    at: key.location)
                continue
            }
            let type = attribute.spec.type
            if attribute.isTypeKnown, type == .json || type == .date || type.isArray {
                report(
                    .invalidPrimaryKey,
                    "primary-key attribute '\(key.name)' has type \(type); json, date and array types cannot be keys",
                    at: key.location)
            }
            if !attribute.spec.isExported, let exportLocation = attribute.exportLocation {
                report(
                    .invalidPrimaryKey,
                    "primary-key attribute '\(key.name)' cannot be 'export: false': exports must keep the key",
                    at: exportLocation)
            }
        }
    }
}

extension AttributeType {
    /// `true` for `[T]`.
    var isArray: Bool {
        if case .array = self { return true }
        return false
    }

    /// The scalar type itself, or the element type of `[T]`.
    var elementType: ScalarType {
        switch self {
        case .scalar(let t), .array(let t): return t
        }
    }
}
