import Foundation
import JSONImport
import Testing

/// The store the command-line tests run against: SQLite files as the tests name them, or, when
/// `JSONIMPORT_TEST_STORE` names a PostgreSQL server (`postgres://…`), one schema of it per
/// file path a test names (`Scripts/test.sh` runs the suite once each way). ``CLI/run`` puts
/// the schema's URL wherever a test passes a store path and puts the path back in what the tool
/// prints, so a test reads the same either way.
enum TestStore {
    /// The PostgreSQL server the tests run against, `nil` for SQLite.
    static let postgres: String? = {
        guard let url = ProcessInfo.processInfo.environment["JSONIMPORT_TEST_STORE"],
            url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
        else { return nil }
        return url
    }()

    /// Whether the tests run against SQLite.
    static var isSQLite: Bool { postgres == nil }

    /// Sets the schemas of this run apart from those earlier runs left on the same server.
    private static let run = UUID().uuidString

    /// The PostgreSQL schema standing for the store at the absolute `path`: named after a hash of
    /// the path and of this run, so each test's paths stay apart and every run starts afresh.
    static func schema(_ path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (run + path).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "e_" + String(hash, radix: 36)
    }

    /// What `--store` takes for the store a test keeps at `path` (relative to `directory`, by
    /// default the test's working directory): the path, or the URL of the PostgreSQL schema
    /// standing for it.
    static func argument(_ path: String, in directory: String? = nil) -> String {
        guard let postgres, path != ":memory:", !path.hasPrefix("postgres") else { return path }
        return postgres + (postgres.contains("?") ? "&" : "?") + "schema=" + schema(absolute(path, in: directory))
    }

    /// The library's location of the store a test keeps at `path`.
    static func location(_ path: String) -> Mapper.StoreLocation { Mapper.StoreLocation(argument(path)) }

    /// `path` made absolute against `directory`, by default the test's working directory, without
    /// `.` or `..` parts.
    static func absolute(_ path: String, in directory: String? = nil) -> String {
        let base = URL(fileURLWithPath: directory ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: base).standardized.path
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test of the SQLite store itself (its file, the file's folder and file system, the
    /// `sqlite3` shell's view of it) only when the suite runs against SQLite; `reason` says what
    /// of SQLite it tests.
    static func sqliteStore(_ reason: Comment) -> Self { .enabled(if: TestStore.isSQLite, reason) }
}
