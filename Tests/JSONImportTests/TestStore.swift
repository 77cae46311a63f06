import Foundation
import JSONImport
import Testing

/// The store the semantic tests run against: a private in-memory SQLite store, or, when
/// `JSONIMPORT_TEST_STORE` names a PostgreSQL server (`postgres://…`), a fresh schema of it
/// for every mapper, so that tests running in parallel share the server and nothing else.
/// `Scripts/test.sh` runs the suite once each way.
enum TestStore {
    /// The PostgreSQL server the tests run against, `nil` for SQLite.
    static let postgres: String? = {
        guard let url = ProcessInfo.processInfo.environment["JSONIMPORT_TEST_STORE"],
            url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
        else { return nil }
        return url
    }()

    /// Whether the tests run against SQLite (tests of SQLite itself run only then).
    static var isSQLite: Bool { postgres == nil }

    /// A new, empty store: in memory, or a schema of the PostgreSQL server no test has used.
    static func fresh() -> Mapper.StoreLocation {
        guard let postgres else { return .inMemory }
        return Mapper.StoreLocation(schemaURL(postgres))
    }

    /// A store that outlives its mapper, for tests that open it again: the file at `path`, or
    /// a schema of the PostgreSQL server named after it.
    static func persistent(_ path: String) -> Mapper.StoreLocation {
        guard let postgres else { return .file(path) }
        return Mapper.StoreLocation(schemaURL(postgres, named: "t_" + String(UInt64(bitPattern: Int64(path.hashValue)), radix: 36)))
    }

    /// `url` with `schema` set to `name`, by default a new unique one.
    static func schemaURL(_ url: String, named name: String = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")) -> String {
        url + (url.contains("?") ? "&" : "?") + "schema=" + name
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test of the SQLite store itself (its files, pragmas, WAL, indexes) only when the
    /// suite runs against SQLite.
    static var sqliteStore: Self { .enabled(if: TestStore.isSQLite, "a test of the SQLite store itself") }
}
