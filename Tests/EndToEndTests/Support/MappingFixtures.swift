/// Mapping files the end-to-end tests write into temporary directories.
enum MappingFixtures {
    /// SPEC 1's example, split over two files with relationships across them.
    static let valid: [String: String] = [
        "github.yml": """
            version: 1
            defaults:
              keyStyle: snake_case
            entities:
              User:
                primaryKey: id
                attributes:
                  id: int
                  login: string
                  name: string
                  email: { key: contact.email, type: string }
                  createdAt: { type: date }
                  isAdmin: { key: site_admin, type: bool, default: false }
                  score: double
                  bio: string
                  topics: "[string]"
                  meta: json
                relationships:
                  address:   { to: Address, kind: one, onDelete: cascade }
                  repos:     { to: Repo, kind: many, onDelete: cascade }
                  followers: { to: User, kind: many, key: follower_ids }
              Address:
                attributes:
                  street: string
                  city: string
                  zip: string

            """,
        "repos.yml": """
            entities:
              Repo:
                primaryKey: id
                attributes:
                  id: int
                  name: { type: string, required: true }
                  stars: { type: int, default: 0, min: 0 }
                  language: string
                relationships:
                  owner: { to: User, kind: one, inverse: repos }
                  tags:  { to: Tag, kind: many }
              Tag:
                primaryKey: name
                cleanup: orphans
                attributes:
                  name: { type: string, transform: lowercase }

            """,
    ]

    /// `validate`'s report for ``valid``.
    static let validReport = """
        User     key: id    attributes: 10  relationships: 3
        Address  owned      attributes: 3   relationships: 0
        Repo     key: id    attributes: 4   relationships: 2
        Tag      key: name  attributes: 1   relationships: 0
        4 entities in 2 files: the mappings are valid.

        """

    /// One entity with a composite key, in a single file.
    static let single = """
        entities:
          Membership:
            primaryKey: [team, user]
            attributes:
              team: string
              user: int
              role: string

        """

    /// Four mistakes over two files: an unknown type, an unknown entity, a misspelt key (so
    /// `Repo` has no attributes).
    static let invalid: [String: String] = [
        "a.yml": """
            entities:
              User:
                primaryKey: id
                attributes:
                  id: int
                  login: strng
                relationships:
                  team: { to: Team, kind: one }

            """,
        "b.yml": """
            entities:
              Repo:
                primaryKey: id
                atributes:
                  id: int

            """,
    ]

    /// A file that is not valid YAML: an unclosed flow mapping.
    static let syntaxError = """
        entities:
          User:
            primaryKey: id
            attributes: { id: int

        """

    /// Writes `files` into `directory`/`folder` and returns the folder's path.
    @discardableResult
    static func write(_ files: [String: String], into directory: TemporaryDirectory, folder: String) throws
        -> String
    {
        for (name, contents) in files { try directory.write(contents, to: "\(folder)/\(name)") }
        return directory.path(folder)
    }
}
