extension PostgresRowCache {
    /// The links of one source in a link table, in link order: targets and their positions.
    /// Positions 0, 1, 2, … (what replacing a list writes) take no memory of their own.
    struct LinkList {
        private(set) var targets: [Int64] = []
        /// The positions of `targets`, when they are not their indices.
        private var positions: [Int64]?
        /// The server holds links of this source that a hand-over must remove first.
        var isStored: Bool
        var isDirty = false

        init(isStored: Bool) {
            self.isStored = isStored
        }

        /// A list of `targets` at `positions`, in position order.
        init(isStored: Bool, targets: [Int64], positions: ArraySlice<Int64>) {
            precondition(targets.count == positions.count, "a position for each target")
            self.isStored = isStored
            self.targets = targets
            if !positions.elementsEqual(0..<Int64(positions.count)) { self.positions = Array(positions) }
        }

        /// The position of the link at index `i`.
        func position(at i: Int) -> Int64 {
            positions?[i] ?? Int64(i)
        }

        /// The targets are in ascending order.
        var isInTargetOrder: Bool {
            zip(targets, targets.dropFirst()).allSatisfy { $0 < $1 }
        }

        /// The position after the last link (0 for none).
        var nextPosition: Int64 {
            guard let positions else { return Int64(targets.count) }
            return positions.max().map { $0 + 1 } ?? 0
        }

        /// Adds a link after those at `position` or before it.
        mutating func insert(_ target: Int64, at position: Int64) {
            if positions == nil && position == Int64(targets.count) { return targets.append(target) }
            var all = positions ?? targets.indices.map(Int64.init)
            let index = all.lastIndex { $0 <= position }.map { $0 + 1 } ?? 0
            targets.insert(target, at: index)
            all.insert(position, at: index)
            setPositions(all)
        }

        /// Adds links to `added`, in order, from `position` on. Onto the end of a list whose
        /// positions are its indices (a new list, above all), they are appended: into an empty
        /// one, `added` becomes the list, its array shared rather than copied.
        mutating func insert(contentsOf added: [Int64], at position: Int64) {
            guard positions == nil && position == Int64(targets.count) else {
                for (i, target) in added.enumerated() { insert(target, at: position + Int64(i)) }
                return
            }
            if targets.isEmpty { targets = added } else { targets += added }
        }

        /// Adds a link after the others; `position` is past theirs.
        mutating func append(_ target: Int64, at position: Int64) {
            if positions == nil && position == Int64(targets.count) { return targets.append(target) }
            var all = positions ?? targets.indices.map(Int64.init)
            targets.append(target)
            all.append(position)
            positions = all
        }

        /// Removes every link to `target`; returns how many there were.
        mutating func remove(_ target: Int64) -> Int {
            let kept = targets.indices.filter { targets[$0] != target }
            guard kept.count < targets.count else { return 0 }
            let removed = targets.count - kept.count
            setPositions(kept.map(position(at:)))
            targets = kept.map { targets[$0] }
            return removed
        }

        /// Removes every link; returns how many there were.
        mutating func removeAll() -> Int {
            defer {
                targets.removeAll()
                positions = nil
            }
            return targets.count
        }

        /// Keeps `all` as the positions, unless they are the indices.
        private mutating func setPositions(_ all: [Int64]) {
            positions = all.indices.allSatisfy { all[$0] == Int64($0) } ? nil : all
        }
    }
}
