import Foundation
import Testing

/// `jsonimport codegen`: Swift files for the mappings, on stdout or in a directory.
@Suite struct CodegenCommandTests {
    private let files = ["Address.swift", "JSONImport+Entities.swift", "JSONSupport.swift", "Repo.swift", "Tag.swift", "User.swift"]

    @Test func printsEveryFileOneAfterAnotherWithoutOpeningTheStore() throws {
        let workspace = try Workspace()
        let result = try workspace.run(["--store", workspace.path("no/such/dir/store.sqlite"), "codegen"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr == "")
        let headers = result.stdout.split(separator: "\n").filter { $0.hasPrefix("// ") && $0.hasSuffix(".swift") }
        #expect(headers == ["// User.swift", "// Address.swift", "// Repo.swift", "// Tag.swift", "// JSONSupport.swift", "// JSONImport+Entities.swift"])
        #expect(result.stdout.contains("struct User: Sendable, Hashable {\n    var id: Int\n    var login: String?\n"))
        #expect(try !workspace.hasStore("no/such/dir/store.sqlite"))
        #expect(try !workspace.hasStore())
    }

    @Test func outWritesOneFilePerEntityAndTheSharedFile() throws {
        let workspace = try Workspace()
        let printed = try workspace.run(["codegen"])
        let result = try workspace.run(["codegen", "--out", "Sources/Models"])
        #expect(result == CLIResult(exitCode: 0, stdout: "wrote 6 files to Sources/Models\n", stderr: ""))
        let directory = workspace.path("Sources/Models")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == files)
        let written = try ["User", "Address", "Repo", "Tag", "JSONSupport", "JSONImport+Entities"].map {
            try String(contentsOfFile: directory + "/\($0).swift", encoding: .utf8)
        }
        #expect(written.joined(separator: "\n") == printed.stdout)
        let quiet = try workspace.run(["--quiet", "codegen", "--out", "Sources/Models"])
        #expect(quiet == CLIResult(exitCode: 0, stdout: "", stderr: ""))
    }

    @Test func outFileWritesEverythingIntoOneFileAndStandaloneLeavesTheConformancesOut() throws {
        let workspace = try Workspace()
        let printed = try workspace.run(["codegen"])
        let result = try workspace.run(["codegen", "--out-file", "Models.swift"])
        #expect(result == CLIResult(exitCode: 0, stdout: "wrote 6 files into Models.swift\n", stderr: ""))
        #expect(workspace.contents(of: "Models.swift") == Data(printed.stdout.utf8))
        #expect(printed.stdout.contains("import JSONImport\n\nextension User: PayloadCodable {}\n"))
        let standalone = try workspace.run(["codegen", "--standalone"])
        #expect(!standalone.stdout.contains("JSONImport"))
        let both = try workspace.run(["codegen", "--out", "A", "--out-file", "B.swift"])
        #expect(both.exitCode == 2, "\(both)")
        let open = try workspace.run(["codegen", "--access", "public"])
        #expect(open.stdout.contains("public struct User: Sendable, Hashable {\n    public var id: Int\n"))
        let unknown = try workspace.run(["codegen", "--access", "private"])
        #expect(unknown.exitCode == 2 && unknown.stderr.contains("--access is 'public' or 'internal', not 'private'"), "\(unknown)")
    }

    @Test func invalidMappingsAreInvalidInput() throws {
        let workspace = try Workspace(mappings: MappingFixtures.invalid)
        let result = try workspace.run(["codegen", "--out", "Models"])
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(workspace.contents(of: "Models/User.swift") == nil)
    }

    @Test func anUnwritableDirectoryIsInvalidInput() throws {
        let workspace = try Workspace()
        try workspace.write("a file, not a directory", to: "Models")
        let result = try workspace.run(["codegen", "--out", "Models"])
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr.hasPrefix("error: cannot write to 'Models': "), "\(result)")
    }
}
