import Foundation
import Testing

/// `--report json` prints a report for every failure once the arguments are read: its `errors`
/// hold what stopped the command, `changes` stay empty, and the exit code is the usual one.
@Suite struct FailureReportTests {
    private static let empty = #""changes":{},"orphansRemoved":{},"stubs":{},"skippedLinks":{},"staleRecords":{}"#

    private func report(_ records: Int, _ errors: String, entity: String? = "User") -> String {
        let name = entity.map { "\"\($0)\"" } ?? "null"
        return #"{"entity":\#(name),"records":\#(records),"skipped":0,"dryRun":false,\#(Self.empty),"errors":[\#(errors)]}"# + "\n"
    }

    @Test func twoPagesConcatenatedReportTheSyntaxErrorOutsideAnyRecord() throws {
        let workspace = try Workspace()
        try workspace.write(#"[{"id": 1}][{"id": 2}]"#, to: "pages.json")
        let result = try workspace.run(["import", "User", "pages.json", "--report", "json", "--quiet"])
        let error = #"{"file":"pages.json","record":null,"offset":11,"line":1,"column":12,"path":"$","message":"invalid JSON: unexpected content after the JSON value"}"#
        #expect(result == CLIResult(
            exitCode: 1, stdout: report(1, error),
            stderr: "error: pages.json:1:12: invalid JSON (byte 11): unexpected content after the JSON value\n"))
    }

    @Test func aTruncatedDownloadNamesTheRecordBeingRead() throws {
        let workspace = try Workspace()
        try workspace.write("[{\"id\": 1},\n {\"id\": 2, \"login\": 7", to: "cut.json")
        let result = try workspace.run(["import", "User", "cut.json", "--report", "json"])
        let error = #"{"file":"cut.json","record":1,"offset":33,"line":2,"column":22,"path":"$","message":"invalid JSON: unexpected end of input"}"#
        #expect(result.exitCode == 1)
        #expect(result.stdout == report(1, error))
    }

    @Test func aDownloadCutInsideAStringNamesTheRecordBeingRead() throws {
        let workspace = try Workspace()
        try workspace.write(#"{"data": [{"id": 1}, {"id": 2}, {"id": 3, "login": "cut her"#, to: "page.json")
        let result = try workspace.run(["import", "User", "page.json", "--root", "data", "--report", "json"])
        let error = #"{"file":"page.json","record":2,"offset":51,"line":1,"column":52,"path":"$","message":"invalid JSON: string is never closed"}"#
        #expect(result.exitCode == 1)
        #expect(result.stdout == report(0, error))
    }

    @Test func aJSONLinesSyntaxErrorGivesItsByteOffsetInTheFile() throws {
        let workspace = try Workspace()
        try workspace.write("{\"id\": 1}\n\n{\"id\": 2,}\n", to: "users.jsonl")
        let result = try workspace.run(["import", "User", "users.jsonl", "--report", "json"])
        let error = #"{"file":"users.jsonl","record":1,"offset":20,"line":3,"column":10,"path":"$","message":"invalid JSON: unexpected character or missing ',' ':' ']' or '}'"}"#
        #expect(result == CLIResult(
            exitCode: 1, stdout: report(1, error),
            stderr: "error: users.jsonl:3:10: invalid JSON (byte 20, byte 9 of line 3): unexpected character or missing ',' ':' ']' or '}'\n"))
    }

    @Test func aMissingFileIsReportedWithItsName() throws {
        let workspace = try Workspace()
        try workspace.write(#"{"id": 1}"#, to: "here.json")
        let result = try workspace.run(["import", "User", "here.json", "gone.json", "--report", "json", "--quiet"])
        let error = #"{"file":"gone.json","record":null,"path":"$","message":"cannot read 'gone.json': No such file or directory"}"#
        #expect(result == CLIResult(exitCode: 1, stdout: report(1, error), stderr: "error: cannot read 'gone.json': No such file or directory\n"))
    }

    @Test(.sqliteStore("a store file in a folder that does not exist cannot be made"))
    func aStoreErrorOfImportIsReported() throws {
        let workspace = try Workspace()
        try workspace.write(#"{"id": 1}"#, to: "user.json")
        let store = ["--store", workspace.path("missing-dir/store.sqlite")]
        let imported = try workspace.run(store + ["import", "User", "user.json", "--report", "json"])
        #expect(imported.exitCode == 3)
        #expect(imported.stdout.hasPrefix(#"{"entity":"User","records":0,"skipped":0,"dryRun":false,\#(Self.empty),"errors":[{"file":null,"record":null,"path":"$","message":"cannot open store"#), "\(imported)")
    }

    @Test func storeErrorsOfDeleteAndCleanAreReported() throws {
        let workspace = try Workspace()
        let store = ["--store", workspace.path("missing-dir/store.sqlite")]
        let deleted = try workspace.run(store + ["delete", "User", "--id", "1", "--report", "json", "--quiet"])
        let missing = #"{"file":null,"record":null,"path":"$","message":"store '\#(workspace.path("missing-dir/store.sqlite"))' does not exist"}"#
        #expect(deleted.exitCode == 3)
        #expect(deleted.stdout == report(0, missing))
        let cleaned = try workspace.run(store + ["clean", "--report", "json"])
        #expect(cleaned.exitCode == 3)
        #expect(cleaned.stdout == report(0, missing, entity: nil))
    }

    @Test func aRecordErrorReportIsUnchanged() throws {
        let workspace = try Workspace()
        try workspace.write(#"[{"id": 1}, {"id": "x"}]"#, to: "users.json")
        let result = try workspace.run(["import", "User", "users.json", "--report", "json", "--dry-run"])
        let error = #"{"file":"users.json","record":1,"path":"$[1].id","message":"expected int, found string \"x\""}"#
        #expect(result.exitCode == 1)
        #expect(result.stdout == report(2, error).replacingOccurrences(of: #""dryRun":false"#, with: #""dryRun":true"#))
    }

    @Test func textReportsPrintNothingOnFailure() throws {
        let workspace = try Workspace()
        try workspace.write(#"[{"id": 1}"#, to: "cut.json")
        let result = try workspace.run(["import", "User", "cut.json"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.isEmpty)
    }
}
