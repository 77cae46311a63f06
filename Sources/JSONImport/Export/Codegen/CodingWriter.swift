/// Writes `init(from:)` and `encode(to:)` of a generated struct.
///
/// Properties are read and written at their JSON key paths: the keys of one nested object are
/// grouped under one nested container, named after the key (`contactContainer`). A nested
/// object is optional when reading (missing or `null` gives `nil` for everything in it)
/// unless a non-optional property sits in it. As synthesized `Codable` does, `nil` is written
/// by leaving the key out (and a nested object holding only `nil`s is left out too): importing
/// such JSON leaves what it does not hold as it is, where `null` would clear it.
struct CodingWriter {
    private let root: Node
    /// Names of local variables; properties with one of these names are written `self.name`.
    private var locals: Set<String> = ["container", "decoder", "encoder", "value"]

    init(properties: [Property]) {
        var root = Node(key: "", variable: "container")
        for property in properties { root.insert(property, at: property.path[...]) }
        var used: Set<String> = ["container"]
        root.nameContainers(prefix: "", used: &used)
        self.root = root
        locals.formUnion(used)
    }

    /// The lines of `init(from:)`, unindented.
    func decoder() -> [String] {
        var lines = ["init(from decoder: any Decoder) throws {"]
        lines.append("    let container = try decoder.container(keyedBy: JSONKey.self)")
        decode(root, isOptional: false, into: &lines)
        lines.append("}")
        return lines
    }

    /// The lines of `encode(to:)`, unindented.
    func encoder() -> [String] {
        var lines = ["func encode(to encoder: any Encoder) throws {"]
        lines.append("    var container = encoder.container(keyedBy: JSONKey.self)")
        encode(root, into: &lines)
        lines.append("}")
        return lines
    }

    // MARK: Decoding

    private func decode(_ node: Node, isOptional: Bool, into lines: inout [String]) {
        let container = node.variable + (isOptional ? "?" : "")
        for child in node.children {
            switch child {
            case .property(let key, let property):
                lines.append("    \(reference(property)) = " + decoding(property, key: key, from: container))
            case .object(let object):
                let optional = isOptional || !object.hasRequiredProperty
                let nested = optional
                    ? "try \(container).nestedContainerIfPresent(forKey: \(SwiftName.string(object.key)))"
                    : "try \(container).nestedContainer(keyedBy: JSONKey.self, forKey: \(SwiftName.string(object.key)))"
                lines.append("    let \(object.variable) = \(nested)")
                decode(object, isOptional: optional, into: &lines)
            }
        }
    }

    private func decoding(_ property: Property, key: String, from container: String) -> String {
        let key = SwiftName.string(key)
        let isRequired = !property.isOptional && property.defaultValue == nil
        let fallback = property.defaultValue.map { " ?? \($0)" } ?? ""
        switch property.value {
        case .date(let format, let isArray):
            if isArray { return "try \(container).decodeDatesIfPresent(forKey: \(key), format: \(format))\(fallback)" }
            if isRequired { return "try \(container).decodeDate(forKey: \(key), format: \(format))" }
            return "try \(container).decodeDateIfPresent(forKey: \(key), format: \(format))\(fallback)"
        case .plain, .uuid:
            if Self.scalars.contains(property.baseType) {
                if isRequired { return "try \(container).decodeScalar(\(property.baseType).self, forKey: \(key))" }
                return "try \(container).decodeScalarIfPresent(\(property.baseType).self, forKey: \(key))\(fallback)"
            }
            if property.baseType.hasPrefix("["), Self.scalars.contains(String(property.baseType.dropFirst().dropLast())) {
                let element = property.baseType.dropFirst().dropLast()
                let decoded = "try \(container).decodeScalarsIfPresent(\(element).self, forKey: \(key))"
                return isRequired ? "\(decoded) ?? []" : decoded + fallback
            }
            if isRequired { return "try \(container).decode(\(property.baseType).self, forKey: \(key))" }
            return "try \(container).decodeIfPresent(\(property.baseType).self, forKey: \(key))\(fallback)"
        }
    }

    /// Types read through `JSONScalar`: in every JSON form the type table accepts.
    private static let scalars: Set<String> = ["Int", "Double", "Decimal", "Bool", "String", "UUID", "URL"]

    // MARK: Encoding

    private func encode(_ node: Node, into lines: inout [String], indent: String = "    ") {
        for child in node.children {
            switch child {
            case .property(let key, let property):
                lines.append(indent + encoding(property, key: key, into: node.variable))
            case .object(let object):
                // A nested object whose values are all `nil` is left out, as its values would be.
                let values = object.hasRequiredProperty ? [] : object.optionalProperties.map { "\(reference($0)) != nil" }
                let inner = values.isEmpty ? indent : indent + "    "
                if !values.isEmpty { lines.append(indent + "if " + values.joined(separator: " || ") + " {") }
                lines.append(
                    inner + "var \(object.variable) = \(node.variable).nestedContainer(keyedBy: JSONKey.self, "
                        + "forKey: \(SwiftName.string(object.key)))")
                encode(object, into: &lines, indent: inner)
                if !values.isEmpty { lines.append(indent + "}") }
            }
        }
    }

    private func encoding(_ property: Property, key: String, into container: String) -> String {
        let key = SwiftName.string(key)
        let name = reference(property)
        let ifPresent = property.isOptional ? "IfPresent" : ""
        let optional = property.isOptional ? "?" : ""
        switch property.value {
        case .date(let format, let isArray):
            let method = (isArray ? "encodeDates" : "encodeDate") + ifPresent
            return "try \(container).\(method)(\(name), forKey: \(key), format: \(format))"
        case .uuid(let isArray):
            let text = isArray
                ? "\(name)\(optional).map { $0.uuidString.lowercased() }" : "\(name)\(optional).uuidString.lowercased()"
            return "try \(container).encode\(ifPresent)(\(text), forKey: \(key))"
        case .plain:
            return "try \(container).encode\(ifPresent)(\(name), forKey: \(key))"
        }
    }

    private func reference(_ property: Property) -> String {
        locals.contains(property.name) ? "self.\(property.name)" : property.name
    }

    // MARK: Key path tree

    /// A JSON object: the properties and nested objects in it, in declaration order.
    private struct Node {
        let key: String
        var variable: String
        var children: [Child] = []

        enum Child {
            case property(key: String, Property)
            case object(Node)
        }

        init(key: String, variable: String) {
            self.key = key
            self.variable = variable
        }

        var hasRequiredProperty: Bool {
            children.contains { child in
                switch child {
                case .property(_, let property): return !property.isOptional && property.defaultValue == nil
                case .object(let node): return node.hasRequiredProperty
                }
            }
        }

        /// Every optional property in this object and the objects nested in it.
        var optionalProperties: [Property] {
            children.flatMap { child -> [Property] in
                switch child {
                case .property(_, let property): return property.isOptional ? [property] : []
                case .object(let node): return node.optionalProperties
                }
            }
        }

        mutating func insert(_ property: Property, at path: ArraySlice<String>) {
            guard let first = path.first else { return }
            guard path.count > 1 else {
                children.append(.property(key: first, property))
                return
            }
            let index = children.firstIndex { child in
                if case .object(let node) = child { return node.key == first }
                return false
            }
            var node = Node(key: first, variable: "")
            if let index, case .object(let existing) = children[index] { node = existing }
            node.insert(property, at: path.dropFirst())
            if let index { children[index] = .object(node) } else { children.append(.object(node)) }
        }

        /// Names every nested object's container variable: its key path in camel case plus
        /// `Container`, numbered when two paths give the same name.
        mutating func nameContainers(prefix: String, used: inout Set<String>) {
            for index in children.indices {
                guard case .object(var node) = children[index] else { continue }
                let word = SwiftName.variable(node.key)
                let stem = prefix.isEmpty ? word : prefix + word.prefix(1).uppercased() + word.dropFirst()
                var name = stem + "Container"
                var number = 2
                while used.contains(name) {
                    name = stem + "Container\(number)"
                    number += 1
                }
                used.insert(name)
                node.variable = name
                node.nameContainers(prefix: stem, used: &used)
                children[index] = .object(node)
            }
        }
    }
}
