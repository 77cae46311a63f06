/// Builds the node tree of a one-document YAML text from libyaml's events.
///
/// Aliases are replaced by the node their anchor names, and merge keys (`<<: *base`,
/// `<<: [*a, *b]`) are applied: explicit keys win over merged ones, earlier merged mappings
/// over later ones, and merged keys take the place of the `<<` key. Aliases share storage, so
/// the tree stays small in memory; the number of nodes it expands to is still counted and
/// capped (``YAMLComposer/maximumNodeCount``) so that walking it stays cheap
/// ("billion laughs").
///
/// ```swift
/// let document = try YAMLComposer.compose("a: &x [1, 2]\nb: *x\n")
/// ```
struct YAMLComposer {
    /// The most nodes a document may expand to, aliases included.
    static let maximumNodeCount = 1_000_000
    /// The deepest nesting of collections accepted.
    static let maximumDepth = 256

    /// The composed document: its root (`nil` for an empty text) and the problems that did
    /// not stop composition (unknown tags).
    struct Document {
        let root: YAMLNode?
        let problems: [YAMLError]
    }

    private static let knownTags: Set<String> = ["str", "int", "float", "bool", "null", "merge"].reduce(into: ["!"]) {
        $0.insert(YAMLValue.coreTag + $1)
    }

    private let parser: YAMLParser
    private let maximumNodeCount: Int
    private var anchors: [String: YAMLNode] = [:]
    private var openAnchors: Set<String> = []
    private var nodeCount = 0
    private var depth = 0
    private var problems: [YAMLError] = []

    private init(text: String, maximumNodeCount: Int) {
        self.parser = YAMLParser(text: text)
        self.maximumNodeCount = maximumNodeCount
    }

    /// Composes `text`, which must hold at most one document.
    ///
    /// - Throws: ``YAMLError`` for a syntax error, a second document, an undefined or recursive
    ///   alias, a bad merge key, too deep nesting or too many expanded nodes.
    static func compose(_ text: String, maximumNodeCount: Int = maximumNodeCount) throws(YAMLError) -> Document {
        var composer = YAMLComposer(text: text, maximumNodeCount: maximumNodeCount)
        let root = try composer.composeStream()
        return Document(root: root, problems: composer.problems)
    }

    private mutating func composeStream() throws(YAMLError) -> YAMLNode? {
        _ = try parser.nextEvent()  // stream start
        var root: YAMLNode?
        var sawDocument = false
        while true {
            let event = try parser.nextEvent()
            switch event.kind {
            case .streamEnd:
                return root
            case .documentStart:
                if sawDocument {
                    throw YAMLError("a mapping file holds one YAML document; found a second one", at: event.mark)
                }
                sawDocument = true
                root = try composeNode(try parser.nextEvent())
                _ = try parser.nextEvent()  // document end
            default:
                throw YAMLError("unexpected YAML event", at: event.mark)
            }
        }
    }

    private mutating func composeNode(_ event: YAMLEvent) throws(YAMLError) -> YAMLNode {
        let mark = event.mark
        if event.kind == .alias { return try resolveAlias(event.anchor ?? "", at: mark) }
        let anchor = event.anchor
        let tag = event.tag
        try count(1, at: mark)
        let node: YAMLNode
        switch event.kind {
        case .scalar:
            checkTag(tag, allowed: Self.knownTags, on: "a scalar", at: mark)
            node = YAMLNode(.scalar(event.scalar), tag: tag, mark: mark)
        case .sequenceStart:
            checkTag(tag, allowed: ["!", YAMLValue.coreTag + "seq"], on: "a list", at: mark)
            node = try withAnchor(anchor, at: mark) { (c: inout YAMLComposer) throws(YAMLError) in
                YAMLNode(.sequence(try c.composeItems()), tag: tag, mark: mark)
            }
            return node
        case .mappingStart:
            checkTag(tag, allowed: ["!", YAMLValue.coreTag + "map"], on: "a mapping", at: mark)
            node = try withAnchor(anchor, at: mark) { (c: inout YAMLComposer) throws(YAMLError) in
                YAMLNode(.mapping(try c.composePairs()), tag: tag, mark: mark)
            }
            return node
        default:
            throw YAMLError("unexpected YAML event", at: mark)
        }
        if let anchor { anchors[anchor] = node }
        return node
    }

    /// Composes a collection while its anchor is open, so an alias to it from inside is caught.
    private mutating func withAnchor(
        _ anchor: String?, at mark: YAMLMark,
        _ body: (inout YAMLComposer) throws(YAMLError) -> YAMLNode
    ) throws(YAMLError) -> YAMLNode {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw YAMLError("collections are nested more than \(Self.maximumDepth) levels deep", at: mark)
        }
        if let anchor {
            anchors[anchor] = nil
            openAnchors.insert(anchor)
        }
        let node = try body(&self)
        if let anchor {
            openAnchors.remove(anchor)
            anchors[anchor] = node
        }
        depth -= 1
        return node
    }

    private mutating func composeItems() throws(YAMLError) -> [YAMLNode] {
        var items: [YAMLNode] = []
        while true {
            let event = try parser.nextEvent()
            if event.kind == .sequenceEnd { return items }
            items.append(try composeNode(event))
        }
    }

    private mutating func composePairs() throws(YAMLError) -> [YAMLPair] {
        var pairs: [YAMLPair] = []
        var merges: [(index: Int, sources: [YAMLNode])] = []
        while true {
            let event = try parser.nextEvent()
            if event.kind == .mappingEnd { break }
            let key = try composeNode(event)
            let value = try composeNode(try parser.nextEvent())
            if Self.isMergeKey(key) {
                merges.append((pairs.count, try mergeSources(value)))
            } else {
                pairs.append(YAMLPair(key: key, value: value))
            }
        }
        return merges.isEmpty ? pairs : Self.applying(merges, to: pairs)
    }

    private static func isMergeKey(_ node: YAMLNode) -> Bool {
        guard let scalar = node.scalar, scalar.value == "<<" else { return false }
        return node.tag == YAMLValue.coreTag + "merge" || (node.tag == nil && scalar.isPlain)
    }

    private func mergeSources(_ value: YAMLNode) throws(YAMLError) -> [YAMLNode] {
        let sources = value.mapping != nil ? [value] : (value.sequence ?? [])
        guard !sources.isEmpty, sources.allSatisfy({ $0.mapping != nil }) else {
            throw YAMLError(
                "merge key '<<' takes a mapping or a list of mappings, found \(value.summary)", at: value.mark)
        }
        return sources
    }

    /// Inserts merged pairs where their `<<` key stood, skipping keys already present.
    private static func applying(_ merges: [(index: Int, sources: [YAMLNode])], to pairs: [YAMLPair]) -> [YAMLPair] {
        var taken = Set(pairs.compactMap { $0.key.scalar?.value })
        var result: [YAMLPair] = []
        var nextMerge = merges.makeIterator()
        var merge = nextMerge.next()
        for index in 0...pairs.count {
            while let current = merge, current.index == index {
                for source in current.sources {
                    for pair in source.mapping ?? [] {
                        guard let name = pair.key.scalar?.value, !taken.contains(name) else { continue }
                        taken.insert(name)
                        result.append(pair)
                    }
                }
                merge = nextMerge.next()
            }
            if index < pairs.count { result.append(pairs[index]) }
        }
        return result
    }

    private mutating func resolveAlias(_ anchor: String, at mark: YAMLMark) throws(YAMLError) -> YAMLNode {
        if openAnchors.contains(anchor) {
            throw YAMLError("alias '*\(anchor)' refers to a node that contains it (recursive alias)", at: mark)
        }
        guard let node = anchors[anchor] else {
            throw YAMLError("alias '*\(anchor)' refers to no anchor '&\(anchor)' defined before it", at: mark)
        }
        try count(node.size, at: mark)
        return node
    }

    private mutating func count(_ nodes: Int, at mark: YAMLMark) throws(YAMLError) {
        nodeCount += nodes
        if nodeCount > maximumNodeCount {
            throw YAMLError(
                "document expands to more than \(maximumNodeCount) nodes (aliases expanding aliases?)",
                at: mark)
        }
    }

    private mutating func checkTag(_ tag: String?, allowed: Set<String>, on kind: String, at mark: YAMLMark) {
        guard let tag, !allowed.contains(tag) else { return }
        let isCore = tag.hasPrefix(YAMLValue.coreTag)
        let shown = isCore ? "!!" + tag.dropFirst(YAMLValue.coreTag.count) : tag
        let known = Self.knownTags.union([YAMLValue.coreTag + "seq", YAMLValue.coreTag + "map"])
        problems.append(
            YAMLError(
                known.contains(tag) ? "tag '\(shown)' cannot be used on \(kind)" : "unknown tag '\(shown)'", at: mark))
    }
}
