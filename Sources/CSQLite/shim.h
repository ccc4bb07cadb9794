#include <sqlite3.h>

/// Turns off SQLite's memory statistics for the process: with them on (Debian's build), every
/// sqlite3_malloc and sqlite3_free takes one process-wide mutex to count the bytes. Only works
/// before SQLite is first used (SQLITE_MISUSE after). `sqlite3_config` is variadic, which Swift
/// cannot call, hence this wrapper.
static inline int quire_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
