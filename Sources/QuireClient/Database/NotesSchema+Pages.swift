import QuireDomain
import QuireSQLite

// MARK: - 14: a pulled page stored in bulk

extension NotesSchema {
    /// The `sync_meta` key that holds off the search index's row triggers while a page is
    /// stored (``NotesDatabase/indexingSearchOnce(_:)``): its value is the highest rowid the
    /// index held when the page began. Rows above it are indexed in one statement at the end.
    static let searchDeferredAboveKey = "search_deferred_above"

    /// Makes storing a pulled page cheap per note (measured in docs/benchmarks.md, "first sync").
    ///
    /// - **The search index, once per page.** FTS5 flushes its pending terms into a new segment
    ///   at every statement that writes it, so a row trigger made one segment per note and then
    ///   merged them: 3.5 s of a 10,000-note first sync, against 1.4 s for one statement per
    ///   page. While `search_deferred_above` is set, a row above that rowid is not indexed by the
    ///   row triggers, since the page indexes it, final values only, before it commits; every row
    ///   at or below it is indexed as before. The mark lives inside the page's transaction, so a
    ///   crash or a failure takes it back with the page.
    /// - **The preview written with the row.** The preview triggers now update only when the
    ///   preview is not already what they would write, so a write that sets it (a pulled note)
    ///   costs one row write instead of two.
    static func storePagesInBulk(_ db: SQLiteConnection) throws {
        let preview =
            "substr(ltrim(NEW.body, ' ' || char(9) || char(10) || char(13)), 1, \(NoteSummary.previewLength))"
        let above =
            "COALESCE((SELECT CAST(value AS INTEGER) FROM sync_meta WHERE key = '\(searchDeferredAboveKey)'), 9223372036854775807)"
        try db.execute(
            """
            DROP TRIGGER notes_preview_on_insert;
            DROP TRIGGER notes_preview_on_update;
            CREATE TRIGGER notes_preview_on_insert AFTER INSERT ON notes
            WHEN NEW.preview IS NOT \(preview) BEGIN
                UPDATE notes SET preview = \(preview) WHERE id = NEW.id;
            END;
            CREATE TRIGGER notes_preview_on_update AFTER UPDATE OF body ON notes
            WHEN NEW.preview IS NOT \(preview) BEGIN
                UPDATE notes SET preview = \(preview) WHERE id = NEW.id;
            END;
            DROP TRIGGER notes_search_on_insert;
            DROP TRIGGER notes_search_on_delete;
            DROP TRIGGER notes_search_on_update;
            CREATE TRIGGER notes_search_on_insert AFTER INSERT ON notes
            WHEN NEW.rowid <= \(above) BEGIN
                INSERT INTO notes_search (rowid, title, body) VALUES (NEW.rowid, NEW.title, NEW.body);
            END;
            CREATE TRIGGER notes_search_on_delete AFTER DELETE ON notes
            WHEN OLD.rowid <= \(above) BEGIN
                INSERT INTO notes_search (notes_search, rowid, title, body)
                VALUES ('delete', OLD.rowid, OLD.title, OLD.body);
            END;
            CREATE TRIGGER notes_search_on_update AFTER UPDATE OF title, body ON notes
            WHEN OLD.rowid <= \(above) BEGIN
                INSERT INTO notes_search (notes_search, rowid, title, body)
                VALUES ('delete', OLD.rowid, OLD.title, OLD.body);
                INSERT INTO notes_search (rowid, title, body) VALUES (NEW.rowid, NEW.title, NEW.body);
            END;
            """)
    }
}
