import Foundation

/// Writes Swift value types for the entities of a mapping spec (SPEC 4.1 `codegen`): one file
/// per entity holding a `Codable, Sendable, Hashable` struct that decodes and encodes the
/// API-shaped JSON of SPEC 4.4, plus `JSONSupport.swift` with what those files share.
///
/// Property types follow the mappings:
///
/// - attributes: `Int`, `Double`, `Bool`, `String`, `Date` (coded in the attribute's
///   `format`), `Decimal`, `UUID` (written lowercase), `URL`, `JSONValue` for `json`, arrays
///   for `[T]`. A property is optional unless it is a primary-key attribute, or `required` with
///   a `default` (a missing key decodes as the default);
/// - relationships are optional; `one` holds one value, `many` an array of them:
///   an owned target is its nested struct; `by: id` and back sides give the target's key
///   type (`Int`, `String`, …, or the target's nested `Key` struct for a composite key);
///   `by: object` gives the target's struct; `by: auto` gives `Related<Target, Key>`, either
///   form, as exports nest records down to their depth and write keys below it;
/// - attributes declared `export: false` are optional and left out when `nil`;
/// - a relationship to a union is typed by the union's enum, which has a case per entity.
///   Its nested records carry the discriminator; a key object is decoded as the entity's
///   `Reference` when the struct has required properties.
///
/// Key paths become nested containers (`contact.email` is read from
/// `{"contact": {"email": …}}`). Comments written above a declaration in the YAML, and at the
/// end of its line, become its doc comment.
///
/// `JSONImport+Entities.swift` makes every type ``PayloadCodable``, so that the mapper reads and
/// saves it through that JSON form (`map`, `find`, queries, `save`, `observe`); a
/// ``standalone`` generator leaves that file out, for code that uses the types without the
/// library (a client that only decodes the API's JSON).
///
/// ```swift
/// let files = try SwiftCodeGenerator(spec: MappingSpec.load(from: "Mappings")).files()
/// for file in files { try file.contents.write(toFile: "Models/" + file.name, atomically: true, encoding: .utf8) }
/// ```
public struct SwiftCodeGenerator: Sendable {
    /// The mappings the code is generated for.
    public let spec: MappingSpec
    /// Leaves out `JSONImport+Entities.swift`: the types do not need the library.
    public let standalone: Bool
    /// Declares the types, their properties, initializers and coding `public` (for a module
    /// that other modules use); `internal` otherwise.
    public let isPublic: Bool
    /// Mapping file texts by path, for comments; files not listed are read from disk.
    private let sources: [String: String]

    /// A generator for `spec`; comments are read from the mapping files the spec was loaded from.
    ///
    /// - Parameters:
    ///   - spec: the mappings.
    ///   - standalone: leave out the file that makes the types ``PayloadCodable``.
    ///   - isPublic: declare the types and their members `public`, with a public memberwise
    ///     initializer.
    public init(spec: MappingSpec, standalone: Bool = false, isPublic: Bool = false) {
        self.init(spec: spec, standalone: standalone, isPublic: isPublic, sources: [:])
    }

    init(spec: MappingSpec, standalone: Bool = false, isPublic: Bool = false, sources: [String: String]) {
        self.spec = spec
        self.standalone = standalone
        self.isPublic = isPublic
        self.sources = sources
    }

    /// The file that makes every type ``PayloadCodable``.
    static let conformancesFile = "JSONImport+Entities.swift"

    /// Every generated file: one per entity, in declaration order, one per union (an enum of
    /// its entities, told apart by the discriminator), then `JSONSupport.swift`,
    /// then (unless ``standalone``) `JSONImport+Entities.swift`.
    ///
    /// - Throws: ``CodegenError`` when owned entities contain each other through `one`
    ///   relationships (a struct cannot contain itself).
    public func files() throws -> [SwiftSourceFile] {
        var comments: [String: YAMLComments] = [:]
        for file in spec.files {
            let text = sources[file] ?? (try? String(contentsOfFile: file, encoding: .utf8))
            comments[file] = text.map(YAMLComments.init)
        }
        let types = try SwiftTypeModel(spec: spec)
        var files: [SwiftSourceFile] = []
        for entity in spec.entities {
            let source = comments[entity.location.file] ?? YAMLComments(text: "")
            var writer = EntityFileWriter(entity: entity, types: types, comments: source, access: isPublic ? "public " : "")
            files.append(SwiftSourceFile(
                name: "\(entity.name).swift",
                contents: header(for: "\(entity.name).swift", from: entity.location.file) + writer.write()))
        }
        for union in spec.unions {
            let writer = UnionFileWriter(union: union, types: types, access: isPublic ? "public " : "")
            files.append(SwiftSourceFile(
                name: "\(union.name).swift", contents: header(for: "\(union.name).swift", from: union.location.file) + writer.write()))
        }
        files.append(SwiftSourceFile(
            name: SwiftSupportFile.name,
            contents: header(for: SwiftSupportFile.name, from: nil) + SwiftSupportFile.body(access: isPublic ? "public " : "") + "\n"))
        if !standalone {
            let conformances = spec.entities.map { "extension \(SwiftName.type($0.name)): PayloadCodable {}" }
            files.append(SwiftSourceFile(
                name: Self.conformancesFile,
                contents: header(for: Self.conformancesFile, from: nil)
                    + "// The mapper reads and saves these types through their JSON form.\n\n"
                    + "import JSONImport\n\n" + conformances.joined(separator: "\n") + "\n"))
        }
        return files
    }

    private func header(for name: String, from mappingFile: String?) -> String {
        let source = mappingFile.map { " from \(URL(fileURLWithPath: $0).lastPathComponent)" } ?? ""
        return """
            // \(name)
            // Generated by `jsonimport codegen`\(source).
            // Do not edit: run `jsonimport codegen` again after changing the mappings.


            """
    }
}

/// One generated Swift file.
public struct SwiftSourceFile: Sendable, Hashable {
    /// The file name, such as `User.swift`.
    public let name: String
    /// The Swift source text, header included, ending with a newline.
    public let contents: String
}

/// Why code cannot be generated for a spec.
public struct CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stands in the way, naming the entities and relationship concerned.
    public let message: String

    /// The message.
    public var description: String { message }
}
