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
          --store PATH            Store file; ':memory:' keeps the store in memory for
                                  one command. (default: $JSONIMPORT_STORE, else
                                  ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          --version               Prints the version and exits.
          -h, --help              Shows this help.

        COMMANDS:
          validate                Checks the mappings and lists each entity with its key
                                  and counts.
          schema                  Prints the SQL that creates the store for the
                                  mappings.
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
          --store PATH            Store file; ':memory:' keeps the store in memory for
                                  one command. (default: $JSONIMPORT_STORE, else
                                  ./jsonimport.sqlite)
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

        Statements end with ';', one after another, ready for 'sqlite3'. The store is
        never opened.

        USAGE: jsonimport schema [OPTIONS]

        OPTIONS:
          --mappings PATH         Mapping file, or directory whose *.yml and *.yaml
                                  files are read in name order. (default:
                                  $JSONIMPORT_MAPPINGS, else ./Mappings)
          --store PATH            Store file; ':memory:' keeps the store in memory for
                                  one command. (default: $JSONIMPORT_STORE, else
                                  ./jsonimport.sqlite)
          --busy-timeout SECONDS  How long a writer waits for other processes writing to
                                  the store. (default: 30)
          --quiet                 Prints no progress bar and no text reports; errors and
                                  requested output still print.
          --no-progress           Draws no progress bar (one is drawn only when stderr
                                  is a terminal).
          -h, --help              Shows this help.

        """
}
