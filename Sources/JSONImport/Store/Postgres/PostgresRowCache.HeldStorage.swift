extension PostgresRowCache {
    /// A cache's rows and lists, given to a thread of their own to free.
    ///
    /// `@unchecked Sendable`: that thread only drops its references (reference counts are
    /// atomic); a row set something else still refers to (a read's result waiting to be
    /// applied) lives on, and is used on the importing thread alone as before.
    final class HeldStorage: @unchecked Sendable {
        private var entities: [EntityRows?]
        private var tables: [LinkTable]

        init(entities: [EntityRows?], tables: [LinkTable]) {
            self.entities = entities
            self.tables = tables
        }

        func free() {
            entities = []
            tables = []
        }
    }
}
