/// The link changes one import made to rows that existed before it, kept so that those rows are
/// counted by net effect (SPEC 2.2 "Counting"): a link added and removed again within the
/// import, or a list put back in its order, leaves a row `unchanged`.
///
/// A link is a set of pairs (source row, target row) of one ``Link``. Each pair the import
/// changed keeps whether it was present before the import and whether it is now; a row that
/// reads the link *drifts* by one for each of its pairs whose two differ. The sources of a link
/// table read an ordered list, which can change while its pairs stay the same, so they keep
/// their list as it was before the import's first change to it, compared whole at the end.
struct LinkNetEffect {
    /// Which rows of a link read its pairs.
    struct Ends {
        /// Entities (by index) of the source and the target.
        let source: Int
        let target: Int
        /// Whether the source rows are counted by pairs; `false` for link tables, whose sources
        /// keep their list instead.
        let sourceByPairs: Bool
        /// Whether the target rows read the link (it has a back side, or its column sits on them).
        let targetReads: Bool
    }

    struct Pair: Hashable {
        let link: Int32
        let source: Int64
        let target: Int64
    }

    /// A link table's list of one source row.
    struct List: Hashable {
        let link: Int32
        let row: Int64
    }

    /// Per link (by `Link` index).
    let ends: [Ends]
    /// Per pair changed: `before` if present before the import, `now` if present now.
    private(set) var pairs: [Pair: UInt8] = [:]
    static let before: UInt8 = 0b01
    static let now: UInt8 = 0b10
    /// Per entity, per row: how many of its pairs differ from before the import (none listed
    /// when none do).
    private(set) var drift: [[Int64: Int32]]
    /// Link tables' lists as they were before the import's first change to them.
    private(set) var originalLists: [List: [Int64]] = [:]
    /// The bytes the pairs, the drift and the lists hold, by estimate.
    private(set) var estimatedBytes = 0
    /// A pair listed, with its place in the drift of its two rows.
    private static let pairBytes = MemoryEstimate.dictionaryEntry

    init(ends: [Ends], entities: Int) {
        self.ends = ends
        drift = Array(repeating: [:], count: entities)
    }

    /// Which ends of `link` count a change of their pairs: (source, target).
    func counts(_ link: Int) -> (source: Bool, target: Bool) {
        guard link < ends.count else { return (false, false) }
        return (ends[link].sourceByPairs, ends[link].targetReads)
    }

    /// Sets the state of a pair; returns what it held, for the journal (`nil`: not listed).
    @discardableResult
    mutating func set(_ pair: Pair, to state: UInt8?) -> UInt8? {
        let old = state == nil ? pairs.removeValue(forKey: pair) : pairs.updateValue(state!, forKey: pair)
        if (old == nil) != (state == nil) { estimatedBytes += state == nil ? -Self.pairBytes : Self.pairBytes }
        let differed = old.map(Self.differs) ?? false
        let differs = state.map(Self.differs) ?? false
        guard differed != differs else { return old }
        let ends = ends[Int(pair.link)]
        let step: Int32 = differs ? 1 : -1
        if ends.sourceByPairs { move(ends.source, pair.source, by: step) }
        if ends.targetReads { move(ends.target, pair.target, by: step) }
        return old
    }

    /// The state a pair takes when the import adds it (`present`) or removes it: the first
    /// change of a pair tells what it was before.
    func state(of pair: Pair, afterChangingTo present: Bool) -> UInt8 {
        let before = pairs[pair].map { $0 & Self.before } ?? (present ? 0 : Self.before)
        return before | (present ? Self.now : 0)
    }

    private static func differs(_ state: UInt8) -> Bool { (state & before != 0) != (state & now != 0) }

    private mutating func move(_ entity: Int, _ row: Int64, by step: Int32) {
        let count = drift[entity][row, default: 0] + step
        drift[entity][row] = count == 0 ? nil : count
    }

    /// Keeps a list as it was before the import changed it (the first time only).
    mutating func keepList(_ list: List, _ rows: [Int64]) {
        guard originalLists[list] == nil else { return }
        originalLists[list] = rows
        estimatedBytes += Self.bytes(of: rows)
    }

    mutating func forgetList(_ list: List) {
        guard let rows = originalLists.removeValue(forKey: list) else { return }
        estimatedBytes -= Self.bytes(of: rows)
    }

    /// Whether `list` is kept.
    func keeps(_ list: List) -> Bool { originalLists[list] != nil }

    /// Whether `pair` is listed.
    func lists(_ pair: Pair) -> Bool { pairs[pair] != nil }

    /// The bytes a kept list holds, by estimate.
    static func bytes(of rows: [Int64]) -> Int {
        MemoryEstimate.dictionaryEntry + 32 + rows.count * MemoryLayout<Int64>.stride
    }
}
