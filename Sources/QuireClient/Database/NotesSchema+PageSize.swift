// MARK: - The page size of a new database file

extension NotesSchema {
    /// The page size, in bytes, of a notes database this device creates; a file created before
    /// keeps its own (4,096 bytes, SQLite's default), since changing it takes a `VACUUM`, which
    /// would renumber the rows the search index is keyed by.
    ///
    /// A note of about 2 KB is a row of about 2.3 KB: two do not fit in a 4 KiB page, so each took
    /// a page of its own and the table was 40% empty space, written twice (to the WAL, then by the
    /// checkpoint) in 4 KiB `pwrite` calls, a third of a first sync's time on the database's
    /// thread. With 16 KiB pages seven such rows share a page: a 10,000-note first sync writes 47 MB
    /// instead of 65 MB, in a quarter of the calls, for about 15% less CPU (docs/benchmarks.md,
    /// "Larger pages for a new device"). A save writes a few more bytes to the WAL (a handful of
    /// 16 KiB pages instead of 4 KiB ones) under the same one fsync.
    package static let pageSize = 16_384
}
