import Foundation
import Testing

/// Decimals through the command line: `--where`, `--order` and re-imports go by numeric value,
/// while output shows the stored text.
@Suite struct DecimalCommandTests {
    private let catalogue = [
        "catalogue.yml": """
            entities:
              Product:
                primaryKey: id
                attributes:
                  id: int
                  price: decimal

            """
    ]

    private func workspace() throws -> Workspace {
        let workspace = try Workspace(mappings: catalogue)
        try workspace.importing(#"[{"id": 1, "price": 9.99}, {"id": 2, "price": "10.50"}, {"id": 3, "price": 100}]"#, as: "Product")
        return workspace
    }

    private func ids(_ workspace: Workspace, _ args: [String]) throws -> String {
        let result = try workspace.run(["query", "Product", "--fields", "id", "--format", "jsonl"] + args)
        guard result.exitCode == 0 else { return "\(result)" }
        return result.stdout.split(separator: "\n").joined(separator: ",")
    }

    @Test func whereAndOrderCompareDecimalsAsNumbers() throws {
        let workspace = try workspace()
        #expect(try ids(workspace, ["--where", "price > 9"]) == #"{"id":1},{"id":2},{"id":3}"#)
        #expect(try ids(workspace, ["--where", "price >= 10"]) == #"{"id":2},{"id":3}"#)
        #expect(try ids(workspace, ["--where", "price = 10.5"]) == #"{"id":2}"#)
        #expect(try ids(workspace, ["--order", "price:desc"]) == #"{"id":3},{"id":2},{"id":1}"#)
        let export = try workspace.run(["export", "Product", "--where", "price < 10.500", "--format", "jsonl"])
        #expect(export == CLIResult(exitCode: 0, stdout: "{\"id\":1,\"price\":9.99}\n", stderr: ""))
    }

    @Test func reimportingEqualValuesIsUnchangedAndKeepsTheStoredText() throws {
        let workspace = try workspace()
        try workspace.write(#"[{"id": 2, "price": 10.5}, {"id": 3, "price": 1e2}]"#, to: "again.json")
        let result = try workspace.run(["import", "Product", "again.json", "--report", "json"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains(#""Product":{"inserted":0,"updated":0,"unchanged":2,"deleted":0}"#), "\(result)")
        let query = try workspace.run(["query", "Product", "--id", "2", "--id", "3", "--format", "jsonl"])
        #expect(query.stdout == "{\"id\":2,\"price\":\"10.50\"}\n{\"id\":3,\"price\":\"100\"}\n")
    }
}
