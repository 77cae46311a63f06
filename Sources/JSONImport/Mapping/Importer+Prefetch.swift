/// Reading ahead for a batch of root records (a row path that reads in sets, SPEC 6): the
/// primary keys the records and their nested records name, per entity, and those their
/// references name, per relationship (see ``KeyGathering``).
extension Importer {
    /// Tells the row path a batch of records begins, `records` (root records of `entity`), so it
    /// reads ahead what importing them will read, and for the batch after it, `upcoming`
    /// (empty when not parsed yet), whose keys are gathered on a thread of their own meanwhile.
    /// Values that do not convert are left out: importing the record reports them.
    func beginBatch(_ records: [JSONValue], upcoming: [JSONValue], _ root: ImportTarget.Root) throws(StoreError) {
        guard rows.readsAhead else { return }
        // The keys of a batch are gathered once: as the upcoming batch, then as this one.
        let known = upcomingKeys.flatMap { $0.first == records.first?.offset && $0.count == records.count ? $0.keys : nil }
        upcomingKeys = nil
        let keys = known ?? gatherKeys(of: records, root)
        guard !upcoming.isEmpty else { return try rows.beginBatch(keys, upcoming: { nil }) }
        let gathering = keyGathering()
        // Nothing to gather (tables that were empty): no thread for it.
        guard gathering.gathersAny else {
            let upcomingKeys = gatherKeys(of: upcoming, root)
            self.upcomingKeys = (upcoming.first?.offset, upcoming.count, upcomingKeys)
            return try rows.beginBatch(keys, upcoming: { upcomingKeys })
        }
        batchesGathered += 1
        let job = KeyGatheringJob(gathering, records: upcoming, root, number: batchesGathered)
        job.start()
        // Waited for even when reading ahead fails: the worker reads the upcoming records.
        defer {
            let (upcomingKeys, counts) = job.wait()
            gatheredCounts = counts
            self.upcomingKeys = (upcoming.first?.offset, upcoming.count, upcomingKeys)
        }
        try rows.beginBatch(keys, upcoming: { job.wait().keys })
    }

    /// The keys `records` (root records of `root`) and their nested records name, gathered on
    /// this thread.
    private func gatherKeys(of records: [JSONValue], _ root: ImportTarget.Root) -> BatchKeys {
        var gathering = keyGathering()
        batchesGathered += 1
        let (keys, counts) = gathering.keys(of: records, root, number: batchesGathered)
        gatheredCounts = counts
        return keys
    }

    /// How the keys of the next batch are gathered: those of the entities the row path reads
    /// anything for (owned rows have no keys of their own).
    private func keyGathering() -> KeyGathering {
        KeyGathering(
            plan: plan, gathering: plan.entities.map { !$0.spec.isOwned && rows.readsAhead(keysOf: $0) }, last: gatheredCounts)
    }
}
