import QuireSQLite

// MARK: - 15: the merge base kept only where it differs from the text

extension NotesSchema {
    /// A note's merge base (the text of its last confirmed version) is stored only where it
    /// differs from the note's text, measured in docs/benchmarks.md ("first sync"): every pulled
    /// note, and every acknowledged one not edited since, had its 2 KB text written twice.
    ///
    /// `base_is_text = 1`: the base is the row's own title and body, and `base_title` and
    /// `base_body` are NULL. `base_is_text = 0`: the base is those two columns, NULL for a note
    /// with no base (never confirmed, a tombstone, a resync that forgot the version). The columns
    /// are read only through ``NoteBaseColumns``, so a NULL base is never read as an empty one.
    ///
    /// A text that changes under the same version (a save, a settled conflict's text) was the
    /// base until then: `notes_base_kept_on_edit` writes it into the base columns, so no write
    /// path can lose a base by editing the text. A write that makes a new base names the version
    /// too (a pull, an acknowledgement), and sets the columns itself. The history trigger reads
    /// the flag when it marks a text as a confirmed version.
    static func keepBasesOnlyWhereTheyDiffer(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE notes ADD COLUMN base_is_text INTEGER NOT NULL DEFAULT 0;
            UPDATE notes SET base_is_text = 1, base_title = NULL, base_body = NULL
            WHERE base_title IS NOT NULL AND base_title IS title AND base_body IS body;
            CREATE TRIGGER notes_base_kept_on_edit AFTER UPDATE OF title, body ON notes
            WHEN OLD.base_is_text = 1 AND NEW.base_is_text = 1
                AND (OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body)
                AND NEW.version IS OLD.version AND NEW.version_tag IS OLD.version_tag
            BEGIN
                UPDATE notes SET base_is_text = 0, base_title = OLD.title, base_body = OLD.body
                WHERE id = NEW.id;
            END;
            DROP TRIGGER notes_history_on_update;
            DROP TRIGGER notes_history_on_delete;
            \(historyTriggers(confirmedWhen: "OLD.base_is_text = 1 OR (\(oldBaseIsText))"))
            """)
    }
}
