/// What the Swift API keeps on a store's writer: validators, the open write scope, and the
/// changes committed but not yet handed to observers.
///
/// Lives in the ``Store`` and is only touched by the thread holding the store's write lock.
struct StoreHooks {
    /// Validation hooks by entity index (see ``Mapper/setValidator(for:_:)``).
    var validators: [Int: @Sendable (RecordFields) throws -> Void] = [:]
    /// One change log per open write scope, outermost first: a scope's changes join the
    /// enclosing scope's when it is kept, and are dropped with it when it is undone.
    var scopes: [ChangeLog] = []
    /// Transactions committed since the lock was taken, in commit order, for observers.
    var committed: [StoreChanges] = []
    /// The observers registered on the mapper; changes are only collected when there are some.
    var observers: ObserverRegistry?
    /// SQLite's foreign-key enforcement is off for the open transaction (see
    /// ``Store/write(checkingForeignKeys:deciding:)``).
    var foreignKeysSetAside = false
    /// An import is running: its validators and progress handler run on the thread holding the
    /// write lock, and must not write (the import's caches of what the store holds would go
    /// stale, and without foreign-key enforcement nothing would catch it).
    var isImporting = false

    var collectsChanges: Bool { observers?.isEmpty == false }
}
