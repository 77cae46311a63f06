/// The links of one source row as a link table's key order gives them (by target), put in
/// link order by their positions: reading them in key order spares SQLite a sorter per
/// statement, and the few links of a row are sorted here only when they are out of order.
struct PositionedLinks {
    private var targets: [Int64] = []
    private var positions: [Int64] = []
    private var isInOrder = true

    mutating func append(_ target: Int64, at position: Int64) {
        if let last = positions.last, last > position { isInOrder = false }
        targets.append(target)
        positions.append(position)
    }

    /// The targets in link order.
    var inLinkOrder: [Int64] {
        isInOrder ? targets : zip(positions, targets).sorted { $0.0 < $1.0 }.map(\.1)
    }

    mutating func removeAll() {
        targets.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        isInOrder = true
    }
}
