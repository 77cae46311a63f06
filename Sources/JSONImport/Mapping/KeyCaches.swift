/// Something a ``KeyCaches`` holds, with an estimate of the heap bytes it keeps alive.
protocol KeyCacheEntry {
    var estimatedBytes: Int { get }
}

/// One cache per entity, keyed by primary key (the identity cache, the repeated-record cache),
/// bounded together by an estimate of the bytes they hold, not by a count of entries: a count
/// bounds little when keys or cached records hold long text. When storing an entry takes the
/// caches past their budget, the largest one starts over. Only a cache: a key it forgot is
/// looked up in the store, so forgetting changes how fast an import runs, never what it does.
struct KeyCaches<Entry: KeyCacheEntry> {
    private var caches: [[RowKey: Entry]]
    private var bytes: [Int]
    private var totalBytes = 0
    /// The bytes all caches may hold together, by estimate.
    let budget: Int

    init(count: Int, budget: Int) {
        caches = Array(repeating: [:], count: count)
        bytes = Array(repeating: 0, count: count)
        self.budget = budget
    }

    subscript(entity: Int, key: RowKey) -> Entry? { caches[entity][key] }

    func isEmpty(_ entity: Int) -> Bool { caches[entity].isEmpty }

    /// The bytes the caches hold together, by estimate.
    var estimatedBytes: Int { totalBytes }

    /// The largest entry kept, in estimated bytes (key included): an eighth of the budget, so
    /// that one huge record cannot keep its text alive after its import.
    var maximumEntryBytes: Int { budget / 8 }

    /// Stores `entry` for `key`, first emptying the largest cache if the entry would take the
    /// caches past their budget. An entry larger than ``maximumEntryBytes`` is not kept (and
    /// `key` is forgotten).
    /// - Returns: `true` when `key` was not in the cache and now is.
    @discardableResult
    mutating func set(_ entry: Entry, for key: RowKey, in entity: Int) -> Bool {
        let size = MemoryEstimate.dictionaryEntry + key.estimatedBytes + entry.estimatedBytes
        guard size <= maximumEntryBytes else {
            removeValue(for: key, in: entity)
            return false
        }
        if totalBytes + size > budget, let largest = bytes.indices.max(by: { bytes[$0] < bytes[$1] }) {
            removeAll(in: largest)
        }
        guard let old = caches[entity].updateValue(entry, forKey: key) else {
            add(size, to: entity)
            return true
        }
        add(entry.estimatedBytes - old.estimatedBytes, to: entity)
        return false
    }

    mutating func removeValue(for key: RowKey, in entity: Int) {
        guard let old = caches[entity].removeValue(forKey: key) else { return }
        add(-(MemoryEstimate.dictionaryEntry + key.estimatedBytes + old.estimatedBytes), to: entity)
    }

    /// Forgets the entries of `entity` that satisfy `predicate`.
    mutating func removeAll(in entity: Int, where predicate: (Entry) -> Bool) {
        caches[entity] = caches[entity].filter { !predicate($0.value) }
        let kept = caches[entity].reduce(0) { $0 + MemoryEstimate.dictionaryEntry + $1.key.estimatedBytes + $1.value.estimatedBytes }
        add(kept - bytes[entity], to: entity)
    }

    mutating func removeAll(in entity: Int) {
        caches[entity] = [:]
        add(-bytes[entity], to: entity)
    }

    mutating func removeAll() {
        for entity in caches.indices { removeAll(in: entity) }
    }

    private mutating func add(_ size: Int, to entity: Int) {
        bytes[entity] += size
        totalBytes += size
    }
}

extension Int64: KeyCacheEntry {
    var estimatedBytes: Int { 0 }
}

extension RowKey {
    /// Heap bytes the key keeps alive, by estimate.
    var estimatedBytes: Int {
        switch self {
        case .integer: return 0
        case .text(let text): return MemoryEstimate.heapBytes(of: text)
        case .composite(let values): return MemoryEstimate.heapBytes(of: values)
        }
    }
}
