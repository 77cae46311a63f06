/// The Swift type of every attribute, key and relationship of a spec, as generated code
/// declares them (see ``SwiftCodeGenerator``).
struct SwiftTypeModel {
    let spec: MappingSpec
    /// `Entity.relationship` of `one` relationships typed `Related` rather than the target's
    /// struct, because the target's struct would otherwise contain the source's.
    private var relatedToBreakCycles: Set<String> = []

    /// - Throws: ``CodegenError`` when owned entities contain each other through `one`
    ///   relationships.
    init(spec: MappingSpec) throws {
        self.spec = spec
        for entity in spec.entities {
            for relationship in entity.relationships where isHeldByValue(relationship, in: entity) {
                guard reaches(relationship.target, entity.name, visited: []) else { continue }
                let target = spec[entity: relationship.target]
                guard !target.isOwned else {
                    throw CodegenError(
                        message: "\(entity.name).\(relationship.name): \(entity.name) and \(target.name) contain each "
                            + "other through 'one' relationships to owned entities; a Swift struct cannot contain itself")
                }
                relatedToBreakCycles.insert("\(entity.name).\(relationship.name)")
            }
        }
    }

    // MARK: Attributes and keys

    /// `Int`, `[Date]`, … for an attribute (never optional).
    func type(of attribute: AttributeSpec) -> String {
        switch attribute.type {
        case .scalar(let scalar): return Self.name(of: scalar)
        case .array(let element): return "[\(Self.name(of: element))]"
        }
    }

    static func name(of scalar: ScalarType) -> String {
        switch scalar {
        case .string: return "String"
        case .int: return "Int"
        case .double: return "Double"
        case .bool: return "Bool"
        case .date: return "Date"
        case .decimal: return "Decimal"
        case .uuid: return "UUID"
        case .url: return "URL"
        case .json: return "JSONValue"
        }
    }

    /// The type references to `entity` are written as: its key attribute's type, or the
    /// entity's nested `Key` struct for a composite key; `nil` for an owned entity.
    func keyType(of entity: EntitySpec) -> String? {
        let keys = entity.keyAttributes
        if keys.count > 1 { return "\(SwiftName.type(entity.name)).Key" }
        return keys.first.map(type(of:))
    }

    /// Whether `attribute` of `entity` is a non-optional property without a default: a scalar
    /// that is `required` and exported, so every record written holds it. Keys are
    /// non-optional as well; `required` arrays stay optional (an empty array and none read
    /// alike).
    func isRequiredProperty(_ attribute: AttributeSpec, of entity: EntitySpec) -> Bool {
        guard attribute.isRequired, attribute.isExported, !entity.primaryKey.contains(attribute.name),
            case .scalar = attribute.type
        else { return false }
        return true
    }

    /// Whether `entity`'s struct has a nested `Reference`: the key alone, as `by: object`
    /// relationships to it write a reference below the export depth (`{"id": 8}`), which the
    /// struct itself cannot decode because it has required properties. Not for an owned
    /// entity, nor when an entity is itself named `Reference`.
    func hasReference(_ entity: EntitySpec) -> Bool {
        !entity.isOwned && !spec.entities.contains { $0.name == "Reference" }
            && entity.attributes.contains { isRequiredProperty($0, of: entity) }
            && spec.entities.contains { source in
                // A union's rows are references below the depth however the relationship reads them.
                source.relationships.contains { $0.target == entity.name && ($0.by == .object || $0.union != nil) }
            }
    }

    /// The top-level JSON keys of the discriminators of every union `entity` is in: an object
    /// holding them beside the key is still a reference (`{"type": "User", "id": 5}`).
    func discriminatorKeys(of entity: EntitySpec) -> [String] {
        spec.unions.filter { $0.entities.contains(entity.name) }.compactMap(\.key.segments.first)
    }

    /// The type a union's case holds for concrete entity `name`: its struct, or `Related` with
    /// its `Reference` when the struct cannot decode a reference alone.
    func unionCaseType(of name: String) -> String {
        let target = spec[entity: name]
        let record = SwiftName.type(target.name)
        return hasReference(target) ? "Related<\(record), \(record).Reference>" : record
    }

    /// Whether references to `entity` are single `UUID` values (written lowercase).
    func hasUUIDKey(_ entity: EntitySpec) -> Bool {
        entity.keyAttributes.count == 1 && entity.keyAttributes[0].type == .uuid
    }

    // MARK: Relationships

    /// How a relationship's value is typed.
    enum RelationshipForm: Equatable {
        /// The target's struct.
        case record
        /// The target's key type.
        case key
        /// `Related<Target, Key>`: either.
        case related
        /// `Related<Target, Target.Reference>`: the record, or an object holding only its key.
        case reference
    }

    /// The form of `relationship` of `entity`, or `nil` when the relationship is not written
    /// (a back side to an owned entity: its rows have no key).
    func form(of relationship: RelationshipSpec, in entity: EntitySpec) -> RelationshipForm? {
        let target = spec[entity: relationship.target]
        if target.isOwned { return relationship.isForward ? .record : nil }
        if relationship.by == .object && hasReference(target) { return .reference }
        if relatedToBreakCycles.contains("\(entity.name).\(relationship.name)") { return .related }
        switch relationship.by {
        case .object: return .record
        case .id, .keyObject: return .key
        case .auto: return relationship.isForward ? .related : .key
        }
    }

    /// The element type of a relationship: `Address`, `Int`, `Related<Repo, Int>`.
    func elementType(of relationship: RelationshipSpec, form: RelationshipForm) -> String {
        let target = spec[entity: relationship.target]
        let record = SwiftName.type(target.name)
        switch form {
        case .record: return record
        case .key: return keyType(of: target) ?? record
        case .related: return "Related<\(record), \(keyType(of: target) ?? record)>"
        case .reference: return "Related<\(record), \(record).Reference>"
        }
    }

    /// `one` relationships that hold the target's struct itself (not in an array, not behind
    /// the `indirect` enum `Related`).
    private func isHeldByValue(_ relationship: RelationshipSpec, in entity: EntitySpec) -> Bool {
        guard relationship.kind == .one else { return false }
        let target = spec[entity: relationship.target]
        if target.isOwned { return relationship.isForward }
        return relationship.by == .object && !hasReference(target)
            && !relatedToBreakCycles.contains("\(entity.name).\(relationship.name)")
    }

    /// Whether `entity`'s struct holds `goal`'s struct, directly or through other structs.
    private func reaches(_ entity: String, _ goal: String, visited: Set<String>) -> Bool {
        if entity == goal { return true }
        guard !visited.contains(entity) else { return false }
        let spec = self.spec[entity: entity]
        return spec.relationships.contains { relationship in
            isHeldByValue(relationship, in: spec)
                && reaches(relationship.target, goal, visited: visited.union([entity]))
        }
    }
}

/// Swift spellings: identifiers (keywords escaped) and literals.
enum SwiftName {
    private static let keywords: Set<String> = [
        "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer", "deinit", "do",
        "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func", "guard", "if",
        "import", "in", "init", "inout", "internal", "is", "let", "nil", "open", "operator", "private",
        "protocol", "public", "repeat", "rethrows", "return", "self", "Self", "static", "struct", "subscript",
        "super", "switch", "throw", "throws", "true", "try", "var", "where", "while", "Any", "Type", "as",
    ]

    /// A property name, in backticks when it is a keyword.
    static func property(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// A type name, in backticks when it is a keyword.
    static func type(_ name: String) -> String { property(name) }

    /// A Swift string literal holding `text`.
    static func string(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                literal += "\\u{\(String(scalar.value, radix: 16))}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// A local variable name made from a JSON key: `reads.total` → `readsTotal`.
    static func variable(_ key: String) -> String {
        let words = key.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        var name = words.enumerated().map { index, word in
            index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if name.isEmpty || name.first!.isNumber { name = "nested" + name }
        return name
    }

    /// `.iso8601`, `.pattern("yyyy-MM-dd")`: a `JSONDateFormat` value.
    static func dateFormat(_ format: DateFormat) -> String {
        switch format {
        case .iso8601: return ".iso8601"
        case .epoch: return ".epoch"
        case .epochMillis: return ".epochMillis"
        case .pattern(let pattern): return ".pattern(\(string(pattern)))"
        }
    }

    /// The default value of a `required` attribute as a Swift expression of its type, or `nil`
    /// when there is none or its type has no literal form here (`json`, `[T]`).
    static func literal(_ value: StoredValue, of type: AttributeType) -> String? {
        switch (type, value) {
        case (.int, .integer(let v)): return String(v)
        case (.bool, .integer(let v)): return v != 0 ? "true" : "false"
        case (.double, .real(let v)) where v.isFinite: return "\(v)"
        case (.double, .integer(let v)): return "\(v).0"
        case (.date, .real(let v)) where v.isFinite: return "Date(timeIntervalSince1970: \(v))"
        case (.string, .text(let text)): return string(text)
        case (.decimal, .text(let text)): return "Decimal(string: \(string(text)))!"
        case (.uuid, .text(let text)): return "UUID(uuidString: \(string(text)))!"
        case (.url, .text(let text)): return "URL(string: \(string(text)))!"
        default: return nil
        }
    }
}
