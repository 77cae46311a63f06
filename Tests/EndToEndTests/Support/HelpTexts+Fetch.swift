/// `jsonimport fetch --help`, kept apart from the other help texts.
extension HelpTexts {
    /// `jsonimport fetch --help`.
    static let fetch = """
        OVERVIEW: Imports what an HTTP API returns, page after page, in one transaction.

        Pages are followed by their 'Link: <URL>; rel="next"' header, unless --next,
        --cursor or --page says how. The store keeps each page's ETag, Last-Modified,
        next link and record keys: the next fetch of the same URL sends conditional
        requests, and a 304 Not Modified counts as the same records again. A 429, a 5xx,
        a timeout or a cut connection is retried with exponential backoff, honouring
        Retry-After; any other failure names the URL and the status, exits with 1, and
        nothing of the fetch is kept. The store is created when it does not exist.

        USAGE: jsonimport fetch [OPTIONS] ENTITY URL

        ARGUMENTS:
          ENTITY                  The root entity the records belong to.
          URL                     The first page: an http:// or https:// URL.

        OPTIONS:
          --header HEADER ...     'Name: value' sent with every request; $VAR and ${VAR}
                                  in the value are read from the environment, and never
                                  shown. (repeatable)
          --next KEYPATH          Follows the next page's URL at this key path of the
                                  body (links.next).
          --cursor KEYPATH=PARAM  Sends the cursor at KEYPATH of the body back as the
                                  query parameter PARAM.
          --page PARAM            Numbers the pages in the query parameter PARAM, from 1
                                  until a page without records.
          --max-pages N           Fetches at most N pages.
          --since ATTRIBUTE=PARAM
                                  Incremental sync: sends the largest stored ATTRIBUTE
                                  of the rows this URL returned before as the query
                                  parameter PARAM.
          --retries N             How many times a request is sent again after a 429, a
                                  5xx, a timeout or a cut connection. (default: 3)
          --retry-delay SECONDS   Wait before the first retry, doubled for each one
                                  after it, unless Retry-After says how long. (default:
                                  1)
          --timeout SECONDS       How long one request may take, to the last byte of its
                                  response. (default: 30)
          --root KEYPATH          Key path of the record list in the payload (overrides
                                  the entity's root).
          --format FORMAT         Payload format. (values: json, jsonl; default: json)
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
}
