import Foundation
import QuireSQLite

extension NotesDatabase {
    /// Runs `body` inside the caller's transaction with the search index's row triggers held off
    /// for the rows it inserts, then indexes those rows, with their final text, in one statement
    /// (client migration 14 says why: one FTS5 segment per page instead of one per note).
    ///
    /// The rows present when it begins stay indexed row by row, so a note updated or deleted
    /// meanwhile leaves the index exact. Rows inserted meanwhile are those with a larger rowid
    /// than any present at the start, or, when the largest was deleted and its rowid given out
    /// again, indexed by their trigger as before. The mark is written and removed in the same
    /// transaction, also when `body` throws, so nothing outside it ever sees it.
    func indexingSearchOnce<T>(_ body: () throws -> T) throws -> T {
        let above = try connection.queryFirst("SELECT coalesce(max(rowid), 0) FROM notes") { $0.int64(0) } ?? 0
        try connection.run(
            "INSERT INTO sync_meta (key, value) VALUES (?, ?)", NotesSchema.searchDeferredAboveKey,
            String(above))
        let result: T
        do {
            result = try body()
        } catch {
            try indexRows(above: above)
            throw error
        }
        try indexRows(above: above)
        return result
    }

    private func indexRows(above: Int64) throws {
        try connection.run("DELETE FROM sync_meta WHERE key = ?", NotesSchema.searchDeferredAboveKey)
        try connection.run(
            "INSERT INTO notes_search (rowid, title, body) SELECT rowid, title, body FROM notes WHERE rowid > ?",
            above)
    }
}
