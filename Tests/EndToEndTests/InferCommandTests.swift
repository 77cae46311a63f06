import Foundation
import Testing

/// `jsonimport infer ENTITY FILE...`: a draft mapping that validates and imports its samples.
///
/// The samples under `Fixtures/Infer` are written by hand in the shape of real responses:
/// `github-issues.json` and `github-search-repositories.json` follow GitHub's REST API (v3)
/// issue list and repository search; `jsonapi-articles.json` is the example document of the
/// JSON:API specification; `feed.jsonl` is a feed of several item kinds.
@Suite struct InferCommandTests {
    private static let fixtures: URL = {
        guard let resources = Bundle.module.resourceURL else { fatalError("the test bundle has no resources") }
        return resources.appendingPathComponent("Fixtures/Infer")
    }()

    private static let examples: URL = {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }  // file, EndToEndTests, Tests
        return root.appendingPathComponent("Examples")
    }()

    /// A workspace holding the named fixtures.
    private func workspace(with fixtures: String...) throws -> Workspace {
        let workspace = try Workspace()
        for name in fixtures {
            try workspace.write(String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8), to: name)
        }
        return workspace
    }

    /// Infers `entity` from `files` into `draft.yml`, validates it and imports the files with it;
    /// returns the draft and the import's report.
    private func inferValidateImport(
        _ entity: String, _ files: [String], in workspace: Workspace, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (draft: String, report: [String: Any]) {
        let inferred = try workspace.run(["infer", entity] + files + ["--out", "draft.yml"])
        #expect(inferred.exitCode == 0 && inferred.stderr == "", "\(inferred)", sourceLocation: sourceLocation)
        let validated = try workspace.run(["--mappings", "draft.yml", "validate"])
        #expect(validated.exitCode == 0, "\(validated)", sourceLocation: sourceLocation)
        let imported = try workspace.run(["--mappings", "draft.yml", "--store", "draft.sqlite", "import", entity] + files + ["--report", "json"])
        #expect(imported.exitCode == 0, "\(imported)", sourceLocation: sourceLocation)
        let report = try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any] ?? [:]
        #expect((report["errors"] as? [Any])?.isEmpty == true, "\(imported)", sourceLocation: sourceLocation)
        let draft = String(decoding: workspace.contents(of: "draft.yml") ?? Data(), as: UTF8.self)
        return (draft, report)
    }

    @Test func aDraftOfGitHubIssuesValidatesAndImportsThemWithNoRecordError() throws {
        let workspace = try workspace(with: "github-issues.json")
        let (draft, report) = try inferValidateImport("Issue", ["github-issues.json"], in: workspace)
        #expect(report["records"] as? Int == 4)
        for line in [
            "# Draft mapping for Issue, inferred from github-issues.json: 4 records.",
            "defaults:\n  keyStyle: snake_case\nentities:\n  Issue:  # 4 records\n    primaryKey: id\n    attributes:\n      url: url\n",
            "      closedAt: date               # null in 3 of 4\n",
            "      activeLockReason: json       # only null in the samples\n",
            "      labelsUrl: url\n",
            "      user: { to: User, kind: one }\n",
            "      labels: { to: Label, kind: many }\n",
            "      assignees: { to: User, kind: many }\n",
            "      closedBy: { to: User, kind: one }            # optional: in 1 of 4\n",
            "      pullRequest: { to: PullRequest, kind: one }  # optional: in 2 of 4\n",
            "  User:  # 12 objects in Issue.user, Issue.assignee, Issue.assignees and 2 more\n    primaryKey: id\n",
            "      creator: { to: User, kind: one }\n",
            "  Reactions:  # 4 objects in Issue.reactions; owned: no id\n",
            "      plus1: { key: \"+1\", type: int }\n",
            "      mergedAt: date  # null in 1 of 2\n",
        ] {
            #expect(draft.contains(line), "\(line)\n\(draft)")
        }
        let users = try workspace.run(["--mappings", "draft.yml", "--store", "draft.sqlite", "query", "User", "--fields", "login,type", "--format", "jsonl"])
        #expect(users.stdout == """
            {"login":"octocat","type":"User"}
            {"login":"hubot","type":"User"}
            {"login":"monalisa","type":"User"}
            {"login":"dependabot[bot]","type":"Bot"}

            """, "\(users)")
    }

    @Test func aSearchPageGivesTheEntityItsRootSoTheDraftImportsItWithoutOne() throws {
        let workspace = try workspace(with: "github-search-repositories.json")
        let (draft, report) = try inferValidateImport("Repo", ["github-search-repositories.json"], in: workspace)
        #expect(report["records"] as? Int == 3)
        for line in [
            "    root: items  # found in the samples, beside total_count, incomplete_results\n",
            "      homepage: { type: url, nullIf: \"\" }  # \"\" read as null\n",
            "      topics: \"[string]\"\n",
            "      score: double\n",
            "      owner: { to: Owner, kind: one }\n",
            "      license: { to: License, kind: one }  # null in 1 of 3\n",
            "  License:  # 2 objects in Repo.license\n    primaryKey: key\n",
        ] {
            #expect(draft.contains(line), "\(line)\n\(draft)")
        }
    }

    @Test func aJSONAPIDocumentHasItsRecordsUnderData() throws {
        let workspace = try workspace(with: "jsonapi-articles.json")
        let (draft, report) = try inferValidateImport("Article", ["jsonapi-articles.json"], in: workspace)
        #expect(report["records"] as? Int == 2)
        #expect(draft.contains("    root: data  # found in the samples, beside links, included, meta\n"), "\(draft)")
        #expect(draft.contains("      id: string\n"), "\(draft)")
        #expect(draft.contains("  Attributes:  # 2 objects in Article.attributes; owned: no id\n    attributes:\n      title: string\n      created: date\n      wordCount: int\n"), "\(draft)")
    }

    @Test func aFeedOnStandardInputAsJSONLines() throws {
        let workspace = try Workspace()
        let feed = try String(contentsOf: Self.fixtures.appendingPathComponent("feed.jsonl"), encoding: .utf8)
        let result = try workspace.run(["infer", "FeedItem", "-", "--format", "jsonl"], stdin: feed)
        #expect(result.exitCode == 0 && result.stderr == "", "\(result)")
        for line in [
            "# Draft mapping for FeedItem, inferred from standard input: 3 records.\n",
            "    primaryKey: id\n    attributes:\n      id: uuid\n      kind: string\n",
            "      publishedAt: { type: date, format: epoch }  # epoch seconds\n",
            "      price: { type: decimal, nullIf: \"\" }        # \"\" read as null\n",
            "      replyTo: uuid                               # optional: in 1 of 3\n",
            "      size: \"[int]\"                               # optional: in 1 of 3\n",
        ] {
            #expect(result.stdout.contains(line), "\(line)\n\(result.stdout)")
        }
        try workspace.write(result.stdout, to: "feed.yml")
        try workspace.write(feed, to: "feed.jsonl")
        let imported = try workspace.run(["--mappings", "feed.yml", "--store", "feed.sqlite", "import", "FeedItem", "feed.jsonl"])
        #expect(imported.exitCode == 0, "\(imported)")
    }

    @Test(arguments: [
        ("User", ["github/users.json", "github/users-update.json", "github/users.jsonl"]),
        ("Author", ["blog/authors.json"]),
        ("Article", ["blog/articles.json"]),
    ])
    func theExamplePayloadsGiveDraftsThatValidateAndImportThem(entity: String, files: [String]) throws {
        let workspace = try Workspace()
        for file in files {
            try workspace.write(String(contentsOf: Self.examples.appendingPathComponent(file), encoding: .utf8), to: file)
        }
        let (draft, _) = try inferValidateImport(entity, files, in: workspace)
        #expect(draft.contains("  \(entity):  # "), "\(draft)")
    }

    /// The API responses of `Fixtures/APIs` (see its PROVENANCE.md), mapped by hand there with
    /// unions and documents, drafted here without them.
    @Test(arguments: [
        ("Issue", "github/issues.json"), ("Commit", "github/commits.json"), ("Repo", "github/repos.json"),
        ("Article", "jsonapi/articles.json"), ("FeedItem", "feed/timeline.json"),
    ])
    func theRecordedAPIResponsesGiveDraftsThatValidateAndImportThem(entity: String, file: String) throws {
        let workspace = try Workspace()
        let name = file.replacingOccurrences(of: "/", with: "-")
        let recorded = Self.fixtures.deletingLastPathComponent().appendingPathComponent("APIs/" + file)
        try workspace.write(String(contentsOf: recorded, encoding: .utf8), to: name)
        let (draft, report) = try inferValidateImport(entity, [name], in: workspace)
        #expect((report["records"] as? Int ?? 0) > 0)
        #expect(!draft.contains("oneOf") && !draft.contains("documents:"))
    }

    @Test func outReplacesTheFileAndReportsItUnlessQuiet() throws {
        let workspace = try workspace(with: "github-search-repositories.json")
        try workspace.write("old", to: "draft.yml")
        let printed = try workspace.run(["infer", "Repo", "github-search-repositories.json"])
        let written = try workspace.run(["infer", "Repo", "github-search-repositories.json", "--out", "draft.yml"])
        #expect(written == CLIResult(exitCode: 0, stdout: "wrote a draft mapping of 3 entities from 3 records to draft.yml\n", stderr: ""))
        #expect(workspace.contents(of: "draft.yml") == Data(printed.stdout.utf8))
        let quiet = try workspace.run(["--quiet", "infer", "Repo", "github-search-repositories.json", "--out", "draft.yml"])
        #expect(quiet == CLIResult(exitCode: 0, stdout: "", stderr: ""))
        let unwritable = try workspace.run(["infer", "Repo", "github-search-repositories.json", "--out", "no/such/dir/draft.yml"])
        #expect(unwritable.exitCode == 1 && unwritable.stderr.hasPrefix("error: cannot write to 'no/such/dir/draft.yml': "), "\(unwritable)")
    }

    @Test func neitherTheMappingsNorTheStoreAreRead() throws {
        let workspace = try workspace(with: "github-issues.json")
        let result = try workspace.run(["--mappings", "no/mappings", "--store", "no/dir/store.sqlite", "infer", "Issue", "github-issues.json"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try !workspace.hasStore("no/dir/store.sqlite") && !workspace.hasStore())
    }

    @Test func badSamplesAreErrorsNamingWhereTheyAre() throws {
        let workspace = try Workspace()
        try workspace.write("[{\"id\": 1},\n {\"id\": 2,}]", to: "bad.json")
        try workspace.write("[]", to: "empty.json")
        try workspace.write("", to: "blank.json")
        try workspace.write("[{\"id\": 1}, \"two\"]", to: "scalars.json")
        try workspace.write("{\"items\": [{\"id\": 1}]}", to: "page.json")
        try workspace.write("[{\"id\": 2}]", to: "list.json")
        try workspace.write("{\"id\": 1}\n\n[1]\n", to: "lines.jsonl")
        let cases: [([String], Int32, String)] = [
            (["missing.json"], 1, "error: cannot read 'missing.json': No such file or directory\n"),
            (["bad.json"], 1, "error: bad.json:2:11: invalid JSON (byte 22): unexpected character or missing ',' ':' ']' or '}'\n"),
            (["blank.json"], 1, "error: blank.json:1:1: invalid JSON (byte 0): no JSON value (empty input)\n"),
            (["empty.json"], 1, "error: no records to infer a mapping from in 'empty.json'\n"),
            (["scalars.json"], 1, "error: scalars.json: record 1 at $[1]: expected an object, found string \"two\"\n"),
            (["lines.jsonl"], 1, "error: lines.jsonl:3: record 1 at $: expected an object, found array\n"),
            (["page.json", "list.json"], 1,
             "error: the samples hold their records in different places: 'page.json' under 'items', 'list.json' at the top; infer them separately\n"),
        ]
        for (files, code, stderr) in cases {
            let result = try workspace.run(["infer", "Item"] + files)
            #expect(result == CLIResult(exitCode: code, stdout: "", stderr: stderr))
        }
    }

    @Test func usageErrorsPointAtTheHelp() throws {
        let workspace = try workspace(with: "feed.jsonl")
        let name = try workspace.run(["infer", "9Lives", "feed.jsonl"])
        #expect(name == CLIResult(exitCode: 2, stdout: "", stderr: """
            error: invalid entity name '9Lives': names must match [A-Za-z_][A-Za-z0-9_]* and not begin with '_'
            See 'jsonimport infer --help'.

            """))
        let root = try workspace.run(["infer", "Item", "feed.jsonl", "--root", "items"])
        #expect(root.exitCode == 2 && root.stderr.hasPrefix("error: a root key path does not apply to JSON Lines\n"), "\(root)")
        let noFile = try workspace.run(["infer", "Item"])
        #expect(noFile.exitCode == 2, "\(noFile)")
    }

    @Test func importingAWrappedPayloadWithoutItsRootSaysWhereTheRecordsAre() throws {
        let workspace = try workspace(with: "github-search-repositories.json")
        try workspace.write(#"{"total_count": 1, "items": [{"id": 1, "login": "octocat"}]}"#, to: "users.json")
        let result = try workspace.run(["import", "User", "users.json"])
        #expect(result == CLIResult(exitCode: 1, stdout: "", stderr: """
            error: users.json: record 0 at $.id: missing primary key 'id' (key 'id'); the payload wraps a list of records under 'items': import it with --root items, or give User 'root: items'

            """))
        let fixed = try workspace.run(["import", "User", "users.json", "--root", "items"])
        #expect(fixed.exitCode == 0, "\(fixed)")
    }
}
