/// Savepoint bookkeeping for records skipped under `onError: skip`: what the importer keeps
/// beside the store is undone with the record.
extension Importer {
    func beginRecord() {
        tracker.beginRecord()
        skippedJournal.removeAll(keepingCapacity: true)
        linkIndexes.recordBegan()
        pendingUniques.beginRecord()
        pendingReferencesAtRecord = pendingReferences.count
        tombstoned.beginRecord()
        staleRows.beginRecord()
        staleRecordsAtRecord = staleRecords
    }

    func commitRecord() {
        tracker.commitRecord()
        pendingUniques.commitRecord()
        tombstoned.commitRecord()
        staleRows.commitRecord()
    }

    func rollBackRecord() {
        tracker.rollBackRecord()
        written.removeAll()
        signatures.removeAll()
        for name in skippedJournal { skippedLinks[name, default: 1] -= 1 }
        skippedLinks = skippedLinks.filter { $0.value > 0 }
        linkIndexes.recordRolledBack()
        pendingUniques.rollBackRecord()
        pendingReferences.removeSubrange(pendingReferencesAtRecord...)
        tombstoned.rollBackRecord()
        staleRows.rollBackRecord()
        staleRecords = staleRecordsAtRecord
    }

    func countSkippedLink(_ relationship: RelationshipPlan, of entity: EntityPlan) {
        let name = "\(entity.spec.name).\(relationship.spec.name)"
        skippedLinks[name, default: 0] += 1
        skippedJournal.append(name)
    }
}
