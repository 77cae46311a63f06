// Times the clean-up pass (SPEC 2.5) on a large store: users own repos, repos carry tags,
// repos and tags are `cleanup: orphans`. A share of the repos has no owner, and each of those
// carries a tag nothing else links to: a two-level orphan chain.
//
//     swift run -c release cleanup-scale [ROWS] [ORPHANS] [STORE]
//
// The store is created through the library, filled with set-based SQL (the import engine is
// not what is measured), then `Mapper.clean()` is timed, twice: once with the orphans, once on
// the cleaned store (reachability alone).
import CSQLite
import Foundation
import JSONImport

let arguments = CommandLine.arguments.dropFirst().map { $0 }
let total = arguments.count > 0 ? Int(arguments[0]) ?? 1_000_000 : 1_000_000
let orphans = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let path = arguments.count > 2 ? arguments[2] : NSTemporaryDirectory() + "cleanup-scale-\(getpid()).sqlite"

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

/// Runs `sql` on the store with a plain connection (foreign keys off, as SQLite starts).
func fill(_ sql: String) {
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK else { fatalError("cannot open \(path)") }
    defer { sqlite3_close(db) }
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
        fatalError("fill failed: \(message.map { String(cString: $0) } ?? "?")")
    }
}

for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
let spec = try MappingSpec.load(yaml: mappings, file: "cleanup-scale.yml")
_ = try Mapper(spec: spec, store: .file(path))  // creates the store, then closes it

let repos = reachable + orphanRepos
let tags = reachable + orphanTags
let (_, fillSeconds) = measure {
    fill("""
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
print("store: \(path)")
print("rows: \(users + repos + tags) (User \(users), Repo \(repos), Tag \(tags)); orphans: \(orphanRepos + orphanTags); filled in \(String(format: "%.2f", fillSeconds)) s")

let mapper = try Mapper(spec: spec, store: .file(path))
let (report, cleanSeconds) = try measure { try mapper.clean() }
let removed = report.orphansRemoved.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")
print("clean-up pass with orphans: \(String(format: "%.2f", cleanSeconds)) s (removed \(removed))")
let (again, idleSeconds) = try measure { try mapper.clean() }
precondition(again.changes.isEmpty, "a second pass found more to remove")
print("clean-up pass on the cleaned store: \(String(format: "%.2f", idleSeconds)) s")
if arguments.count <= 2 {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
