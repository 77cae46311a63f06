internal import CSimdJSON

/// The allocator keeps the memory an import frees, for the import's next allocations.
///
/// An import touches a few hundred MB once: the PostgreSQL store's row cache and its hash
/// tables, the records' values, the parser's buffers. glibc's allocator, left as it is, maps a
/// block past its threshold (128 KB, rising as such blocks are freed, up to 32 MB) for itself
/// and unmaps it when freed, so a buffer that doubles does so in new memory at every step, and
/// it returns the top of a heap to the kernel once 128 KB of it are free. Memory given back
/// and taken again is new memory each time, which the kernel zeroes as it is first touched.
/// So, as `import` and `fetch` start, blocks up to 32 MB (the most glibc takes) come from its
/// heaps and a heap is given back only past 1 GB free, each unless `GLIBC_TUNABLES` names that
/// threshold (the user's choice stands). Set with `mallopt`, in the running process.
///
/// Huge pages (`glibc.malloc.hugetlb=1`) are the user's to ask for in `GLIBC_TUNABLES`: they
/// cut the processor's misses of its page-translation cache, but where the memory they come
/// from was given back to a virtual machine's host, each costs the host a fault per 4 KB as it
/// is zeroed (see the README's "Memory an import touches").
enum KeptMemory {
    /// Blocks up to this size come from the allocator's heaps: 32 MB, glibc's largest.
    static let mappingThreshold = (tunable: "glibc.malloc.mmap_threshold", bytes: 32 << 20)
    /// A heap gives memory back to the kernel only past this much free: 1 GB.
    static let trimThreshold = (tunable: "glibc.malloc.trim_threshold", bytes: 1 << 30)

    /// The thresholds to set, given `GLIBC_TUNABLES`: each in bytes, or 0 where the variable
    /// names it (left as the user set it).
    static func thresholds(tunables: String?) -> (mapping: Int, trim: Int) {
        let named = Set((tunables ?? "").split(separator: ":").map { String($0.prefix { $0 != "=" }) })
        return (
            named.contains(mappingThreshold.tunable) ? 0 : mappingThreshold.bytes,
            named.contains(trimThreshold.tunable) ? 0 : trimThreshold.bytes
        )
    }

    /// Sets the thresholds ``thresholds(tunables:)`` gives for the process's `GLIBC_TUNABLES`;
    /// whether the allocator took them (never without glibc).
    @discardableResult
    static func apply(tunables: String?) -> Bool {
        let (mapping, trim) = thresholds(tunables: tunables)
        return set(mapping: mapping, trim: trim)
    }

    /// Sets the thresholds, each in bytes (0: left as it is); whether the allocator took them.
    static func set(mapping: Int, trim: Int) -> Bool {
        ji_keep_freed_memory(mapping, trim) == 1
    }

    /// Whether the allocator gives one of up to `count` blocks of `bytes`, allocated one after
    /// another and held, a mapping of its own; `nil` when it cannot tell (see
    /// `ji_allocator_maps`).
    static func mapsBlock(of bytes: Int, amongUpTo count: Int = 1) -> Bool? {
        switch ji_allocator_maps(bytes, Int32(count)) {
        case 1: true
        case 0: false
        default: nil
        }
    }
}
