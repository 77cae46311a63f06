/// A union of entities (SPEC 1.4): objects that are one of several entities, told apart by the
/// value at a discriminator key.
///
/// ```yaml
/// Actor:
///   oneOf: { key: type, map: { User: User, Organization: Org, Bot: Bot } }
/// ```
///
/// A union has no table of its own. A relationship to it is stored as one link per concrete
/// entity (``RelationshipSpec/union``), and importing it as the root imports each record as
/// the entity its discriminator names.
public struct UnionSpec: Sendable, Hashable {
    /// The union's name, which shares the entities' namespace.
    public let name: String
    /// Where the discriminator is read in an object.
    public let key: JSONKeyPath
    /// Discriminator values and what each routes to (an entity or another union), in
    /// declaration order.
    public let routes: [Route]
    /// The concrete entities an object can be routed to, through nested unions too, in the
    /// order their first route is declared.
    public let entities: [String]
    /// Key path of the record list when the union is imported as the root.
    public let root: JSONKeyPath?
    /// Where the union's name is written in its mapping file.
    public let location: SourceLocation

    package init(name: String, key: JSONKeyPath, routes: [Route], entities: [String], root: JSONKeyPath?, location: SourceLocation) {
        self.name = name
        self.key = key
        self.routes = routes
        self.entities = entities
        self.root = root
        self.location = location
    }

    /// One entry of `map`: objects whose discriminator is `value` are records of `target`.
    public struct Route: Sendable, Hashable {
        /// The discriminator value, as written (a JSON string, or a number's or boolean's text).
        public let value: String
        /// The entity or union the value routes to.
        public let target: String
    }

    /// What routes to `target`, directly: the first discriminator value mapped to it, or
    /// `nil`.
    public func value(routingTo target: String) -> String? {
        routes.first { $0.target == target }?.value
    }
}

/// A payload shape holding several record lists (SPEC 1.5), imported by its name: each root
/// is imported as a root import of its entity, in declaration order, in one transaction.
///
/// ```yaml
/// documents:
///   GitHubDump:
///     roots: { users: User, "data.repos": Repo, included: FeedItem }
/// ```
public struct DocumentSpec: Sendable, Hashable {
    /// The document's name, which shares the entities' namespace.
    public let name: String
    /// Each record list: where it sits in the document, and the entity or union its records are.
    public let roots: [Root]
    /// Where the document's name is written in its mapping file.
    public let location: SourceLocation

    package init(name: String, roots: [Root], location: SourceLocation) {
        self.name = name
        self.roots = roots
        self.location = location
    }

    /// One record list of a document.
    public struct Root: Sendable, Hashable {
        /// Key path of the list (or single record) in the document.
        public let path: JSONKeyPath
        /// The entity or union its records are imported as.
        public let entity: String
    }
}
