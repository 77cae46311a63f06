import Foundation

/// The store a test keeps at a path, read and written beside the tool, through the database's
/// own shell: `sqlite3` for the SQLite file, `psql` and `pg_dump` for the PostgreSQL schema
/// standing for it (see ``TestStore/argument(_:in:)``).
///
/// ```swift
/// try TestStore.sql(#"DELETE FROM "Repo_tags""#, on: fixture.store)
/// #expect(try TestStore.sql(#"SELECT count(*) FROM "User""#, on: fixture.store) == "2\n")
/// ```
extension TestStore {
    /// Runs `sql` on the store at `path` and returns what it prints: a line per row, columns
    /// separated by `|`, NULL as nothing (both shells' plain output). As `sqlite3` makes a
    /// missing file, a missing schema is created first.
    @discardableResult
    static func sql(_ sql: String, on path: String) throws -> String {
        guard let postgres else { return try shell("sqlite3", ["-bail", path, sql]) }
        let name = schema(absolute(path))
        return try psql(postgres, "SET client_min_messages = warning;\nCREATE SCHEMA IF NOT EXISTS \(name);\nSET search_path TO \(name);\n\(sql)\n")
    }

    /// SQL that makes the rows of `table` (those matching `condition`, all by default) look last
    /// seen `seconds` earlier than they were.
    static func aging(_ table: String, by seconds: Int, where condition: String? = nil) -> String {
        let earlier = isSQLite ? "\"_seen_at\" - \(seconds)" : "\"_seen_at\" - interval '\(seconds) seconds'"
        return "UPDATE \"\(table)\" SET \"_seen_at\" = \(earlier)" + (condition.map { " WHERE \($0)" } ?? "") + ";"
    }

    /// Whether there is a store at `path`: the file, or the schema standing for it.
    static func exists(_ path: String) throws -> Bool {
        guard let postgres else { return FileManager.default.fileExists(atPath: path) }
        return try psql(postgres, "SELECT count(*) FROM pg_namespace WHERE nspname = '\(schema(absolute(path)))';") == "1\n"
    }

    /// What a command that leaves the store at `path` alone leaves exactly as it was, `nil`
    /// when there is no store: the file's bytes, or every column, index, constraint and row of
    /// the schema.
    static func state(_ path: String) throws -> Data? {
        guard let postgres else { return FileManager.default.contents(atPath: path) }
        guard try exists(path) else { return nil }
        return Data(try schemaContent(path, on: postgres).utf8)
    }

    /// Every table and row of the store at `path` as text, equal for stores of equal content
    /// whatever their bytes: the `sqlite3` shell's `.dump` after an integrity check, or the
    /// schema's columns, indexes, constraints and rows, one a line. Left out, as SQLite's
    /// `.dump` leaves out the count of changes in the file's header: the count of commits a
    /// PostgreSQL store keeps for its readers, which a write that changes nothing still counts.
    static func content(_ path: String) throws -> String {
        guard let postgres else { return try shell("sqlite3", ["-bail", path, "PRAGMA integrity_check", ".dump"]) }
        return try schemaContent(path, on: postgres).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("row|_jsonimport_meta|(commits,") }.joined(separator: "\n")
    }

    /// Every column, index, constraint and row of the schema standing for `path`, one a line,
    /// without the schema's name.
    private static func schemaContent(_ path: String, on postgres: String) throws -> String {
        let name = schema(absolute(path))
        return try psql(postgres, contentQuery.replacingOccurrences(of: schemaPlaceholder, with: name))
            .replacingOccurrences(of: name, with: schemaPlaceholder)
    }

    /// A copy of the store at `path` that ``restore(_:to:)`` puts back, `nil` when there is no
    /// store: the file's bytes, or the schema's `pg_dump`.
    static func copy(_ path: String) throws -> Data? {
        guard let postgres else { return FileManager.default.contents(atPath: path) }
        guard try exists(path) else { return nil }
        let name = schema(absolute(path))
        let dump = try shell("pg_dump", ["-d", connection(postgres), "-n", name, "--no-owner", "--no-privileges"])
        // `\restrict` lines carry a key made afresh by every run of pg_dump.
        let lines = dump.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("\\restrict ") && !$0.hasPrefix("\\unrestrict ") }
        return Data(lines.joined(separator: "\n").replacingOccurrences(of: name, with: schemaPlaceholder).utf8)
    }

    /// Makes the stores at `paths`, none of which may exist yet, copies of the one `copy` was
    /// taken of; against PostgreSQL, all through one connection.
    static func restore(_ copy: Data, to paths: [String]) throws {
        guard let postgres else {
            for path in paths { try copy.write(to: URL(fileURLWithPath: path)) }
            return
        }
        let dump = String(decoding: copy, as: UTF8.self)
        try psql(postgres, paths.map { dump.replacingOccurrences(of: schemaPlaceholder, with: schema(absolute($0))) }.joined())
    }

    /// Stands for the schema's name in ``schemaContent(_:on:)`` and ``copy(_:)``.
    private static let schemaPlaceholder = "jsonimport_test_schema"

    /// What ``schemaContent(_:on:)`` prints: one script, one connection, and every catalog read
    /// through an index, so that it takes milliseconds however many schemas the server holds
    /// (where `pg_dump` takes a tenth of a second and more).
    private static let contentQuery = """
        CREATE TEMPORARY TABLE store_tables AS SELECT c.oid, c.relname FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
        WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_namespace'::regclass AND c.relkind = 'r'
            AND d.refobjid = (SELECT oid FROM pg_namespace WHERE nspname = '\(schemaPlaceholder)');
        ANALYZE store_tables;
        SELECT 'column|' || t.relname || '|' || a.attname || '|' || format_type(a.atttypid, a.atttypmod) || '|'
            || a.attnotnull || '|' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || '|' || coalesce(co.collname, '')
        FROM store_tables t JOIN pg_attribute a ON a.attrelid = t.oid
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum LEFT JOIN pg_collation co ON co.oid = a.attcollation
        WHERE a.attnum > 0 AND NOT a.attisdropped ORDER BY t.relname, a.attnum;
        SELECT 'index|' || t.relname || '|' || pg_get_indexdef(i.indexrelid) FROM store_tables t JOIN pg_index i ON i.indrelid = t.oid ORDER BY 1;
        SELECT 'constraint|' || t.relname || '|' || c.conname || '|' || pg_get_constraintdef(c.oid)
        FROM store_tables t JOIN pg_constraint c ON c.conrelid = t.oid ORDER BY 1;
        SELECT format('SELECT %L || t::text FROM %I.%I t ORDER BY t::text COLLATE "C";', 'row|' || relname || '|', '\(schemaPlaceholder)', relname)
        FROM store_tables ORDER BY relname \\gexec
        """

    /// The server's URL without a `schema` parameter, which is the tool's and not libpq's.
    private static func connection(_ url: String) -> String {
        guard let query = url.firstIndex(of: "?") else { return url }
        let pairs = url[url.index(after: query)...].split(separator: "&").filter { !$0.hasPrefix("schema=") }
        return String(url[..<query]) + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    /// Runs `script` with `psql` on the server at `url`, stopping at the first error.
    @discardableResult
    private static func psql(_ url: String, _ script: String) throws -> String {
        try shell("psql", [connection(url), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"], stdin: script)
    }

    /// Runs `/usr/bin/TOOL arguments` and returns its stdout, or throws with all it printed.
    private static func shell(_ tool: String, _ arguments: [String], stdin: String? = nil) throws -> String {
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/" + tool), arguments, environment: ProcessInfo.processInfo.environment, stdin: stdin)
        guard result.exitCode == 0 else { throw SubprocessFailure("\(tool) failed: \(result)") }
        return result.stdout
    }
}
