import QuireSQLite

// MARK: - 16: the list by creation and by title, from indexes

extension NotesSchema {
    /// `quire ls --sort created|title` read a page at a time by an index, as the list by update
    /// does (`notes_list`), instead of reading and sorting every note.
    ///
    /// `title_key` is the title's ``TitleSortKey`` (the order `localizedStandardCompare` gives),
    /// computed in Swift, so no write path sets it: NULL until the list by title fills it in
    /// (``NotesDatabase/fillTitleKeys()``, reading the NULL ones from the start of
    /// `notes_by_title`), and set back to NULL by a trigger whenever the title changes. A save or
    /// a pulled page pays nothing for it, and a connection that knows nothing of it (a raw
    /// insert) cannot leave a wrong key behind.
    static func indexListOrders(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE notes ADD COLUMN title_key BLOB;
            CREATE TRIGGER notes_title_key_on_update AFTER UPDATE OF title ON notes
            WHEN NEW.title_key IS NOT NULL AND OLD.title IS NOT NEW.title BEGIN
                UPDATE notes SET title_key = NULL WHERE id = NEW.id;
            END;
            CREATE INDEX notes_by_title ON notes (deleted, title_key, updated_at DESC, id);
            CREATE INDEX notes_by_creation ON notes (deleted, created_at DESC, id);
            """)
    }
}
