import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Transparent huge pages for the memory of an import.
///
/// An import touches hundreds of megabytes once (the row cache's hash tables, the records'
/// values, the payload), in pages of 4 KB: each is a page fault the kernel zeroes, and the
/// cache's tables, probed at random, miss the processor's page-translation cache at most
/// probes. glibc's allocator asks the kernel for 2 MB pages when the tunable
/// `glibc.malloc.hugetlb=1` is set (glibc 2.35 and later), which Linux honours where its
/// policy is `madvise` (`/sys/kernel/mm/transparent_hugepage/enabled`, Debian's default).
/// Tunables are read as a program starts, so `import` and `fetch` run themselves again, in
/// place (`execv` of the program's path keeps the process, its id, name and open files), with
/// the tunable added to `GLIBC_TUNABLES`, before they read anything. Not where the policy is
/// `always` (huge pages come anyway) or `never`, nor when `GLIBC_TUNABLES` names
/// `glibc.malloc.hugetlb` already (the user's choice stands). Re-importing the benchmark's
/// 50,000 users into PostgreSQL took 1.20 s against 1.29 s, its mutated file 1.28 s against
/// 1.45 s (5 runs each, alternating), with a third of the page faults and 1 % more peak memory.
///
/// With huge pages, memory the allocator gives back and takes again costs a new 2 MB page,
/// zeroed by the kernel, each time: blocks past its mapping threshold are mapped for
/// themselves and unmapped when freed (a buffer that doubles does so at every step), and the
/// top of its heap is returned past 128 KB free. So the allocator also keeps what is freed
/// for the next allocations (``keptMemory``). A fresh import of the benchmark's users into
/// PostgreSQL took 1.70 s against 1.77 s (medians of 20 runs each, alternating), 0.16 s in the
/// kernel against 0.36 s; its mutated file 1.80 s against 1.95 s (10 runs); a re-import as long
/// either way, at the same peak memory.
enum HugePages {
    /// The tunable that has glibc's allocator ask for huge pages.
    static let tunable = "glibc.malloc.hugetlb=1"

    /// The tunables, set with ``tunable``, that keep freed memory in the process: blocks up to
    /// 32 MB (the largest threshold glibc takes) come from the allocator's heaps rather than
    /// mappings of their own, and a heap gives memory back only past 1 GB free. Each stays as
    /// the user set it, when they did.
    static let keptMemory = ["glibc.malloc.mmap_threshold=33554432", "glibc.malloc.trim_threshold=1073741824"]

    /// The oldest glibc that knows ``tunable``.
    static let minimumGlibc = (2, 35)

    /// What `GLIBC_TUNABLES` becomes for an import to run on huge pages (its value now, then
    /// ``tunable`` and those of ``keptMemory`` it does not name), given its value now, the
    /// kernel's policy (the text of `/sys/kernel/mm/transparent_hugepage/enabled`, the chosen
    /// one in brackets) and glibc's version; `nil` when the program should not run again.
    static func tunables(current: String?, policy: String?, glibc: String?) -> String? {
        guard let policy, policy.contains("[madvise]") else { return nil }
        let version = (glibc ?? "").split(separator: ".").compactMap { Int($0) }
        guard version.count >= 2, (version[0], version[1]) >= minimumGlibc else { return nil }
        let current = current ?? ""
        guard !current.contains("glibc.malloc.hugetlb") else { return nil }
        let named = current.split(separator: ":").map { $0.prefix { $0 != "=" } }
        let added = keptMemory.filter { !named.contains($0.prefix { $0 != "=" }) }
        return ((current.isEmpty ? [] : [current]) + [tunable] + added).joined(separator: ":")
    }

    /// Runs this program again in place with huge pages, when ``tunables(current:policy:glibc:)``
    /// says so; returns when it does not, or when the program cannot be run again (then it
    /// goes on as it is).
    static func restartIfUseful() {
        #if os(Linux)
        let policy = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)
        let current = getenv("GLIBC_TUNABLES").map { String(cString: $0) }
        guard let tunables = tunables(current: current, policy: policy, glibc: glibcVersion()) else { return }
        // The program's own path rather than /proc/self/exe, whose name the process would
        // take (`ps` and `pgrep` would show "exe").
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return }
        setenv("GLIBC_TUNABLES", tunables, 1)
        execv(path, CommandLine.unsafeArgv)
        // Still here: the program could not be run again. It goes on without huge pages.
        if let current { setenv("GLIBC_TUNABLES", current, 1) } else { unsetenv("GLIBC_TUNABLES") }
        #endif
    }

    /// The running glibc's version ("2.36"), as `confstr` tells it ("glibc 2.36"); `nil`
    /// without glibc.
    static func glibcVersion() -> String? {
        #if canImport(Glibc)
        var buffer = [UInt8](repeating: 0, count: 64)
        let length = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { confstr(Int32(_CS_GNU_LIBC_VERSION), $0.baseAddress, $0.count) }
        }
        guard length > 0, length <= buffer.count else { return nil }
        return String(decoding: buffer.prefix(length - 1), as: UTF8.self).split(separator: " ").last.map(String.init)
        #else
        return nil
        #endif
    }
}
