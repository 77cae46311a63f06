import Foundation
import Synchronization
import Testing

/// Several processes share one store (SPEC 5): writers wait for each other within the busy
/// timeout and none fails, nothing is lost, and a reader only ever sees committed states.
/// (`Scripts/reliability/concurrency_test.py` runs the same with large payloads.)
@Suite struct ConcurrentWritersTests {
    /// Users `first ..< first + 20`. A user's record is the same in every file that holds it,
    /// with one repo (tagged t0, t1 or t2) and one follower that no file holds (a stub), so a
    /// store holding `n` users of the files has exactly ``stats(users:)``.
    private static func payload(first: Int) -> String {
        let users = (first..<first + 20).map { id in
            #"{"id": \#(id), "login": "u\#(id)", "repos": [{"id": \#(id * 10), "name": "r\#(id)", "tags": [{"name": "t\#(id % 3)"}]}], "follower_ids": [\#(id + 1000)]}"#
        }
        return "[" + users.joined(separator: ",\n") + "]"
    }

    /// `stats --format json` of a store holding `n` users of the files.
    private static func stats(users n: Int) -> String {
        let tags = min(n, 3)
        return #"{"entities":{"User":\#(2 * n),"Address":0,"Repo":\#(n),"Tag":\#(tags)},"#
            + #""stubs":{"User":\#(n),"Address":0,"Repo":0,"Tag":0},"#
            + #""links":{"User.address":0,"User.repos":\#(n),"User.followers":\#(n),"Repo.tags":\#(n)}}"#
    }

    @Test func fourWritersAndAReaderShareOneStore() throws {
        let workspace = try Workspace()
        // Users 1-20, 11-30, 21-40 and 31-50: each file shares half its users with the next.
        let files = (0..<4).map { "part\($0).json" }
        for (k, file) in files.enumerated() { try workspace.write(Self.payload(first: 1 + 10 * k), to: file) }
        // Any set of the imports holds 20, 30, 40 or 50 distinct users; none yet, 0.
        let committed = Set([0, 20, 30, 40, 50].map(Self.stats(users:)))
        let directory = workspace.directory.url
        let store = workspace.path("jsonimport.sqlite")

        let writersDone = Atomic<Int>(0)
        let results = Mutex<[CLIResult]>([])
        let observed = Mutex<[CLIResult]>([])
        let group = DispatchGroup()
        for file in files {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for _ in 0..<3 {
                    let result = (try? CLI.run(["import", "User", file, "--quiet"], in: directory))
                        ?? CLIResult(exitCode: -1, stdout: "", stderr: "could not run")
                    results.withLock { $0.append(result) }
                }
                writersDone.add(1, ordering: .sequentiallyConsistent)
            }
        }
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            while writersDone.load(ordering: .sequentiallyConsistent) < files.count {
                guard (try? TestStore.exists(store)) == true,
                    let result = try? CLI.run(["stats", "--format", "json"], in: directory)
                else { continue }
                observed.withLock { $0.append(result) }
            }
        }
        group.wait()

        for result in results.withLock({ $0 }) {
            #expect(result == CLIResult(exitCode: 0, stdout: "", stderr: ""))
        }
        let final = try workspace.run(["stats", "--format", "json"])
        #expect(final == CLIResult(exitCode: 0, stdout: Self.stats(users: 50) + "\n", stderr: ""))
        let reads = observed.withLock { $0 }
        for read in reads where !read.stderr.contains("does not exist") {
            #expect(read.exitCode == 0, "\(read)")
            #expect(committed.contains(read.stdout.trimmingCharacters(in: .newlines)), "a state no set of imports commits: \(read)")
        }
        #expect(!reads.isEmpty)
    }
}
