/// The PostgreSQL engine as the store's seam sees it. An import keeps its row flags and the
/// originals of changed rows in memory: the spill tables are SQLite's.
extension PostgresEngine: StoreEngine {
    func makeSpilledFlags() -> SpilledFlags? { nil }

    func makeSpilledOriginals(plan: ImportPlan) -> SpilledOriginals? { nil }
}
