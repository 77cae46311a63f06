import Foundation
import Testing

/// `jsonimport query`: rows as SPEC 4.2 shapes them, and the options and filters of 4.1 and 4.3.
@Suite struct QueryCommandTests {
    /// A store holding ``Payloads/users``.
    private func usersWorkspace() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.importing(Payloads.users, as: "User", file: "users.json")
        return workspace
    }

    /// The values of `field` of the rows `query ENTITY ARGS` prints, one per line.
    private func values(_ workspace: Workspace, _ entity: String, _ args: [String], field: String = "id") throws -> String {
        let result = try workspace.run(["query", entity, "--fields", field, "--format", "jsonl"] + args)
        guard result.exitCode == 0 else { return "\(result)" }
        return result.stdout.split(separator: "\n").map { line in
            String(line.dropFirst("{\"\(field)\":".count).dropLast())
        }.joined(separator: ",")
    }

    // MARK: Output formats

    @Test func jsonPrintsEveryAttributeAndRelationshipsAsKeysInKeyOrder() throws {
        let workspace = try usersWorkspace()
        let expected = """
            [
            {"id":1,"login":"ana","name":"Ana","email":"ana@x.io","createdAt":"2024-01-02T02:04:05.5Z","isAdmin":true,"score":4.5,"bio":null,"topics":["swift","db"],"meta":{"plan":"pro","seats":1.50},"address":{"street":"Main St 1","city":"Oslo","zip":null},"repos":[10],"followers":[2,3]},
            {"id":2,"login":"bo","name":null,"email":null,"createdAt":"2023-06-01T00:00:00Z","isAdmin":false,"score":null,"bio":null,"topics":null,"meta":null,"address":null,"repos":[11,12],"followers":[]},
            {"id":3,"login":null,"name":null,"email":null,"createdAt":null,"isAdmin":false,"score":null,"bio":null,"topics":null,"meta":null,"address":null,"repos":[],"followers":[]}
            ]

            """
        #expect(try workspace.run(["query", "User", "--format", "json"]) == CLIResult(exitCode: 0, stdout: expected, stderr: ""))
    }

    @Test func jsonIsTheDefaultWhenStdoutIsNoTerminal() throws {
        let workspace = try usersWorkspace()
        #expect(try workspace.run(["query", "Repo"]) == workspace.run(["query", "Repo", "--format", "json"]))
    }

    @Test func backSideOneAppearsAsTheTargetsKeyAndManyLinksInLinkOrder() throws {
        let workspace = try usersWorkspace()
        let expected = """
            {"id":10,"name":"kit","stars":5,"language":"Swift","owner":1,"tags":["swift","cli"]}
            {"id":11,"name":"db","stars":0,"language":null,"owner":2,"tags":["swift"]}
            {"id":12,"name":"web","stars":2,"language":null,"owner":2,"tags":[]}

            """
        #expect(try workspace.run(["query", "Repo", "--format", "jsonl"]) == CLIResult(exitCode: 0, stdout: expected, stderr: ""))
    }

    @Test func everyTypeAppearsInItsJSONForm() throws {
        let mapping = """
            entities:
              Product:
                primaryKey: sku
                attributes:
                  sku: string
                  price: decimal
                  ref: uuid
                  page: url
                  launched: { type: date, format: epoch }
                  restocks: "[date]"
                  counts: "[int]"
                  onSale: bool
                  weight: double
                  extra: json
            """
        let workspace = try Workspace(mappings: ["products.yml": mapping])
        try workspace.importing(#"""
            [{"sku": "A1", "price": 19.90, "ref": "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", "page": "https://x.io/a",
              "launched": 1704164645, "restocks": ["2024-01-02T03:04:05.250Z", "2024-02-01T00:00:00+02:00"],
              "counts": [1, "2"], "onSale": "1", "weight": 2, "extra": {"a": [1, 2.50], "b": null}},
             {"sku": "B2", "extra": "text"}]
            """#, as: "Product")
        let expected = """
            {"sku":"A1","price":"19.90","ref":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","page":"https://x.io/a","launched":"2024-01-02T03:04:05Z","restocks":["2024-01-02T03:04:05.25Z","2024-01-31T22:00:00Z"],"counts":[1,2],"onSale":true,"weight":2.0,"extra":{"a":[1,2.50],"b":null}}
            {"sku":"B2","price":null,"ref":null,"page":null,"launched":null,"restocks":null,"counts":null,"onSale":null,"weight":null,"extra":"text"}

            """
        #expect(try workspace.run(["query", "Product", "--format", "jsonl"]) == CLIResult(exitCode: 0, stdout: expected, stderr: ""))
    }

    @Test func tableShowsOneRowPerRecordUnderAHeader() throws {
        let workspace = try usersWorkspace()
        let expected = """
            id  name  owner  tags
            10  kit   1      ["swift","cli"]
            11  db    2      ["swift"]
            12  web   2      []

            """
        #expect(try workspace.run(["query", "Repo", "--format", "table", "--fields", "id,name,owner,tags"])
            == CLIResult(exitCode: 0, stdout: expected, stderr: ""))
    }

    @Test func noRowsPrintAnEmptyArrayNothingOrANote() throws {
        let workspace = try usersWorkspace()
        let none = ["--where", "id > 100"]
        #expect(try workspace.run(["query", "User", "--format", "json"] + none) == CLIResult(exitCode: 0, stdout: "[]\n", stderr: ""))
        #expect(try workspace.run(["query", "User", "--format", "jsonl"] + none) == CLIResult(exitCode: 0, stdout: "", stderr: ""))
        #expect(try workspace.run(["query", "User", "--format", "table"] + none) == CLIResult(exitCode: 0, stdout: "(no rows)\n", stderr: ""))
    }

    // MARK: --id, --order, --limit, --offset, --fields, --meta

    @Test func idSelectsRowsByPrimaryKey() throws {
        let workspace = try usersWorkspace()
        #expect(try values(workspace, "User", ["--id", "3", "--id", "1"]) == "1,3")
        #expect(try values(workspace, "Tag", ["--id", "CLI"], field: "name") == #""cli""#)
        let bad = try workspace.run(["query", "User", "--id", "abc"])
        #expect(bad == CLIResult(exitCode: 2, stdout: "", stderr: "error: 'abc' is not a valid int for User.id\nSee 'jsonimport query --help'.\n"))
    }

    @Test func compositeIdIsItsValuesJoinedByCommasInKeyOrder() throws {
        let workspace = try Workspace(mappings: ["members.yml": MappingFixtures.single])
        try workspace.importing(#"[{"team": "red", "user": 1, "role": "lead"}, {"team": "red", "user": 2}, {"team": "blue", "user": 1}]"#, as: "Membership")
        let result = try workspace.run(["query", "Membership", "--id", "red,2", "--id", "blue,1", "--format", "jsonl"])
        #expect(result == CLIResult(exitCode: 0, stdout: "{\"team\":\"blue\",\"user\":1,\"role\":null}\n{\"team\":\"red\",\"user\":2,\"role\":null}\n", stderr: ""))
        let short = try workspace.run(["query", "Membership", "--id", "red"])
        #expect(short.exitCode == 2, "\(short)")
        #expect(short.stderr.hasPrefix("error: the key of Membership has 2 values (team,user); got 'red'\n"), "\(short)")
        let wrong = try workspace.run(["query", "Membership", "--id", "red,x"])
        #expect(wrong == CLIResult(exitCode: 2, stdout: "", stderr: "error: 'x' is not a valid int for Membership.user\nSee 'jsonimport query --help'.\n"))
    }

    @Test func orderSortsByAttributesAscendingUnlessDesc() throws {
        let workspace = try usersWorkspace()
        #expect(try values(workspace, "User", []) == "1,2,3")
        #expect(try values(workspace, "User", ["--order", "login:desc"]) == "2,1,3")
        #expect(try values(workspace, "User", ["--order", "isAdmin", "--order", "id:desc"]) == "3,2,1")
        #expect(try values(workspace, "Repo", ["--order", "stars:desc"]) == "10,12,11")
        let bad = try workspace.run(["query", "User", "--order", "logn"])
        #expect(bad == CLIResult(exitCode: 2, stdout: "", stderr: "error: cannot order by 'logn': User has no such attribute (did you mean 'login'?)\nSee 'jsonimport query --help'.\n"))
    }

    @Test func limitAndOffsetPageTheOrderedRows() throws {
        let workspace = try usersWorkspace()
        #expect(try values(workspace, "User", ["--limit", "2"]) == "1,2")
        #expect(try values(workspace, "User", ["--limit", "1", "--offset", "1"]) == "2")
        #expect(try values(workspace, "User", ["--offset", "2"]) == "3")
        #expect(try values(workspace, "User", ["--order", "id:desc", "--limit", "2"]) == "3,2")
        #expect(try workspace.run(["query", "User", "--limit", "-1"]).exitCode == 2)
    }

    @Test func fieldsRestrictAndOrderTheKeys() throws {
        let workspace = try usersWorkspace()
        let result = try workspace.run(["query", "User", "--id", "1", "--fields", "repos,login,address,id", "--format", "jsonl"])
        #expect(result.stdout == #"{"repos":[10],"login":"ana","address":{"street":"Main St 1","city":"Oslo","zip":null},"id":1}"# + "\n")
        let bad = try workspace.run(["query", "User", "--fields", "id,nme"])
        #expect(bad == CLIResult(exitCode: 2, stdout: "", stderr: "error: User has no field 'nme' (did you mean 'name'?)\nSee 'jsonimport query --help'.\n"))
    }

    @Test func metaAddsBookkeepingAfterTheOtherKeys() throws {
        let workspace = try usersWorkspace()
        let result = try workspace.run(["query", "User", "--meta", "--fields", "login,id", "--format", "jsonl"])
        let instant = #""\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z""#
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        for (line, (login, stub)) in zip(lines, [(#""ana""#, "false"), (#""bo""#, "false"), ("null", "true")]) {
            let pattern = try Regex(#"\{"login":"# + login + #","id":\d,"_createdAt":"# + instant + #","_updatedAt":"# + instant
                + #","_seenAt":"# + instant + #","_stub":"# + stub + #"\}"#)
            #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
        }
        let plain = try workspace.run(["query", "User", "--id", "1", "--fields", "id", "--format", "jsonl"])
        #expect(plain.stdout == "{\"id\":1}\n")
    }

    // MARK: --where

    @Test func wherePathsFollowRelationships() throws {
        let workspace = try usersWorkspace()
        #expect(try values(workspace, "User", ["--where", "address.city = 'Oslo'"]) == "1")
        #expect(try values(workspace, "User", ["--where", "repos.tags.name = 'cli'"]) == "1")
        #expect(try values(workspace, "User", ["--where", "repos.stars >= 2"]) == "1,2")
        #expect(try values(workspace, "User", ["--where", "followers.id = 3"]) == "1")
        #expect(try values(workspace, "Repo", ["--where", "owner.login = 'bo'"]) == "11,12")
    }

    @Test func equalityIsNullSafeAndOrderingNeverHoldsForNull() throws {
        let workspace = try usersWorkspace()
        #expect(try values(workspace, "User", ["--where", "name = null"]) == "2,3")
        #expect(try values(workspace, "User", ["--where", "name != 'Ana'"]) == "2,3")
        #expect(try values(workspace, "User", ["--where", "name IS NOT NULL"]) == "1")
        #expect(try values(workspace, "User", ["--where", "score < 5"]) == "1")
        #expect(try values(workspace, "User", ["--where", "NOT score < 5"]) == "2,3")
        #expect(try values(workspace, "User", ["--where", "NOT login LIKE 'a%'"]) == "2,3")
    }

    @Test func inLikeAndBooleanLogic() throws {
        let workspace = try usersWorkspace()
        #expect(try values(workspace, "User", ["--where", "id IN (1, 3)"]) == "1,3")
        #expect(try values(workspace, "User", ["--where", "login LIKE 'A%'"]) == "1")
        #expect(try values(workspace, "User", ["--where", "login like 'b_'"]) == "2")
        #expect(try values(workspace, "User", ["--where", "NOT (isAdmin = true) AND (login = 'bo' OR login IS NULL)"]) == "2,3")
        #expect(try values(workspace, "User", ["--where", "isAdmin = TRUE or id = 2"]) == "1,2")
        #expect(try values(workspace, "Repo", ["--where", "name = 'O''Brien' OR name = \"kit\""]) == "10")
    }

    @Test func datesCompareAsInstantsWithISO8601Literals() throws {
        let workspace = try usersWorkspace()
        #expect(try values(workspace, "User", ["--where", "createdAt > '2024-01-01'"]) == "1")
        #expect(try values(workspace, "User", ["--where", "createdAt = '2024-01-02T03:04:05.5+01:00'"]) == "1")
        #expect(try values(workspace, "User", ["--where", "createdAt <= '2023-06-01'"]) == "2")
        #expect(try values(workspace, "User", ["--where", "createdAt < '2023-06-01T00:00:00.001Z'"]) == "2")
    }

    @Test func unknownNamesInAFilterAreUsageErrorsWithASuggestion() throws {
        let workspace = try usersWorkspace()
        let top = try workspace.run(["query", "User", "--where", "logn = 'x'"])
        #expect(top == CLIResult(exitCode: 2, stdout: "", stderr: "error: invalid filter: User has no field 'logn' (did you mean 'login'?)\nSee 'jsonimport query --help'.\n"))
        let nested = try workspace.run(["query", "User", "--where", "address.cty = 'Oslo'"])
        #expect(nested == CLIResult(exitCode: 2, stdout: "", stderr: "error: invalid filter: Address has no field 'cty' (did you mean 'city'?)\nSee 'jsonimport query --help'.\n"))
        let malformed = try workspace.run(["query", "User", "--where", "login = "])
        #expect(malformed.exitCode == 2)
        #expect(malformed.stderr.hasPrefix("error: invalid filter at column"), "\(malformed)")
    }

    @Test func unknownEntityIsAUsageError() throws {
        let workspace = try usersWorkspace()
        let result = try workspace.run(["query", "Usr"])
        #expect(result == CLIResult(exitCode: 2, stdout: "", stderr: "error: unknown entity 'Usr' (did you mean 'User'?)\nSee 'jsonimport query --help'.\n"))
    }

    // MARK: The store

    @Test func missingStoreIsAStoreErrorAndIsNotCreated() throws {
        let workspace = try Workspace()
        let result = try workspace.run(["query", "User"])
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: store '") && result.stderr.hasSuffix("jsonimport.sqlite' does not exist\n"), "\(result)")
        #expect(try !workspace.hasStore())
    }

    @Test(.sqliteStore("a text file, and a database the sqlite3 shell made, at the store's path"))
    func aFileThatIsNoStoreIsAStoreError() throws {
        let workspace = try Workspace()
        try workspace.write("just some text, not SQLite\n", to: "notes.sqlite")
        let text = try workspace.run(["--store", "notes.sqlite", "query", "User"])
        #expect(text.exitCode == 3, "\(text)")
        #expect(text.stderr.hasPrefix("error: "), "\(text)")
        #expect(workspace.contents(of: "notes.sqlite") == Data("just some text, not SQLite\n".utf8))

        let other = workspace.path("other.sqlite")
        let created = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [other, "CREATE TABLE t (x); INSERT INTO t VALUES (1);"],
            environment: ProcessInfo.processInfo.environment, stdin: nil)
        #expect(created.exitCode == 0, "\(created)")
        let database = try workspace.run(["--store", "other.sqlite", "query", "User"])
        #expect(database == CLIResult(exitCode: 3, stdout: "", stderr: "error: 'other.sqlite' is a database but not a JSONImport store\n"))
    }

    @Test func storeComesFromTheEnvironmentUnlessGiven() throws {
        let workspace = try Workspace()
        let env = ["JSONIMPORT_STORE": workspace.path("cache.sqlite")]
        try workspace.write(Payloads.users, to: "users.json")
        #expect(try workspace.run(["--quiet", "import", "User", "users.json"], env: env) == CLIResult(exitCode: 0, stdout: "", stderr: ""))
        let args = ["query", "Repo", "--fields", "id", "--format", "jsonl", "--where", "id = 10"]
        #expect(try workspace.run(args, env: env) == CLIResult(exitCode: 0, stdout: "{\"id\":10}\n", stderr: ""))
        #expect(try workspace.run(args).exitCode == 3)
        #expect(try workspace.run(args + ["--store", "none.sqlite"], env: env).exitCode == 3)
    }
}
