import QuireSQLite

// MARK: - 16: the list by creation and by title, from indexes

extension NotesSchema {
    /// `quire ls --sort created|title` read a page at a time by an index, as the list by update
    /// does (`notes_list`), instead of reading and sorting every note.
    ///
    /// `title_key` is the title's ``TitleSortKey`` (the order `localizedStandardCompare` gives),
    /// computed in Swift: a save and a pulled note write it with the row. Any other write (a
    /// restored version, a conflict copy, a raw insert) leaves it NULL, or has it set back to NULL
    /// by the trigger below when it changes a title without it, and the list by title fills the
    /// NULL ones in before it reads (``NotesDatabase/fillTitleKeys()``, finding them at the start
    /// of `notes_by_title`), so no write path can leave a wrong key behind.
    static func indexListOrders(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE notes ADD COLUMN title_key BLOB;
            CREATE TRIGGER notes_title_key_on_update AFTER UPDATE OF title ON notes
            WHEN OLD.title IS NOT NEW.title AND NEW.title_key IS OLD.title_key AND NEW.title_key IS NOT NULL
            BEGIN
                UPDATE notes SET title_key = NULL WHERE id = NEW.id;
            END;
            CREATE INDEX notes_by_title ON notes (deleted, title_key, updated_at DESC, id);
            CREATE INDEX notes_by_creation ON notes (deleted, created_at DESC, id);
            """)
    }
}
