/// Writes the Swift file of one union (SPEC 1.4): an enum with a case per entity or nested
/// union its `map` routes to, decoded by the discriminator and encoded with it written back,
/// as the API and exports shape such objects (see ``SwiftCodeGenerator``).
struct UnionFileWriter {
    let union: UnionSpec
    let types: SwiftTypeModel
    /// `"public "`, or empty for internal declarations.
    let access: String

    /// The file's text after its header.
    func write() -> String {
        let name = SwiftName.type(union.name)
        // One case per target, in route order; the first value routing to it is written back.
        var targets: [(target: String, value: String)] = []
        for route in union.routes where !targets.contains(where: { $0.target == route.target }) {
            targets.append((route.target, route.value))
        }
        let key = union.key.segments
        var lines = ["import Foundation", ""]
        lines.append("/// Union `\(union.name)`: one of \(targets.map { "`\($0.target)`" }.joined(separator: ", ")), told apart by `\(union.key)`.")
        lines.append("\(access)indirect enum \(name): Sendable, Hashable {")
        for (target, _) in targets {
            lines.append("    case \(caseName(target))(\(caseType(target)))")
        }
        lines += ["}", "", "extension \(name): Codable {"]
        lines.append("    \(access)init(from decoder: any Decoder) throws {")
        lines.append("        \(key.count > 1 ? "var" : "let") container = try decoder.container(keyedBy: JSONKey.self)")
        for segment in key.dropLast() {
            lines.append("        container = try container.nestedContainer(keyedBy: JSONKey.self, forKey: \(SwiftName.string(segment)))")
        }
        lines.append("        let value = try container.decode(String.self, forKey: \(SwiftName.string(key.last ?? "")))")
        lines.append("        switch value {")
        for route in union.routes {
            lines.append("        case \(SwiftName.string(route.value)): self = .\(caseName(route.target))(try \(caseType(route.target))(from: decoder))")
        }
        lines.append("        default:")
        lines.append("            throw DecodingError.dataCorruptedError(")
        lines.append("                forKey: \(SwiftName.string(key.last ?? "")), in: container, debugDescription: \"\(union.name) has no entity for '\\(value)'\")")
        lines += ["        }", "    }", ""]
        lines.append("    \(access)func encode(to encoder: any Encoder) throws {")
        lines.append("        let value: String")
        lines.append("        switch self {")
        for (target, value) in targets {
            lines.append("        case .\(caseName(target))(let nested):")
            if caseType(target).hasPrefix("Related<") {
                // Its record or reference writes the object, which the discriminator joins.
                lines.append("            switch nested {")
                lines.append("            case .record(let record): try record.encode(to: encoder)")
                lines.append("            case .key(let reference): try reference.encode(to: encoder)")
                lines.append("            }")
            } else {
                lines.append("            try nested.encode(to: encoder)")
            }
            lines.append("            value = \(SwiftName.string(value))")
        }
        lines.append("        }")
        lines.append("        var container = encoder.container(keyedBy: JSONKey.self)")
        for segment in key.dropLast() {
            lines.append("        container = container.nestedContainer(keyedBy: JSONKey.self, forKey: \(SwiftName.string(segment)))")
        }
        lines.append("        try container.encode(value, forKey: \(SwiftName.string(key.last ?? "")))")
        lines += ["    }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `user` for `User`, `gitHubApp` for `GitHubApp`.
    private func caseName(_ target: String) -> String {
        SwiftName.property(target.prefix(1).lowercased() + target.dropFirst())
    }

    /// What a case holds: a nested union's enum, or the entity's type.
    private func caseType(_ target: String) -> String {
        types.spec.union(named: target) != nil ? SwiftName.type(target) : types.unionCaseType(of: target)
    }
}
