#ifndef QUIRE_CSQLITE_WAL_BUFFER_H
#define QUIRE_CSQLITE_WAL_BUFFER_H

#include <sqlite3.h>

/// Registers (once; later calls do nothing) the SQLite VFS "quire-wal-buffer": the default VFS,
/// except that a connection's writes to its write-ahead log are gathered in memory and handed to
/// the kernel as one write before the log is synced, read, truncated, sized or closed. SQLite
/// writes each WAL frame as two writes (a 24-byte header, then the page); a commit of N pages is
/// then one pwrite instead of 2N. Only for connections with synchronous=FULL (or EXTRA), whose
/// every commit syncs the log: with NORMAL, a commit would become visible to other connections
/// (through the shared-memory index) while its frames were still in this buffer.
/// Returns SQLITE_OK or SQLite's error code.
int csqlite_wal_buffer_register(void);

/// The VFS name to give sqlite3_open_v2 after csqlite_wal_buffer_register succeeded.
extern const char *const csqlite_wal_buffer_vfs_name;

/// For tests: when `db`'s write-ahead log is open through this VFS, stores how many writes
/// SQLite made to it and how many were handed to the kernel, and returns 1; else returns 0.
int csqlite_wal_buffer_counts(sqlite3 *db, long long *writesAsked, long long *writesMade);

#endif
