// Times the clean-up pass (SPEC 2.5) on a large store: users own repos, repos carry tags,
// repos and tags are `cleanup: orphans`. A share of the repos has no owner, and each of those
// carries a tag nothing else links to: a two-level orphan chain.
//
//     swift run -c release cleanup-scale [ROWS] [ORPHANS] [STORE]
//
// STORE is a SQLite file (a temporary one, removed at the end, without it) or a PostgreSQL
// store, `postgres://…?schema=NAME`, whose schema must not exist yet; it is left in place.
// The store is created through the library, filled with set-based SQL (the import engine is
// not what is measured; on PostgreSQL by `psql`, then written to once through the library, an
// empty import, which builds the indexes a new store leaves to its first rows, then vacuumed
// and analyzed, as a store some time after its imports), then `Mapper.clean()` is timed, twice: once with the orphans, once
// on the cleaned store (reachability alone).
import CSQLite
import Foundation
import JSONImport

let arguments = CommandLine.arguments.dropFirst().map { $0 }
let total = arguments.count > 0 ? Int(arguments[0]) ?? 1_000_000 : 1_000_000
let orphans = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let path = arguments.count > 2 ? arguments[2] : NSTemporaryDirectory() + "cleanup-scale-\(getpid()).sqlite"
let location = Mapper.StoreLocation(path)

let users = total / 10
let orphanRepos = orphans / 2
let orphanTags = orphans - orphanRepos
let reachable = (total - users - orphans) / 2  // repos owned by a user, and as many tags
precondition(reachable > 0, "ROWS must exceed ORPHANS plus a tenth of ROWS")

let mappings = """
    entities:
      User:
        primaryKey: id
        attributes: { id: int, login: string }
        relationships:
          repos: { to: Repo, kind: many }
      Repo:
        primaryKey: id
        cleanup: orphans
        attributes: { id: int, name: string }
        relationships:
          owner: { to: User, kind: one, inverse: repos }
          tags:  { to: Tag, kind: many }
      Tag:
        primaryKey: name
        cleanup: orphans
        attributes: { name: string }
    """

func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// Runs `sql` on the SQLite store with a plain connection (foreign keys off, as SQLite starts).
func fillSQLite(_ sql: String) {
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK else { fatalError("cannot open \(path)") }
    defer { sqlite3_close(db) }
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
        fatalError("fill failed: \(message.map { String(cString: $0) } ?? "?")")
    }
}

/// The libpq connection string of a store URL (the URL without its `schema` parameter) and
/// the store's schema (`public` without one), as the library reads them.
func postgresTarget(_ url: URL) -> (connection: String, schema: String) {
    let text = url.absoluteString
    guard let mark = text.firstIndex(of: "?") else { return (text, "public") }
    var schema = "public"
    var kept: [Substring] = []
    for pair in text[text.index(after: mark)...].split(separator: "&") {
        if pair.hasPrefix("schema=") {
            let value = String(pair.dropFirst("schema=".count))
            schema = value.removingPercentEncoding ?? value
        } else {
            kept.append(pair)
        }
    }
    let base = String(text[..<mark])
    return (kept.isEmpty ? base : base + "?" + kept.joined(separator: "&"), schema)
}

/// Runs `script` with `psql` in the store's schema, stopping at the first error; returns what
/// it prints (unaligned, tuples only).
func psql(_ script: String, _ url: URL) -> String {
    let (connection, schema) = postgresTarget(url)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", connection]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    do { try process.run() } catch { fatalError("cannot run psql: \(error)") }
    let quotedSchema = "\"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    input.fileHandleForWriting.write(Data("SET search_path TO \(quotedSchema);\n\(script)\n".utf8))
    try? input.fileHandleForWriting.close()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fatalError("psql failed (exit \(process.terminationStatus))") }
    return String(decoding: printed, as: UTF8.self)
}

switch location {
case .postgres(let url):
    let schema = postgresTarget(url).schema
    let literal = "'" + schema.replacingOccurrences(of: "'", with: "''") + "'"
    guard psql("SELECT count(*) FROM pg_namespace WHERE nspname = \(literal);", url).hasPrefix("0") else {
        FileHandle.standardError.write(Data("error: schema '\(schema)' already exists; name a new one with ?schema=NAME\n".utf8))
        exit(1)
    }
default:
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
let spec = try MappingSpec.load(yaml: mappings, file: "cleanup-scale.yml")
_ = try Mapper(spec: spec, store: location)  // creates the store, then closes it

let repos = reachable + orphanRepos
let tags = reachable + orphanTags
let (_, fillSeconds) = measure {
    if case .postgres(let url) = location {
        _ = psql("""
            BEGIN;
            INSERT INTO "User" (id, login, _created_at, _updated_at, _seen_at)
              SELECT i, 'user' || i, 'epoch', 'epoch', 'epoch' FROM generate_series(1, \(users)) i;
            INSERT INTO "Repo" (id, name, owner, _created_at, _updated_at, _seen_at)
              SELECT i, 'repo' || i, CASE WHEN i <= \(reachable) THEN (i - 1) % \(users) + 1 END, 'epoch', 'epoch', 'epoch'
              FROM generate_series(1, \(repos)) i;
            INSERT INTO "Tag" (_id, name, _created_at, _updated_at, _seen_at)
              SELECT i, 'tag' || i, 'epoch', 'epoch', 'epoch' FROM generate_series(1, \(tags)) i;
            INSERT INTO "Repo_tags" (source, target, position) SELECT i, i, 0 FROM generate_series(1, \(min(repos, tags))) i;
            COMMIT;
            """, url)
    } else {
        fillSQLite("""
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(users))
            INSERT INTO "User" (id, login, _created_at, _updated_at, _seen_at) SELECT i, 'user' || i, 0, 0, 0 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(repos))
            INSERT INTO "Repo" (id, name, owner, _created_at, _updated_at, _seen_at)
              SELECT i, 'repo' || i, CASE WHEN i <= \(reachable) THEN (i - 1) % \(users) + 1 END, 0, 0, 0 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(tags))
            INSERT INTO "Tag" (_id, name, _created_at, _updated_at, _seen_at) SELECT i, 'tag' || i, 0, 0, 0 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(repos))
            INSERT INTO "Repo_tags" (source, target, position) SELECT i, i, 0 FROM n WHERE i <= \(tags);
            COMMIT;
            """)
    }
}
print("store: \(path)")
print("rows: \(users + repos + tags) (User \(users), Repo \(repos), Tag \(tags)); orphans: \(orphanRepos + orphanTags); filled in \(String(format: "%.2f", fillSeconds)) s")

let mapper = try Mapper(spec: spec, store: location)
// A new PostgreSQL store's tables get their indexes with the first write after rows come
// (README, "A new store is indexed after its first rows"); an import would have built them,
// so a first write does, outside the measure, before the tables are vacuumed and analyzed.
if case .postgres(let url) = location {
    _ = try mapper.importData(Data("[]".utf8), as: "User")
    _ = psql("VACUUM (ANALYZE) \"User\", \"Repo\", \"Tag\", \"Repo_tags\";", url)
}
let (report, cleanSeconds) = try measure { try mapper.clean() }
let removed = report.orphansRemoved.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")
print("clean-up pass with orphans: \(String(format: "%.2f", cleanSeconds)) s (removed \(removed))")
let (again, idleSeconds) = try measure { try mapper.clean() }
precondition(again.changes.isEmpty, "a second pass found more to remove")
print("clean-up pass on the cleaned store: \(String(format: "%.2f", idleSeconds)) s")
if arguments.count <= 2 {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
