import Foundation

/// Reading attributes (SPEC 1.2): short and long forms, types, and the options of each type.
extension MappingLoader {
    static let attributeKeys = [
        "type", "key", "required", "default", "format", "enum", "min", "max", "pattern", "transform", "index", "unique",
        "export", "nullIf", "map", "mapDefault", "present",
    ]
    static let typeNames =
        ScalarType.allCases.map(\.rawValue)
        + ScalarType.allCases.filter { $0 != .json }.map { "[\($0.rawValue)]" }
    static let transforms = Transform.allCases.map { ($0.rawValue, $0) }

    /// The options of a long-form attribute, read before the attribute is built.
    private struct AttributeOptions {
        var key: JSONKeyPath?
        var isRequired = false
        var dateFormat = DateFormat.iso8601
        var minimum: Double?
        var maximum: Double?
        var pattern: String?
        var transforms: [Transform] = []
        var isIndexed = false
        var isUnique = false
        var isExported = true
        var exportLocation: SourceLocation?
        var nullValues: [LiteralValue] = []
        var valueMap: [ValueMapEntry]?
        var mapDefault: StoredValue?
        var isPresence = false
    }

    mutating func readAttribute(
        _ name: String, of entity: String, key: YAMLNode, body: YAMLNode, keyStyle: KeyStyle
    ) -> AttributeDraft {
        let location = location(of: key)
        checkName(name, kind: "property", at: location)
        let qualified = "'\(entity).\(name)'"
        var type: AttributeType?
        var options = AttributeOptions()
        var defaultValue: StoredValue?
        var allowedValues: [StoredValue]?
        if body.mapping != nil,
            let fields = fields(body, allowed: Self.attributeKeys, place: "in attribute \(qualified)")
        {
            if let node = fields["type"] {
                type = readType(node)
            } else {
                report(.missingKey, "attribute \(qualified) has no 'type'", at: key)
            }
            options = readOptions(fields, type: type, attribute: qualified)
            if let type {
                defaultValue = fields["default"].flatMap {
                    readDefault($0, type: type, options: options, attribute: qualified)
                }
                allowedValues = fields["enum"].flatMap {
                    readEnum($0, type: type, options: options, keyNode: fields.keyNode("enum"))
                }
                readValueMap(fields, type: type, into: &options, attribute: qualified)
            }
        } else if body.resolved == .null {
            report(.missingKey, "attribute \(qualified) has no type", at: key)
        } else {
            type = readType(body)
        }
        let spec = AttributeSpec(
            name: name, type: type ?? .json, key: options.key ?? JSONKeyPath(segments: [keyStyle.key(for: name)]),
            isRequired: options.isRequired, defaultValue: defaultValue, dateFormat: options.dateFormat,
            allowedValues: allowedValues, minimum: options.minimum, maximum: options.maximum, pattern: options.pattern,
            transforms: options.transforms, isIndexed: options.isIndexed, isUnique: options.isUnique,
            isExported: options.isExported, nullValues: options.nullValues, valueMap: options.valueMap,
            mapDefault: options.mapDefault, isPresence: options.isPresence, location: location)
        return AttributeDraft(spec: spec, isTypeKnown: type != nil, exportLocation: options.exportLocation)
    }

    /// A type written as `string`, `"[string]"` or the flow list `[string]`.
    private mutating func readType(_ node: YAMLNode) -> AttributeType? {
        let written: String
        if let items = node.sequence {
            guard items.count == 1, let element = items[0].scalar?.value else {
                report(.unknownType, "an array type names one element type, as in [string]", at: node)
                return nil
            }
            written = "[\(element)]"
        } else {
            guard let text = text(node, for: "type") else { return nil }
            written = text
        }
        if let type = AttributeType(parsing: written) { return type }
        if written == "[json]" {
            report(
                .unknownType, "unknown type '[json]' (a json attribute already holds any array: use 'json')", at: node)
        } else {
            report(
                .unknownType, "unknown type '\(written)'\(Suggestion.hint(for: written, among: Self.typeNames))",
                at: node)
        }
        return nil
    }

    private mutating func readOptions(_ fields: Fields, type: AttributeType?, attribute: String) -> AttributeOptions {
        var options = AttributeOptions()
        let element = type?.elementType
        options.key = fields["key"].flatMap { keyPath($0, for: "key") }
        options.isRequired = fields["required"].flatMap { bool($0, for: "required") } ?? false
        options.isIndexed = fields["index"].flatMap { bool($0, for: "index") } ?? false
        options.isUnique = fields["unique"].flatMap { bool($0, for: "unique") } ?? false
        if let node = fields["export"] {
            options.isExported = bool(node, for: "export") ?? true
            options.exportLocation = location(of: node)
        }
        if let node = fields["format"], let keyNode = fields.keyNode("format") {
            if let element, let type, element != .date {
                report(.invalidValue, "'format' applies only to date attributes (\(attribute) is \(type))", at: keyNode)
            } else if let text = text(node, for: "format") {
                options.dateFormat = DateFormat(parsing: text)
                if let problem = DateCoding.problem(inPattern: text), case .pattern = options.dateFormat {
                    report(.invalidValue, "invalid date format: \(problem)", at: node)
                }
            }
        }
        for bound in ["min", "max"] {
            guard let node = fields[bound], let keyNode = fields.keyNode(bound) else { continue }
            if case .scalar(let scalar) = type, [.bool, .date, .json].contains(scalar) {
                report(
                    .invalidValue, "'\(bound)' applies to numbers, strings and arrays (\(attribute) is \(scalar))",
                    at: keyNode)
                continue
            }
            let value = number(node, for: bound)
            if bound == "min" { options.minimum = value } else { options.maximum = value }
        }
        if let minimum = options.minimum, let maximum = options.maximum, maximum < minimum, let node = fields["max"] {
            report(
                .invalidValue,
                "'max' (\(node.scalar?.value ?? "")) is less than 'min' (\(fields["min"]?.scalar?.value ?? ""))",
                at: node)
        }
        if let node = fields["pattern"], let keyNode = fields.keyNode("pattern") {
            if let element, ![.string, .uuid, .url].contains(element) {
                report(
                    .invalidValue,
                    "'pattern' applies only to string, uuid and url attributes "
                        + "(\(attribute) is \(type?.description ?? ""))",
                    at: keyNode)
            } else if let pattern = text(node, for: "pattern") {
                options.pattern = pattern
                if (try? NSRegularExpression(pattern: pattern)) == nil {
                    report(.invalidPattern, "invalid regular expression '\(pattern)'", at: node)
                }
            }
        }
        if let node = fields["transform"] {
            options.transforms = (node.sequence ?? [node]).compactMap { option($0, for: "transform", Self.transforms) }
        }
        if let node = fields["nullIf"] {
            for item in node.sequence ?? [node] {
                guard let literal = Self.literal(item) else {
                    report(.invalidValue, "'nullIf' takes JSON values (a string, number or bool) or a list of them, found \(item.summary)", at: item)
                    continue
                }
                options.nullValues.append(literal)
            }
        }
        if let node = fields["present"], let keyNode = fields.keyNode("present") {
            options.isPresence = bool(node, for: "present") ?? false
            if options.isPresence, let type, type != .scalar(.bool) {
                report(.invalidValue, "'present' applies only to bool attributes (\(attribute) is \(type))", at: keyNode)
            }
        }
        return options
    }

    /// `map` and `mapDefault`: JSON values as keys, values converted to the attribute type (as a
    /// `default` is).
    private mutating func readValueMap(_ fields: Fields, type: AttributeType, into options: inout AttributeOptions, attribute: String) {
        if let node = fields["map"], let keyNode = fields.keyNode("map") {
            guard case .scalar(let scalar) = type, scalar != .json else {
                report(.invalidValue, "'map' applies to scalar attributes other than json (\(attribute) is \(type))", at: keyNode)
                return
            }
            var entries: [ValueMapEntry] = []
            for pair in pairs(node, place: "for 'map' of \(attribute)") ?? [] {
                guard let key = Self.literal(pair.key), key != .null else {
                    report(.invalidValue, "'map' of \(attribute) cannot map null: null is never looked up and stays null", at: pair.key)
                    continue
                }
                if entries.contains(where: { $0.key == key }) { continue }  // a repeated key is reported as such
                guard let value = convert(pair.value, to: scalar, options: options, what: "'map' value for \(attribute)") else { continue }
                entries.append(ValueMapEntry(key: key, value: value))
            }
            if entries.isEmpty, node.mapping?.isEmpty ?? true {
                report(.invalidValue, "'map' of \(attribute) must map at least one value, found \(node.summary)", at: node)
            }
            options.valueMap = entries
        }
        if let node = fields["mapDefault"], let keyNode = fields.keyNode("mapDefault") {
            guard options.valueMap != nil || fields["map"] != nil else {
                report(.invalidValue, "'mapDefault' of \(attribute) needs a 'map'", at: keyNode)
                return
            }
            guard case .scalar(let scalar) = type, scalar != .json else { return }
            options.mapDefault = convert(node, to: scalar, options: options, what: "'mapDefault' for \(attribute)")
        }
    }

    /// The stored form of `default`: converted, then transformed as a record value would be.
    private mutating func readDefault(
        _ node: YAMLNode, type: AttributeType, options: AttributeOptions, attribute: String
    ) -> StoredValue? {
        if node.resolved == .null { return nil }
        switch type {
        case .scalar(.json):
            guard let json = Self.jsonText(node) else {
                report(.invalidDefault, "invalid default for \(attribute): mapping keys must be strings", at: node)
                return nil
            }
            return .text(json)
        case .scalar(let scalar):
            return convert(node, to: scalar, options: options, what: "default for \(attribute)")
        case .array(let element):
            guard let items = node.sequence else {
                report(
                    .invalidDefault, "invalid default for \(attribute): expected \(type), found \(node.summary)",
                    at: node)
                return nil
            }
            var parts: [String] = []
            for item in items {
                guard let value = convert(item, to: element, options: options, what: "default for \(attribute)") else {
                    return nil
                }
                parts.append(ValueConversion.jsonElement(value, of: element))
            }
            return .text("[" + parts.joined(separator: ",") + "]")
        }
    }

    /// The `enum` values converted to the attribute type (its element type for `[T]`).
    private mutating func readEnum(_ node: YAMLNode, type: AttributeType, options: AttributeOptions, keyNode: YAMLNode?)
        -> [StoredValue]?
    {
        if type == .json {
            report(.invalidValue, "'enum' does not apply to json attributes", at: keyNode ?? node)
            return nil
        }
        guard let items = node.sequence, !items.isEmpty else {
            report(.invalidValue, "'enum' must be a non-empty list of values, found \(node.summary)", at: node)
            return nil
        }
        let element = type.elementType
        var values: [StoredValue] = []
        for item in items {
            if let value = convert(item, to: element, options: options, what: "enum value", transforming: false) {
                values.append(value)
            }
        }
        return values.count == items.count ? values : nil
    }

    private mutating func convert(
        _ node: YAMLNode, to type: ScalarType, options: AttributeOptions, what: String, transforming: Bool = true
    ) -> StoredValue? {
        guard let literal = Self.literal(node) else {
            report(.invalidDefault, "invalid \(what): expected \(type.rawValue), found \(node.summary)", at: node)
            return nil
        }
        switch ValueConversion.convert(literal, to: type, format: options.dateFormat) {
        case .success(let value):
            return transforming ? ValueConversion.applying(options.transforms, to: value) : value
        case .failure(let failure):
            report(.invalidDefault, "invalid \(what): \(failure)", at: node)
            return nil
        }
    }
}
