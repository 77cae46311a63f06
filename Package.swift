// swift-tools-version:6.0
import PackageDescription

#if os(Linux)
    let simdjsonPkgConfig: String? = nil
#else
    let simdjsonPkgConfig: String? = "simdjson"
#endif

let package = Package(
    name: "JSONImport",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "JSONImport", targets: ["JSONImport"]),
        .executable(name: "jsonimport", targets: ["jsonimport"]),
        .plugin(name: "JSONImportCodegen", targets: ["JSONImportCodegen"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(
            name: "CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // On Linux the headers are on the default search path. simdjson's pkg-config file adds
        // `-DSIMDJSON_THREADS_ENABLED=1`, a flag SwiftPM refuses (and warns about in every
        // build of every package that depends on this one), so it is not asked there.
        .systemLibrary(
            name: "CSimdJSONSystem", pkgConfig: simdjsonPkgConfig,
            providers: [.apt(["libsimdjson-dev"]), .brew(["simdjson"])]),
        // A small C++ target that walks simdjson's On-Demand API and hands Swift a plain C tape.
        .target(
            name: "CSimdJSON", dependencies: ["CSimdJSONSystem"],
            linkerSettings: [.linkedLibrary("simdjson")]),
        .target(name: "JSONImport", dependencies: ["CYAML", "CSQLite", "CLibPQ", "CSimdJSON"]),
        .executableTarget(name: "jsonimport", dependencies: ["JSONImport", "CSimdJSON"]),
        // Generates Swift types from a target's Mappings/ at build time (`jsonimport codegen`).
        .plugin(name: "JSONImportCodegen", capability: .buildTool(), dependencies: ["jsonimport"]),
        // Times the clean-up pass on a large store: `bash Benchmarks/cleanup_scale.sh`.
        .executableTarget(
            name: "cleanup-scale", dependencies: ["JSONImport", "CSQLite"], path: "Benchmarks/CleanupScale"),
        // Times map and all with nested values against the import: `swift run -c release read-scale`.
        .executableTarget(name: "read-scale", dependencies: ["JSONImport"], path: "Benchmarks/ReadScale"),
        // A runnable tour of the Swift API: `swift run JSONImportExample`.
        .executableTarget(name: "JSONImportExample", dependencies: ["JSONImport"], path: "Examples/Swift"),
        // Syncs a paged HTTP API from an async context: `swift run JSONImportFetchExample`.
        .executableTarget(name: "JSONImportFetchExample", dependencies: ["JSONImport"], path: "Examples/Fetch"),
        // The HTTP API the fetch tests talk to: a Python server on 127.0.0.1, started per test.
        .target(name: "TestAPIServer", path: "Tests/TestAPIServer", exclude: ["server.py"]),
        .testTarget(
            name: "JSONImportTests", dependencies: ["JSONImport", "TestAPIServer"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "EndToEndTests", dependencies: ["jsonimport", "TestAPIServer"], resources: [.copy("Fixtures")]),
    ],
    cxxLanguageStandard: .cxx17
)
