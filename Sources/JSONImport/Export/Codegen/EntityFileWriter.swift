import Foundation

/// Writes the Swift file of one entity: the struct with its properties, its nested `Key` for a
/// composite primary key, and a `Codable` extension that reads and writes the entity's JSON
/// keys (see ``SwiftCodeGenerator``).
struct EntityFileWriter {
    let entity: EntitySpec
    let types: SwiftTypeModel
    let comments: YAMLComments
    /// `"public "`, or empty for internal declarations.
    let access: String
    private var lines: [String] = []

    init(entity: EntitySpec, types: SwiftTypeModel, comments: YAMLComments, access: String = "") {
        self.entity = entity
        self.types = types
        self.comments = comments
        self.access = access
    }

    /// The file's text after its header.
    mutating func write() -> String {
        let properties = makeProperties()
        let name = SwiftName.type(entity.name)
        lines = ["import Foundation", ""]
        writeDocs(comments.comment(forLine: entity.location.line) + [""] + summary(), indent: "")
        lines.append("\(access)struct \(name): Sendable, Hashable {")
        for property in properties {
            writeDocs(property.docs, indent: "    ")
            lines.append("    \(access)var \(property.name): \(property.type)")
        }
        if !access.isEmpty { writeInitializer(properties.map { ($0.name, $0.type, $0.isOptional) }) }
        writeEnums()
        if entity.primaryKey.count > 1 { writeKeyStruct() }
        if types.hasReference(entity) { writeReferenceStruct() }
        lines.append("}")
        lines.append("")
        lines.append("extension \(name): Codable {")
        let coding = CodingWriter(properties: properties)
        lines += coding.decoder().enumerated().map { $1.isEmpty ? "" : "    " + ($0 == 0 ? access : "") + $1 }
        lines.append("")
        lines += coding.encoder().enumerated().map { $1.isEmpty ? "" : "    " + ($0 == 0 ? access : "") + $1 }
        lines.append("}")
        if entity.primaryKey.count > 1 { writeKeyCoding() }
        if types.hasReference(entity) { writeReferenceCoding(properties) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Properties

    /// The cases of a `string` attribute's `enum`, when every value can name a Swift case.
    static func enumCases(of attribute: AttributeSpec) -> [String]? {
        guard attribute.type == .string, let values = attribute.allowedValues, !values.isEmpty else { return nil }
        var cases: [String] = []
        for value in values {
            guard case .text(let text) = value, let first = text.unicodeScalars.first,
                first == "_" || CharacterSet.letters.contains(first),
                text.unicodeScalars.allSatisfy({ $0 == "_" || CharacterSet.alphanumerics.contains($0) && $0.isASCII })
            else { return nil }
            cases.append(text)
        }
        return cases
    }

    /// ``enumCases(of:)`` when the enum's name is free: not an entity's type (which the struct
    /// refers to) nor the nested `Key`.
    private func enumCases(of attribute: AttributeSpec) -> [String]? {
        let name = Self.enumName(of: attribute)
        guard name != "Key", name != "Reference", !types.spec.entities.contains(where: { SwiftName.type($0.name) == name }) else { return nil }
        return Self.enumCases(of: attribute)
    }

    /// The nested enum of an attribute with ``enumCases(of:)``: its name, capitalized.
    static func enumName(of attribute: AttributeSpec) -> String {
        SwiftName.type(attribute.name.prefix(1).uppercased() + attribute.name.dropFirst())
    }

    /// The nested enums of the attributes whose `enum` values are Swift cases.
    private mutating func writeEnums() {
        for attribute in entity.attributes {
            guard let cases = enumCases(of: attribute) else { continue }
            lines.append("")
            lines.append("    /// The values `\(attribute.name)` allows.")
            lines.append("    \(access)enum \(Self.enumName(of: attribute)): String, Codable, Sendable, Hashable, CaseIterable {")
            for name in cases {
                let escaped = SwiftName.property(name)
                lines.append(escaped == name ? "        case \(name)" : "        case \(escaped) = \(SwiftName.string(name))")
            }
            lines.append("    }")
        }
    }

    private func makeProperties() -> [Property] {
        var properties: [Property] = []
        for attribute in entity.attributes {
            let cases = enumCases(of: attribute)
            let base = cases == nil ? types.type(of: attribute) : Self.enumName(of: attribute)
            let defaultValue = attribute.isRequired && attribute.isExported
                ? attribute.defaultValue.flatMap { value -> String? in
                    if cases != nil, case .text(let text) = value { return ".\(SwiftName.property(text))" }
                    return SwiftName.literal(value, of: attribute.type)
                } : nil
            let isOptional = !entity.primaryKey.contains(attribute.name) && defaultValue == nil
                && !types.isRequiredProperty(attribute, of: entity)
            let value: Property.Value
            switch attribute.type {
            case .scalar(.date): value = .date(SwiftName.dateFormat(attribute.dateFormat), isArray: false)
            case .array(.date): value = .date(SwiftName.dateFormat(attribute.dateFormat), isArray: true)
            case .scalar(.uuid): value = .uuid(isArray: false)
            case .array(.uuid): value = .uuid(isArray: true)
            default: value = .plain
            }
            properties.append(Property(
                name: SwiftName.property(attribute.name), baseType: base, isOptional: isOptional,
                docs: comments.comment(forLine: attribute.location.line), path: attribute.key.segments,
                value: value, defaultValue: defaultValue))
        }
        var unionRelationships: Set<String> = []
        for relationship in entity.relationships {
            if let union = relationship.union {
                // One property for the relationship, typed by the union's enum.
                guard unionRelationships.insert(relationship.name).inserted else { continue }
                let element = SwiftName.type(union)
                properties.append(Property(
                    name: SwiftName.property(relationship.name), baseType: relationship.kind == .many ? "[\(element)]" : element,
                    isOptional: true, docs: comments.comment(forLine: relationship.location.line),
                    path: relationship.key.segments, value: .plain, defaultValue: nil))
                continue
            }
            guard let form = types.form(of: relationship, in: entity) else { continue }
            let element = types.elementType(of: relationship, form: form)
            let target = types.spec[entity: relationship.target]
            let isUUID = form == .key && types.hasUUIDKey(target)
            let isMany = relationship.kind == .many
            properties.append(Property(
                name: SwiftName.property(relationship.name), baseType: isMany ? "[\(element)]" : element,
                isOptional: true, docs: comments.comment(forLine: relationship.location.line),
                path: relationship.key.segments, value: isUUID ? .uuid(isArray: isMany) : .plain,
                defaultValue: nil))
        }
        return properties
    }

    /// The generated part of the struct's documentation: entity, mapping file and key.
    private func summary() -> [String] {
        let file = entity.location.file.split(separator: "/").last.map(String.init) ?? entity.location.file
        var text = "Entity `\(entity.name)` of `\(file)`"
        switch entity.primaryKey.count {
        case 0: text += ", owned by the records that link to it (no primary key)."
        case 1: text += ", keyed by `\(entity.primaryKey[0])`."
        default: text += ", keyed by `\(entity.primaryKey.joined(separator: "`, `"))` (see ``Key``)."
        }
        return [text]
    }

    private mutating func writeDocs(_ docs: [String], indent: String) {
        var docs = docs
        while docs.first == "" { docs.removeFirst() }
        for line in docs { lines.append(indent + (line.isEmpty ? "///" : "/// " + line)) }
    }

    // MARK: Composite keys

    private var keyAttributes: [(name: String, type: String, isUUID: Bool)] {
        entity.keyAttributes.map { (SwiftName.property($0.name), types.type(of: $0), $0.type == .uuid) }
    }

    /// The memberwise initializer, which a public struct does not get from Swift; optional
    /// properties default to `nil`.
    private mutating func writeInitializer(_ properties: [(name: String, type: String, isOptional: Bool)], indent: String = "    ") {
        let parameters = properties.map { "\($0.name): \($0.type)\($0.isOptional ? " = nil" : "")" }.joined(separator: ", ")
        lines.append("")
        lines.append("\(indent)\(access)init(\(parameters)) {")
        for property in properties {
            let name = property.name.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            lines.append("\(indent)    self.\(name) = \(property.name)")
        }
        lines.append("\(indent)}")
    }

    private mutating func writeKeyStruct() {
        let names = keyAttributes.map(\.name)
        if !entity.attributes.contains(where: { $0.name == "key" }) {
            lines.append("")
            lines.append("    /// The primary key, as references to this entity write it.")
            let arguments = names.map { "\($0): \($0)" }.joined(separator: ", ")
            lines.append("    \(access)var key: Key { Key(\(arguments)) }")
        }
        lines.append("")
        lines.append("    /// The primary key of `\(entity.name)`, written in JSON as the array")
        lines.append("    /// `[\(entity.primaryKey.joined(separator: ", "))]`.")
        lines.append("    \(access)struct Key: Sendable, Hashable {")
        for key in keyAttributes { lines.append("        \(access)var \(key.name): \(key.type)") }
        if !access.isEmpty { writeInitializer(keyAttributes.map { ($0.name, $0.type, false) }, indent: "        ") }
        lines.append("    }")
    }

    // MARK: References by key

    private mutating func writeReferenceStruct() {
        lines.append("")
        lines.append("    /// A reference to `\(entity.name)` by its key alone, as a `by: object` relationship")
        lines.append("    /// writes one below the export depth: an object holding only the key.")
        lines.append("    \(access)struct Reference: Sendable, Hashable {")
        for key in keyAttributes { lines.append("        \(access)var \(key.name): \(key.type)") }
        if !access.isEmpty { writeInitializer(keyAttributes.map { ($0.name, $0.type, false) }, indent: "        ") }
        lines.append("    }")
    }

    /// `Reference`'s coding: the key properties at their JSON keys, and an object holding more
    /// than them refused (so that `Related` reads it as the record).
    private mutating func writeReferenceCoding(_ properties: [Property]) {
        let keys = properties.filter { property in keyAttributes.contains { $0.name == property.name } }
        let allowed = Set(keys.compactMap(\.path.first)).union(types.discriminatorKeys(of: entity))
        let topKeys = allowed.sorted().map(SwiftName.string).joined(separator: ", ")
        let coding = CodingWriter(properties: keys)
        var decoder = coding.decoder()
        decoder.insert(contentsOf: [
            "    guard container.allKeys.allSatisfy({ [\(topKeys)].contains($0.stringValue) }) else {",
            "        throw DecodingError.dataCorrupted(.init(",
            "            codingPath: decoder.codingPath, debugDescription: \"an object with more than the key of \(entity.name)\"))",
            "    }",
        ], at: 2)
        lines += ["", "extension \(SwiftName.type(entity.name)).Reference: Codable {"]
        lines += decoder.enumerated().map { $1.isEmpty ? "" : "    " + ($0 == 0 ? access : "") + $1 }
        lines.append("")
        lines += coding.encoder().enumerated().map { $1.isEmpty ? "" : "    " + ($0 == 0 ? access : "") + $1 }
        lines.append("}")
    }

    private mutating func writeKeyCoding() {
        lines += ["", "extension \(SwiftName.type(entity.name)).Key: Codable {"]
        lines.append("    \(access)init(from decoder: any Decoder) throws {")
        lines.append("        var container = try decoder.unkeyedContainer()")
        for key in keyAttributes {
            lines.append("        \(key.name) = try container.decode(\(key.type).self)")
        }
        lines += ["    }", "", "    \(access)func encode(to encoder: any Encoder) throws {"]
        lines.append("        var container = encoder.unkeyedContainer()")
        for key in keyAttributes {
            lines.append("        try container.encode(\(key.name)\(key.isUUID ? ".uuidString.lowercased()" : ""))")
        }
        lines += ["    }", "}"]
    }
}

/// One stored property of a generated struct and how it is coded.
struct Property {
    let name: String
    /// The type without the optional mark.
    let baseType: String
    let isOptional: Bool
    let docs: [String]
    /// The JSON key path.
    let path: [String]
    let value: Value
    /// A Swift expression decoded when the key is missing (`required` with a `default`).
    let defaultValue: String?

    /// How the value is read and written beyond plain `Codable`.
    enum Value {
        case plain
        /// A `JSONDateFormat` expression such as `.iso8601`.
        case date(String, isArray: Bool)
        /// Written lowercase, as the store keeps it.
        case uuid(isArray: Bool)
    }

    var type: String { isOptional ? "\(baseType)?" : baseType }
}
