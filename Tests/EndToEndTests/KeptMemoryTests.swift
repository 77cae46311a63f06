import Foundation
import Testing

@testable import jsonimport

/// `import` and `fetch` have glibc's allocator keep the memory they free, each threshold
/// unless the user set it in `GLIBC_TUNABLES`.
@Suite struct KeptMemoryTests {
    static let both = (mapping: 32 << 20, trim: 1 << 30)

    @Test func bothThresholdsAreSetUnlessTheUserSetThem() {
        #expect(KeptMemory.thresholds(tunables: nil) == Self.both)
        #expect(KeptMemory.thresholds(tunables: "") == Self.both)
        #expect(KeptMemory.thresholds(tunables: "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=2") == Self.both)
        #expect(KeptMemory.thresholds(tunables: "glibc.malloc.trim_threshold=0") == (Self.both.mapping, 0))
        #expect(KeptMemory.thresholds(tunables: "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=4096") == (0, Self.both.trim))
        #expect(KeptMemory.thresholds(tunables: "glibc.malloc.mmap_threshold=1:glibc.malloc.trim_threshold=2") == (0, 0))
    }

    /// A block of 24 MB, which glibc maps for itself below a threshold of 128 KB, comes from a
    /// heap once the thresholds are set. (This process keeps them, as an import does.) Up to 16
    /// blocks are held at once: a free chunk of the heap left by other tests serves a block
    /// whatever the threshold, and the held blocks use those up.
    @Test(.enabled(if: KeptMemory.mapsBlock(of: 1) != nil, "glibc's allocator"))
    func blocksUpTo32MBComeFromTheHeaps() throws {
        let block = 24 << 20
        #expect(KeptMemory.set(mapping: 128 << 10, trim: 0))
        #expect(KeptMemory.mapsBlock(of: block, amongUpTo: 16) == true)
        #expect(KeptMemory.apply(tunables: nil))
        #expect(KeptMemory.mapsBlock(of: block, amongUpTo: 16) == false)
        #expect(KeptMemory.mapsBlock(of: 40 << 20, amongUpTo: 16) == true, "past 32 MB, mapped still")
    }
}
