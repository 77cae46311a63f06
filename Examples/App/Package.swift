// swift-tools-version:6.0
// An app's package that depends on JSONImport the way any package does (by path here; by URL
// and version in an app of your own). Swift 6 language mode: complete concurrency checking.
import PackageDescription

let package = Package(
    name: "Catalogue",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "JSONImport", path: "../..")],
    targets: [
        // The types of the mappings (Artist, Album, Label) are generated at build time from
        // Sources/catalogue/Mappings by the package's plugin.
        .executableTarget(
            name: "catalogue",
            dependencies: [.product(name: "JSONImport", package: "JSONImport")],
            resources: [.copy("Mappings")],
            plugins: [.plugin(name: "JSONImportCodegen", package: "JSONImport")]),
    ]
)
