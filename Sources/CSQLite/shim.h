#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro cast of -1 that Swift cannot import.
static inline void (*csqlite_transient(void))(void *) { return (void (*)(void *))-1; }

// Memory statistics take a global mutex on every allocation; the store does not use them.
// Takes effect only before SQLite initializes; a later call changes nothing.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

// A statement journal (the undo log of one statement inside a transaction) stays in memory up to
// this many bytes. Past it SQLite moves the journal to a temporary file and keeps using the file
// for every later statement of the transaction, so one large statement (a DROP INDEX, say) would
// make each later journaled statement of a long import write to disk. Same rules as above.
static inline int csqlite_set_statement_journal_spill(int bytes) { return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes); }
