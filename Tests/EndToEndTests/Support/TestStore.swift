import Foundation
import JSONImport

/// The store the command-line tests run against: SQLite files as the tests name them, or, when
/// `JSONIMPORT_TEST_STORE` names a PostgreSQL server (`postgres://…`), one schema of it per
/// file path a test names (`Scripts/test.sh` runs the suite once each way). ``CLI/run`` puts
/// the schema's URL wherever a test passes a store path, so a test reads the same either way.
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

    /// What `--store` takes for the store a test keeps at `path`: the path, or the URL of the
    /// PostgreSQL schema standing for it (named after a hash of the path, so each test's paths
    /// stay apart).
    static func argument(_ path: String) -> String {
        guard let postgres, path != ":memory:", !path.hasPrefix("postgres") else { return path }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return postgres + (postgres.contains("?") ? "&" : "?") + "schema=e_" + String(hash, radix: 36)
    }

    /// The library's location of the store a test keeps at `path`.
    static func location(_ path: String) -> Mapper.StoreLocation { Mapper.StoreLocation(argument(path)) }
}

