import Foundation
import Testing

@testable import jsonimport

/// `import` and `fetch` start again in place with glibc's allocator asking for huge pages and
/// keeping the memory it frees, where the kernel gives huge pages on request and the user has
/// not chosen otherwise.
@Suite struct HugePagesTests {
    static let madvise = "always [madvise] never\n"

    static let kept = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824"

    @Test func theTunablesAreAddedToWhatTheUserSet() {
        #expect(HugePages.tunables(current: nil, policy: Self.madvise, glibc: "2.36") == "glibc.malloc.hugetlb=1:" + Self.kept)
        #expect(HugePages.tunables(current: "", policy: Self.madvise, glibc: "2.35") == "glibc.malloc.hugetlb=1:" + Self.kept)
        #expect(
            HugePages.tunables(current: "glibc.malloc.arena_max=2", policy: Self.madvise, glibc: "2.40")
                == "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1:" + Self.kept)
    }

    /// A threshold the user set stays theirs; the other one is still added.
    @Test func aThresholdTheUserSetStays() {
        #expect(
            HugePages.tunables(current: "glibc.malloc.trim_threshold=0", policy: Self.madvise, glibc: "2.36")
                == "glibc.malloc.trim_threshold=0:glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432")
        #expect(
            HugePages.tunables(
                current: "glibc.malloc.mmap_threshold=1:glibc.malloc.trim_threshold=2", policy: Self.madvise, glibc: "2.36")
                == "glibc.malloc.mmap_threshold=1:glibc.malloc.trim_threshold=2:glibc.malloc.hugetlb=1")
    }

    @Test func nothingChangesWhereHugePagesComeAnywayOrNeverOrTheUserChose() {
        #expect(HugePages.tunables(current: nil, policy: "[always] madvise never", glibc: "2.36") == nil)
        #expect(HugePages.tunables(current: nil, policy: "always madvise [never]", glibc: "2.36") == nil)
        #expect(HugePages.tunables(current: nil, policy: nil, glibc: "2.36") == nil)
        #expect(HugePages.tunables(current: nil, policy: Self.madvise, glibc: "2.34") == nil, "glibc too old")
        #expect(HugePages.tunables(current: nil, policy: Self.madvise, glibc: nil) == nil)
        #expect(HugePages.tunables(current: "glibc.malloc.hugetlb=0", policy: Self.madvise, glibc: "2.36") == nil)
    }

    /// The import that runs is the process the shell started (same id, same standard input),
    /// with the tunable in its environment when this machine calls for it.
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/environ"), "reads the import's environment from /proc"),
        arguments: [nil, "glibc.malloc.hugetlb=0"])
    func anImportStartsAgainInPlace(userTunables: String?) throws {
        let directory = try TemporaryDirectory()
        let mappings = try MappingFixtures.write(MappingFixtures.valid, into: directory, folder: "Mappings")
        let process = Process()
        process.executableURL = try CLI.binary()
        // A store of its own: what is checked is the process, whichever store a run tests.
        process.arguments = ["import", "User", "-", "--mappings", mappings, "--store", directory.path + "/store.sqlite"]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("JSONIMPORT_") && $0.key != "GLIBC_TUNABLES" }
        environment["GLIBC_TUNABLES"] = userTunables
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try Subprocess.launch(process)

        // The import waits for its input: by then it has started again, if it was to. Read
        // once the child runs the tool (its name), not the test's copy of itself before that.
        let proc = "/proc/\(process.processIdentifier)/"
        let name = process.executableURL!.lastPathComponent + "\n"
        let expected = HugePages.tunables(
            current: userTunables,
            policy: try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8),
            glibc: HugePages.glibcVersion()) ?? userTunables
        var seen: (name: String?, tunables: String?) = (nil, nil)
        for _ in 0..<200 {
            seen.name = try? String(contentsOfFile: proc + "comm", encoding: .utf8)
            let variables = (try? Data(contentsOf: URL(fileURLWithPath: proc + "environ"))).map {
                $0.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            } ?? []
            // glibc's loader, reading the tunables, cuts the variable's text where it lies at
            // each `:`: the tunables after the first follow it as entries of their own.
            seen.tunables = variables.firstIndex { $0.hasPrefix("GLIBC_TUNABLES=") }.map { first in
                ([String(variables[first].dropFirst("GLIBC_TUNABLES=".count))]
                    + variables[(first + 1)...].prefix { $0.hasPrefix("glibc.") }).joined(separator: ":")
            }
            if seen.name == name, seen.tunables == expected { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(seen.name == name, "the name ps shows")
        #expect(seen.tunables == expected)

        try? input.fileHandleForWriting.write(contentsOf: Data(#"[{"id": 1, "login": "octocat"}]"#.utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("User: 1 inserted"), "\(text)")
    }
}
