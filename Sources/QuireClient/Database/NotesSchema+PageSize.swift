// MARK: - The page size of a new database file

extension NotesSchema {
    /// The page size, in bytes, of a notes database this device creates; a file created before
    /// keeps its own (4,096 bytes, SQLite's default), since changing it takes a `VACUUM`, which
    /// would renumber the rows the search index is keyed by.
    ///
    /// A note of about 2 KB is a row of about 2.3 KB: two do not fit in a 4 KiB page, so each took
    /// a page of its own and the table was 40% empty space, written twice (to the WAL, then by the
    /// checkpoint) in 4 KiB `pwrite` calls, about a quarter of a first sync's CPU. Three such rows
    /// share an 8 KiB page: a 10,000-note first sync writes a file of 51 MB instead of 65 MB, in
    /// half the calls; with migration 17, 8 to 17% less CPU. 16 KiB pages saved no more, and a
    /// save writes each page it changes to the WAL whole before its fsync: a save measured
    /// 0.44 ms with 4 KiB pages, 0.57 ms with 8 KiB, 0.69 ms with 16 KiB (docs/benchmarks.md,
    /// "Larger pages for a new device").
    package static let pageSize = 8_192
}
