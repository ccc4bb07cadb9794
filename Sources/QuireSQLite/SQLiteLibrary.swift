#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Settings of the SQLite library for the whole process, made once, before its first use.
public enum SQLiteLibrary {
    /// Whether the settings took: false when something in the process used SQLite before.
    ///
    /// Memory statistics are turned off: every `sqlite3_malloc` and `sqlite3_free` took a
    /// process-wide mutex to count the bytes, about 6% of the server's writer thread (issue 13,
    /// 6); nothing in Quire reads them. ``SQLiteConnection`` reads this before it opens a file;
    /// code that calls SQLite another way (a VFS's registration, the benchmark's bare C calls,
    /// libvips, whose OpenSlide module starts SQLite when it looks at a file) reads it first too.
    public static let configured: Bool = {
        #if canImport(SQLite3)
            // Apple's module imports no `sqlite3_config` (it is variadic) and has no shim to call
            // it through: its settings stay as they are.
            return false
        #else
            return quire_sqlite3_disable_memory_statistics() == SQLITE_OK
        #endif
    }()
}
