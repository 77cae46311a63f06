import Testing

/// Where the mappings come from when `--mappings` is not given (SPEC 4).
@Suite struct EnvironmentTests {
    @Test func mappingsComeFromTheEnvironmentVariable() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Elsewhere")
        let result = try CLI.run(["validate"], env: ["JSONIMPORT_MAPPINGS": mappings])
        #expect(result == CLIResult(exitCode: 0, stdout: MappingFixtures.validReport, stderr: ""))
    }

    @Test func mappingsOptionOverridesTheEnvironmentVariable() throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Good")
        let bad = try MappingFixtures.write(MappingFixtures.invalid, into: directory, folder: "Bad")
        let result = try CLI.run(["validate", "--mappings", mappings], env: ["JSONIMPORT_MAPPINGS": bad])
        #expect(result == CLIResult(exitCode: 0, stdout: MappingFixtures.validReport, stderr: ""))
    }

    @Test func mappingsDefaultToTheMappingsFolderOfTheWorkingDirectory() throws {
        let directory = try TemporaryDirectory()
        try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let result = try CLI.run(["validate"], in: directory.url)
        #expect(result == CLIResult(exitCode: 0, stdout: MappingFixtures.validReport, stderr: ""))
    }

    @Test func emptyEnvironmentVariableCountsAsUnset() throws {
        let directory = try TemporaryDirectory()
        try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let result = try CLI.run(["validate"], env: ["JSONIMPORT_MAPPINGS": ""], in: directory.url)
        #expect(result == CLIResult(exitCode: 0, stdout: MappingFixtures.validReport, stderr: ""))
    }

    @Test func missingDefaultMappingsFolderIsInvalidInput() throws {
        let directory = try TemporaryDirectory()
        let result = try CLI.run(["validate"], in: directory.url)
        #expect(result.exitCode == 1)
        #expect(result.stderr.hasPrefix("error: "), "\(result)")
        #expect(result.stderr.contains("Mappings"), "\(result)")
    }
}
