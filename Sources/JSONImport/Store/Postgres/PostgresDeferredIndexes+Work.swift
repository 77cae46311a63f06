import Synchronization

/// The work of the builds after a commit (see ``PostgresConnection/buildIndexesAfterCommit(_:url:)``):
/// the tables to index, how much each holds, and the list the connections take their indexes
/// from.
extension PostgresDeferredIndexes {
    /// A table to index after a commit: the statements building its indexes, and how much
    /// there is to index in it: the size of its rows (`pg_relation_size`) times its indexes.
    struct Work: Hashable, Sendable {
        var table: String
        var size: Int
        var builds: [String]
    }

    /// One index to build: its table, the statement building it, and the size of the table's
    /// rows it goes through.
    struct Unit: Hashable, Sendable {
        var table: String
        var build: String
        var size: Int
    }

    /// Past this much work in all (see ``Work``), the indexes built after a commit are built on
    /// two connections at once (see ``PostgresConnection/buildIndexesAfterCommit(_:url:)``);
    /// below it, the time a second connection takes to open is more than it would save.
    static let twoConnectionsSize = 4 << 20

    /// The indexes left to build after a commit, those of the largest tables first, for the
    /// connections building them to take one at a time: the two indexes of one large table
    /// (the benchmark's tag links) are then built at once, one on each connection, rather than
    /// one after the other on one while the other connection has run out of work.
    final class Queue: Sendable {
        private let units: Mutex<[Unit]>

        init(_ tables: [Work]) {
            let units = tables.flatMap { work in
                work.builds.map { Unit(table: work.table, build: $0, size: work.size / work.builds.count) }
            }
            // Stable: a table's indexes keep their order (its primary key first).
            let order = units.indices.sorted { (units[$0].size, units[$1].table, $1) < (units[$1].size, units[$0].table, $0) }
            self.units = Mutex(order.map { units[$0] })
        }

        /// The next index, if any is left.
        func next() -> Unit? { units.withLock { $0.popLast() } }

        var isEmpty: Bool { units.withLock { $0.isEmpty } }
    }
}
