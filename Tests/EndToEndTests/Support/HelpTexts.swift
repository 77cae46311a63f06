/// The whole help texts, as users see them. A new command adds a line to ``tool`` and a text
/// of its own here, and its name to ``HelpTests/commands``.
enum HelpTexts {
    /// `jsonimport --help`.
    static let tool = """
        OVERVIEW: Maps the JSON that web APIs return into a SQLite cache of model
                  objects, as YAML mappings describe.

        USAGE: jsonimport [--mappings PATH] [--store PATH] [--busy-timeout SECONDS]
                          [--quiet] [--no-progress] COMMAND ...

        OPTIONS:
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          --version               Prints the version and exits.
          -h, --help              Shows this help.

        COMMANDS:
          import                  Imports JSON payloads into the store, upserting every
                                  record by its key.
          fetch                   Imports what an HTTP API returns, page after page, in
                                  one transaction.
          query                   Prints stored records of an entity, filtered, ordered
                                  and paged.
          export                  Prints stored records of an entity shaped like the API
                                  payload they came from.
          stats                   Counts rows per entity (stubs included), stubs, and
                                  links per relationship.
          migrate                 Shows the changes the store needs to match the
                                  mappings, and applies them.
          infer                   Prints a draft mapping inferred from sample payloads.
          validate                Checks the mappings and lists each entity with its key
                                  and counts.
          schema                  Prints the SQL that creates the store for the
                                  mappings.
          delete                  Deletes rows by key or filter, with their onDelete
                                  rules and clean-up.
          clean                   Runs the clean-up pass, after evicting rows not seen
                                  for a while.
          codegen                 Writes Swift value types for the mappings: one file
                                  per entity.
          help [COMMAND]          Shows help for the tool or for a command.

        See 'jsonimport help COMMAND' for a command's arguments and options.

        """

    /// `jsonimport validate --help`.
    static let validate = """
        OVERVIEW: Checks the mappings and lists each entity with its key and counts.

        Every problem is reported, not only the first: one line per error on stderr,
        'error: FILE:LINE:COLUMN: MESSAGE', and exit status 1. The store is never
        opened.

        USAGE: jsonimport validate [OPTIONS]

        OPTIONS:
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport schema --help`.
    static let schema = """
        OVERVIEW: Prints the SQL that creates the store for the mappings.

        Statements end with ';', one after another, ready for 'sqlite3' or, with
        '--dialect postgres', for 'psql' (which runs them in the schema first on its
        search_path). '--dialect citus' prints the PostgreSQL statements, then the Citus
        calls that distribute the tables of entities with 'distribution: { key: … }' by
        their tenant and make those of 'distribution: reference' reference tables. The
        store is never opened.

        USAGE: jsonimport schema [OPTIONS]

        OPTIONS:
          --dialect DIALECT       The SQL to print: the SQLite store's, the PostgreSQL
                                  store's, or that with Citus's distribution calls.
                                  (values: sqlite, postgres, citus; default: sqlite)
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport import --help`.
    static let importCommand = """
        OVERVIEW: Imports JSON payloads into the store, upserting every record by its
                  key.

        All files are imported in one transaction: the store keeps all of them or none.
        '-' reads standard input. Files ending in .jsonl or .ndjson are read as JSON
        Lines. The store is created when it does not exist.

        USAGE: jsonimport import [OPTIONS] ENTITY FILE...

        ARGUMENTS:
          ENTITY                  The root entity the records belong to: an entity, a
                                  union or a document.
          FILE                    Payload files ('-' for standard input).

        OPTIONS:
          --root KEYPATH          Key path of the record list in the payload (overrides
                                  the entity's root).
          --format FORMAT         Payload format. (values: json, jsonl; default: by file
                                  extension)
          --prune                 Delete rows of ENTITY that the payloads do not contain
                                  (sync mode).
          --prune-scope EXPR      With --prune: prune only the rows of ENTITY this
                                  filter selects once the records are imported (as
                                  --where of query).
          --on-error POLICY       What a record error does: abort the import or skip the
                                  record. (values: abort, skip; default: abort)
          --no-cleanup            Do not run the clean-up pass after the records.
          --dry-run               Do everything and report it, then roll it back.
          --report FORMAT         How to print the report. (values: text, json; default:
                                  text)
          --explain               List every deleted row and why.
          --max-depth N           Deepest nesting of arrays and objects accepted in a
                                  payload (1 to 10000). (default: 512)
          --max-payload-size SIZE
                                  Largest JSON document read, in bytes or with a unit K,
                                  M or G; each line of a JSON Lines file counts alone.
                                  (default: 1G)
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport query --help`.
    static let query = """
        OVERVIEW: Prints stored records of an entity, filtered, ordered and paged.

        Attributes appear in their JSON form; a relationship appears as the target's
        primary key (an array of keys for 'many'), an owned target as the nested object.
        Rows come in primary-key order unless --order is given.

        Filter expressions: comparisons (= != < <= > >=), IN (...), IS [NOT] NULL, LIKE,
        CONTAINS (an array attribute holding an element: "topics CONTAINS 'swift'"),
        AND, OR, NOT and parentheses; paths follow relationships: "address.city =
        'Oslo'".

        USAGE: jsonimport query [OPTIONS] ENTITY

        ARGUMENTS:
          ENTITY                  The entity to read.

        OPTIONS:
          --id VALUE ...          A primary key to select (a composite key as its values
                                  joined by commas). (repeatable)
          --where EXPR            A filter expression.
          --order FIELD[:desc] ...
                                  Sort by an attribute, or a path through to-one
                                  relationships (address.city), ascending unless ':desc'
                                  follows. (repeatable)
          --limit N               Print at most N rows.
          --offset N              Skip the first N rows.
          --fields A,B,...        Print only these properties, in this order.
          --meta                  Add _createdAt, _updatedAt, _seenAt and _stub to each
                                  row.
          --format FORMAT         Output format. (values: json, jsonl, table; default:
                                  table on a terminal, else json)
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport stats --help`.
    static let stats = """
        OVERVIEW: Counts rows per entity (stubs included), stubs, and links per
                  relationship.

        USAGE: jsonimport stats [OPTIONS]

        OPTIONS:
          --format FORMAT         Output format. (values: text, json; default: text)
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport migrate --help`.
    static let migrate = """
        OVERVIEW: Shows the changes the store needs to match the mappings, and applies
                  them.

        Safe changes (new entities, attributes, relationships, indexes) are applied in
        place. Changes that would lose data (a removed attribute, relationship or
        entity, a type or key change) are listed and nothing is applied (exit status 1)
        unless --allow-data-loss is given.

        An attribute that changes type keeps the values an import would convert to the
        new type ("12" to 12); the others become null. A key or required attribute
        holding a value that does not convert fails the migration (exit status 1) with
        nothing applied.

        USAGE: jsonimport migrate [OPTIONS]

        OPTIONS:
          --allow-data-loss       Apply changes that drop stored data too.
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport infer --help`.
    static let infer = """
        OVERVIEW: Prints a draft mapping inferred from sample payloads.

        Every record of the samples is read: attribute types (dates, uuids, urls and
        decimals recognised), keyStyle, nested objects with an id as entities, lists of
        them as 'many', objects without one as owned entities, lists of scalars as [T].
        Comments mark the keys some records lack or hold null. A sample that wraps its
        records ({"items": [...], "total_count": 9}) gives the entity its root. The
        draft validates and imports the samples; review its names and types before use.
        '-' reads standard input; files ending in .jsonl or .ndjson are read as JSON
        Lines. Neither the mappings nor the store are read.

        USAGE: jsonimport infer [OPTIONS] ENTITY FILE...

        ARGUMENTS:
          ENTITY                  Name of the root entity the records belong to.
          FILE                    Sample payloads ('-' for standard input).

        OPTIONS:
          --root KEYPATH          Key path of the record list in the samples. (default:
                                  found in the samples)
          --format FORMAT         Sample format. (values: json, jsonl; default: by file
                                  extension)
          --out FILE              Write the draft to FILE (replacing it) instead of
                                  printing it.
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport delete --help`.
    static let delete = """
        OVERVIEW: Deletes rows by key or filter, with their onDelete rules and clean-up.

        Each relationship of a deleted row applies its onDelete rule: nullify drops the
        links, cascade deletes the linked rows too, deny refuses the whole deletion
        while links to rows that would stay exist (exit 1, nothing deleted). Then the
        clean-up pass removes the rows of 'cleanup: orphans' entities that nothing links
        to any more. Everything happens in one transaction.

        Rows are picked by --id, by --where, or by both (rows matching both).

        USAGE: jsonimport delete [OPTIONS] ENTITY

        ARGUMENTS:
          ENTITY                  The entity to delete rows from.

        OPTIONS:
          --id VALUE ...          Primary key of a row to delete; a composite key as its
                                  values joined by commas, in key order. (repeatable)
          --where EXPR            Filter expression picking the rows to delete, as for
                                  'query'.
          --no-cascade            Deletes the named rows only and drops their links;
                                  cascade rules are not followed.
          --no-cleanup            Skips the clean-up pass after the deletion.
          --report FORMAT         How to print what was done: a text summary, or one
                                  JSON object. (values: text, json; default: text)
          --explain               Lists every deleted row with its key and the reason it
                                  was deleted.
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport clean --help`.
    static let clean = """
        OVERVIEW: Runs the clean-up pass, after evicting rows not seen for a while.

        The clean-up pass deletes the rows of 'cleanup: orphans' entities that no longer
        hang from any root by links. With --older-than, rows whose seenAt (the last time
        an import contained them) is older than the duration are deleted first, with
        their onDelete rules, in every entity with timestamps or in those given with
        --entity.

        USAGE: jsonimport clean [OPTIONS]

        OPTIONS:
          --older-than DURATION   Evicts rows not seen for this long: a number with a
                                  unit, s, m, h or d (90s, 15m, 12h, 30d).
          --entity ENTITY ...     Evicts only from this entity (it must keep
                                  timestamps). (repeatable)
          --report FORMAT         How to print what was done: a text summary, or one
                                  JSON object. (values: text, json; default: text)
          --explain               Lists every deleted row with its key and the reason it
                                  was deleted.
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport export --help`.
    static let export = """
        OVERVIEW: Prints stored records of an entity shaped like the API payload they
                  came from.

        Attributes appear at their JSON keys, in their JSON form (dates in their
        format); attributes declared 'export: false' are left out. Forward relationships
        are nested as objects down to --depth levels and written as primary keys below
        it; 'by: id' relationships and back sides are always keys, owned targets always
        nested. Stubs appear only as keys.

        With --format json the records are wrapped under the entity's 'root' key path,
        so 'jsonimport import' reads the output back unchanged.

        USAGE: jsonimport export [OPTIONS] ENTITY

        ARGUMENTS:
          ENTITY                  The entity to export.

        OPTIONS:
          --id VALUE ...          A primary key to select (a composite key as its values
                                  joined by commas). (repeatable)
          --where EXPR            A filter expression.
          --depth N               Levels of relationships nested as objects. (default:
                                  1)
          --fields A,B,...        Write only these properties of the root records.
          --except A,B,...        Write every property of the root records but these.
          --format FORMAT         Output format. (values: json, jsonl; default: json)
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """

    /// `jsonimport codegen --help`.
    static let codegen = """
        OVERVIEW: Writes Swift value types for the mappings: one file per entity.

        Each entity becomes a Codable, Sendable, Hashable struct that reads and writes
        the entity's JSON as the API sends it and 'jsonimport export' writes it.
        JSONSupport.swift holds what the files share; JSONImport+Entities.swift makes
        the types PayloadCodable, so that the library reads and saves them in that form.
        Comments in the YAML become doc comments. The store is never opened.

        USAGE: jsonimport codegen [OPTIONS]

        OPTIONS:
          --out DIR               Write the files into DIR. (default: standard output)
          --out-file FILE         Write every type into the one file FILE (for a
                                  build-tool plugin).
          --access LEVEL          'public' declares the types, their members and a
                                  memberwise initializer public, for a module others
                                  import. (default: internal)
          --standalone            Leave out JSONImport+Entities.swift, which makes the
                                  types PayloadCodable: for code that uses the types
                                  without the library.
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file, or a postgres:// URL (a schema of a
                                  PostgreSQL database, ?schema=NAME); ':memory:' keeps
                                  the store in memory for one command. (default:
                                  $JSONIMPORT_STORE, else ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """
}
