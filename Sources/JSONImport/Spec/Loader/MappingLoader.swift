/// Reads mapping files into drafts, checks them, resolves names and links across files, and
/// builds the ``MappingSpec``; collects every problem as a ``MappingDiagnostic`` on the way.
///
/// ```swift
/// var loader = MappingLoader()
/// loader.read(file: "Mappings/github.yml", text: text)
/// let spec = try loader.finish()
/// ```
struct MappingLoader {
    private(set) var diagnostics: [MappingDiagnostic] = []
    /// Files read so far, in order.
    private(set) var files: [String] = []
    /// Every entity read so far, in declaration order (files in reading order).
    var drafts: [EntityDraft] = []
    /// Every union read so far (SPEC 1.4).
    var unionDrafts: [UnionDraft] = []
    /// Every document read so far (SPEC 1.5).
    var documentDrafts: [DocumentDraft] = []
    /// The file being read: where node positions point.
    private(set) var file = ""
    private var lines: [String: [Substring]] = [:]

    /// Reads one mapping file's text, adding its entities and problems.
    mutating func read(file path: String, text: String) {
        file = path
        files.append(path)
        // The line breaks libyaml counts; "\r\n" is a single Character in Swift.
        let breaks: Set<Character> = ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
        lines[path] = text.split(omittingEmptySubsequences: false, whereSeparator: breaks.contains)
        let document: YAMLComposer.Document
        do {
            document = try YAMLComposer.compose(text)
        } catch {
            report(.syntax, explain(error), at: SourceLocation(file: path, line: error.line, column: error.column))
            return
        }
        for problem in document.problems {
            report(.syntax, problem.message, at: SourceLocation(file: path, line: problem.line, column: problem.column))
        }
        readTopLevel(document.root)
    }

    /// Checks what spans files and returns the spec, or every problem found.
    ///
    /// - Throws: ``MappingLoadError`` with the diagnostics sorted by file, line and column.
    mutating func finish() throws(MappingLoadError) -> MappingSpec {
        let resolved = resolve()
        guard diagnostics.isEmpty else { throw MappingLoadError(diagnostics: sortedDiagnostics()) }
        let spec = MappingSpec(
            entities: resolved.entities, links: resolved.links, files: files, unions: resolved.unions,
            documents: resolved.documents)
        checkStoreNames(spec)
        guard diagnostics.isEmpty else { throw MappingLoadError(diagnostics: sortedDiagnostics()) }
        return spec
    }

    /// Reports the names the store would declare that PostgreSQL cannot keep (SPEC 6), so that
    /// `validate` refuses them on every store, once per part of the mappings that makes them:
    /// names past ``StorageSchema/longestName`` bytes, which it would cut short; columns named
    /// as its system columns (`xmin`); and tables and indexes that take one name, or the name
    /// it gives a table's primary key (`TABLE_pkey`), which share one namespace.
    private mutating func checkStoreNames(_ spec: MappingSpec) {
        let names = StorageSchema(spec: spec, dialect: .postgres).declaredNames()
        var reported: Set<StorageSchema.NameSource> = []
        let limit = "a store's names are at most \(StorageSchema.longestName) bytes (PostgreSQL's limit, kept by every store)"
        for declared in names where declared.name.utf8.count > StorageSchema.longestName {
            guard reported.insert(declared.source).inserted else { continue }
            let (what, own, location, remedy) = describe(declared.source, in: spec)
            let length = declared.name.utf8.count
            let made = declared.name == own ? "is \(length) bytes long" : "makes the name '\(declared.name)', \(length) bytes long"
            report(.invalidName, "\(what) \(made); \(limit): \(remedy)", at: location)
        }
        for declared in names where declared.kind == .column && StorageSchema.systemColumns.contains(declared.name) {
            guard reported.insert(declared.source).inserted else { continue }
            let (what, _, location, remedy) = describe(declared.source, in: spec)
            report(
                .invalidName,
                "\(what) makes the column '\(declared.name)', a name PostgreSQL keeps for its own columns "
                    + "(refused by every store): \(remedy)",
                at: location)
        }
        var taken: [String: String] = [:]
        for (name, role) in StorageSchema.primaryKeyNames(of: names) { taken[name.lowercased()] = role }
        for declared in names where declared.kind != .column {
            guard let other = taken[declared.name.lowercased()] else {
                taken[declared.name.lowercased()] = declared.role
                continue
            }
            guard reported.insert(declared.source).inserted else { continue }
            let (what, own, location, remedy) = describe(declared.source, in: spec)
            let made = declared.name == own
                ? "is the name" : "makes the name '\(declared.name)' for \(declared.role), which is the name"
            report(
                .duplicateName,
                "\(what) \(made) the store gives to \(other) (tables and indexes share their names, ignoring case): \(remedy)",
                at: location)
        }
    }

    /// What in the mappings `source` is, its own name (when a name the store makes may be it),
    /// where it is, and how to rename it.
    private func describe(
        _ source: StorageSchema.NameSource, in spec: MappingSpec
    ) -> (what: String, own: String?, location: SourceLocation, remedy: String) {
        switch source {
        case .table(let e):
            let entity = spec.entities[e]
            return ("table name '\(entity.table)' of entity '\(entity.name)'", entity.table, drafts[e].tableLocation,
                "give the entity another 'table'")
        case .attribute(let e, let a):
            let attribute = spec.entities[e].attributes[a]
            return ("attribute '\(spec.entities[e].name).\(attribute.name)'", attribute.name, attribute.location,
                "rename the attribute (its JSON key can stay, with 'key')")
        case .link(let l):
            let link = spec.links[l]
            return ("relationship '\(link.source).\(link.forward)'", nil,
                spec[entity: link.source].relationships.first { $0.name == link.forward }!.location,
                "rename the relationship (its JSON key can stay, with 'key'), or its entity's 'table'")
        }
    }

    /// libyaml's message, with the usual cause named when it points at a tab.
    private func explain(_ error: YAMLError) -> String {
        guard let line = lines[file].flatMap({ error.line <= $0.count ? $0[error.line - 1] : nil }),
            error.column >= 1, line.dropFirst(error.column - 1).first == "\t"
        else { return error.message }
        return "tab character where YAML expects spaces (tabs cannot indent YAML): \(error.message)"
    }

    // MARK: Reporting

    /// Records a problem at `location`.
    mutating func report(_ code: MappingDiagnostic.Code, _ message: String, at location: SourceLocation) {
        let fileLines = lines[location.file]
        let line = fileLines.flatMap {
            location.line >= 1 && location.line <= $0.count ? String($0[location.line - 1]) : nil
        }
        diagnostics.append(MappingDiagnostic(code: code, location: location, message: message, sourceLine: line))
    }

    /// Records a problem at a node of the file being read.
    mutating func report(_ code: MappingDiagnostic.Code, _ message: String, at node: YAMLNode) {
        report(code, message, at: location(of: node))
    }

    /// Where `node` sits in the file being read.
    func location(of node: YAMLNode) -> SourceLocation {
        SourceLocation(file: file, line: node.mark.line, column: node.mark.column)
    }

    private func sortedDiagnostics() -> [MappingDiagnostic] {
        let order = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return diagnostics.enumerated().sorted { a, b in
            let (x, y) = (a.element.location, b.element.location)
            let (fx, fy) = (order[x.file] ?? -1, order[y.file] ?? -1)
            if fx != fy { return fx < fy }
            if x.line != y.line { return x.line < y.line }
            if x.column != y.column { return x.column < y.column }
            return a.offset < b.offset
        }.map(\.element)
    }
}
