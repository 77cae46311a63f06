/// The deletion stage on PostgreSQL.
extension PostgresEngine {
    /// A deletion engine for one deletion stage, over this engine's connection. Making it runs
    /// nothing on the server; each of its steps hands over the row path's pending writes first.
    func makeDeletionEngine(plan: ImportPlan) -> any DeletionEngine {
        PostgresDeletionEngine(store: self, plan: plan)
    }
}
