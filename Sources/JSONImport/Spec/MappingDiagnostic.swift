/// One problem found in the mappings, with where it was written.
///
/// Rendered like a compiler diagnostic: the position, the message, then the source line and a
/// caret under the column when the text is known.
///
/// ```
/// Mappings/github.yml:12:7: error: unknown type 'strng' (did you mean 'string'?)
///       name: strng
///             ^
/// ```
public struct MappingDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the kind of problem, for callers that handle some specially.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable name, such as `unknownKey`.
        public let rawValue: String

        /// Creates a code from its stable name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A mappings file or directory cannot be read.
        public static let unreadableFile = Code(rawValue: "unreadableFile")
        /// A directory holds no `*.yml` / `*.yaml` file.
        public static let noMappingFiles = Code(rawValue: "noMappingFiles")
        /// The YAML itself is malformed (including aliases, tags and extra documents).
        public static let syntax = Code(rawValue: "syntax")
        /// A key that the format does not have.
        public static let unknownKey = Code(rawValue: "unknownKey")
        /// A required key is missing or a required list is empty.
        public static let missingKey = Code(rawValue: "missingKey")
        /// A value of the wrong shape or outside the allowed values of its key.
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// An attribute type that does not exist.
        public static let unknownType = Code(rawValue: "unknownType")
        /// A relationship target that names no entity.
        public static let unknownEntity = Code(rawValue: "unknownEntity")
        /// An `inverse` that does not pair with a forward relationship.
        public static let invalidInverse = Code(rawValue: "invalidInverse")
        /// A primary key that names no attribute or one that cannot be a key.
        public static let invalidPrimaryKey = Code(rawValue: "invalidPrimaryKey")
        /// A name declared twice (entity, property, or a storage table).
        public static let duplicateName = Code(rawValue: "duplicateName")
        /// A name that breaks the naming rule.
        public static let invalidName = Code(rawValue: "invalidName")
        /// A `default` or `enum` value that does not convert to the attribute type.
        public static let invalidDefault = Code(rawValue: "invalidDefault")
        /// A `pattern` that is not a valid regular expression.
        public static let invalidPattern = Code(rawValue: "invalidPattern")
        /// A relationship that cannot reference its target this way (`by: id` to an owned entity).
        public static let invalidReference = Code(rawValue: "invalidReference")
        /// A `distribution` that names no attribute that can hold a tenant, or entities linked
        /// across tenants (SPEC 6).
        public static let invalidDistribution = Code(rawValue: "invalidDistribution")
        /// An entity whose table would need more columns than SQLite allows (2000, its key,
        /// link and bookkeeping columns included).
        public static let tooManyColumns = Code(rawValue: "tooManyColumns")

        /// The stable name, as ``rawValue``.
        public var description: String { rawValue }
    }

    /// What kind of problem this is.
    public let code: Code
    /// Where the problem is: the offending key or value.
    public let location: SourceLocation
    /// What is wrong, in one sentence.
    public let message: String
    /// The source line at ``location``, when the text is known.
    public let sourceLine: String?

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - location: the offending key or value.
    ///   - message: what is wrong.
    ///   - sourceLine: the text of line `location.line`, shown with a caret when given.
    public init(code: Code, location: SourceLocation, message: String, sourceLine: String? = nil) {
        self.code = code
        self.location = location
        self.message = message
        self.sourceLine = sourceLine
    }

    /// The header line, `file:line:column: error: message`.
    public var summary: String { "\(location): error: \(message)" }

    /// The header line, then the source line and a caret under the column when known.
    ///
    /// Control characters in the source line are shown as `\u{7}` (see the README's
    /// Reliability section), and the caret still points at the column.
    public var description: String {
        guard let sourceLine else { return summary }
        // Tabs are kept so the caret lines up however the terminal expands them.
        let shown = TerminalText.escaped(sourceLine, keeping: ["\t"])
        let before = TerminalText.escaped(String(sourceLine.prefix(max(0, location.column - 1))), keeping: ["\t"])
        let lead = before.map { $0 == "\t" ? "\t" : " " }.joined()
        let padding = String(repeating: " ", count: max(0, location.column - 1 - sourceLine.count))
        return "\(summary)\n\(shown)\n\(lead)\(padding)^"
    }
}

/// The mappings could not be loaded; ``diagnostics`` lists every problem found, in file order,
/// then by position.
///
/// ```swift
/// do {
///     let spec = try MappingSpec.load(from: "Mappings")
/// } catch {
///     print(error)  // every diagnostic, compiler style
/// }
/// ```
public struct MappingLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every problem found, never empty.
    public let diagnostics: [MappingDiagnostic]

    /// Creates an error from its diagnostics.
    public init(diagnostics: [MappingDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// All diagnostics rendered, one after another.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
