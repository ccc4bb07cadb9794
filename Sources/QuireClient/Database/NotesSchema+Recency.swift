import QuireSQLite

// MARK: - 17: one index less to keep for every write of a note

extension NotesSchema {
    /// `notes_by_recency (deleted, updated_at DESC, id)` is the first three columns of the list
    /// index `notes_list` (migration 5), which answers every query it answered in the same order;
    /// keeping both cost every insert and every change of a note's time one more index write
    /// (3 to 6% of a first sync's CPU, docs/benchmarks.md, "Larger pages for a new device").
    static func dropTheRecencyIndex(_ db: SQLiteConnection) throws {
        try db.execute("DROP INDEX notes_by_recency")
    }
}
