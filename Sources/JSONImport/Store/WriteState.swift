/// What a store's writer keeps about its open write scopes: a change log per scope, the
/// transactions committed but not yet handed on, the import's foreign-key setting.
///
/// Lives in the ``Store`` and is only touched by the thread holding the store's write lock.
struct WriteState {
    /// One change log per open write scope, outermost first: a scope's changes join the
    /// enclosing scope's when it is kept, and are dropped with it when it is undone.
    var scopes: [ChangeLog] = []
    /// Transactions committed since the lock was taken, in commit order, for whoever listens.
    var committed: [StoreChanges] = []
    /// SQLite's foreign-key enforcement is off for the open transaction (see
    /// ``Store/write(checkingForeignKeys:deciding:)``).
    var foreignKeysSetAside = false
    /// An import is running: its validators and progress handler run on the thread holding the
    /// write lock, and must not write (the import's caches of what the store holds would go
    /// stale, and without foreign-key enforcement nothing would catch it).
    var isImporting = false
    /// Whether anyone listens for changes (the store's owner says); they are collected only then.
    var listens: () -> Bool = { false }

    var collectsChanges: Bool { listens() }
}
