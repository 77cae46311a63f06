import Synchronization

/// The work of the builds after a commit (see ``PostgresConnection/buildIndexesAfterCommit(_:url:)``):
/// the tables to index, how much each holds, and the list the connections take them from.
extension PostgresDeferredIndexes {
    /// A table to index after a commit, and how much there is to index in it: the size of its
    /// rows (`pg_relation_size`) times its indexes.
    struct Work: Hashable, Sendable {
        var table: String
        var size: Int
    }

    /// Past this much work in all (see ``Work``), the indexes built after a commit are built on
    /// two connections at once (see ``PostgresConnection/buildIndexesAfterCommit(_:url:)``);
    /// below it, the time a second connection takes to open is more than it would save.
    static let twoConnectionsSize = 4 << 20

    /// The tables left to index after a commit, the most work first, for the connections
    /// building them to take one at a time.
    final class Queue: Sendable {
        private let tables: Mutex<[String]>

        init(_ tables: [Work]) {
            self.tables = Mutex(tables.sorted { ($0.size, $1.table) < ($1.size, $0.table) }.map(\.table))
        }

        /// The next table, if any is left.
        func next() -> String? { tables.withLock { $0.popLast() } }

        var isEmpty: Bool { tables.withLock { $0.isEmpty } }
    }
}
