#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro cast of -1 that Swift cannot import.
static inline void (*csqlite_transient(void))(void *) { return (void (*)(void *))-1; }

// Memory statistics take a global mutex on every allocation; the store does not use them.
// Takes effect only before SQLite initializes; a later call changes nothing.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
