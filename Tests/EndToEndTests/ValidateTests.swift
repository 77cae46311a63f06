import Foundation
import Testing

/// `jsonimport validate`: lists entities on success; every mapping error with file:line:col.
@Suite struct ValidateTests {
    @Test func validMappingsListEachEntityWithKeyAndCounts() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let result = try CLI.run(["validate", "--mappings", mappings])
        #expect(result == CLIResult(exitCode: 0, stdout: MappingFixtures.validReport, stderr: ""))
    }

    @Test func singleFileWithCompositeKeyIsListed() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(MappingFixtures.single, to: "members.yml")
        let result = try CLI.run(["--mappings=\(file.path)", "validate"])
        let report = """
            Membership  key: team, user  attributes: 3  relationships: 0
            1 entity in 1 file: the mappings are valid.

            """
        #expect(result == CLIResult(exitCode: 0, stdout: report, stderr: ""))
    }

    @Test func quietSilencesTheReport() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let result = try CLI.run(["validate", "--quiet", "--mappings=\(mappings)"])
        #expect(result == CLIResult(exitCode: 0, stdout: "", stderr: ""))
    }

    @Test func everyErrorIsReportedWithFileLineAndColumn() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.invalid, into: directory, folder: "Bad")
        let result = try CLI.run(["validate", "--mappings", mappings])
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")

        let errors = errorLines(result.stderr)
        #expect(errors.count >= 3, "\(result)")
        for line in errors {
            #expect(line.firstMatch(of: /^error: \S+\.yml:\d+:\d+: \S/) != nil, "\(line)")
        }
        let a = "\(mappings)/a.yml"
        let b = "\(mappings)/b.yml"
        #expect(errors.contains { $0.hasPrefix("error: \(a):6:") && $0.contains("strng") }, "\(result)")
        #expect(errors.contains { $0.hasPrefix("error: \(a):8:") && $0.contains("Team") }, "\(result)")
        #expect(errors.contains { $0.hasPrefix("error: \(b):4:") && $0.contains("atributes") }, "\(result)")
    }

    @Test func yamlSyntaxErrorIsReportedWithItsPosition() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(MappingFixtures.syntaxError, to: "broken.yml")
        let result = try CLI.run(["validate", "--mappings", file.path])
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        let errors = errorLines(result.stderr)
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0.hasPrefix("error: \(file.path):") }, "\(result)")
        #expect(errors.allSatisfy { $0.firstMatch(of: /^error: \S+:\d+:\d+: \S/) != nil }, "\(result)")
    }

    @Test func missingMappingsLocationIsInvalidInput() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("nowhere")
        let result = try CLI.run(["validate", "--mappings", missing])
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: "), "\(result)")
        #expect(result.stderr.contains(missing), "\(result)")
    }

    @Test func validateNeverOpensTheStore() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let store = directory.path("store.sqlite")
        let result = try CLI.run(["validate", "--mappings", mappings, "--store", store])
        #expect(result.exitCode == 0)
        #expect(try directory.contents() == ["Mappings"])
    }

    /// The lines of `stderr` that report errors (the loader's source excerpts are left out).
    private func errorLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("error: ") }
    }
}
