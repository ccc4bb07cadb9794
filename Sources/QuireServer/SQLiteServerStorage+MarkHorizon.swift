import QuireSQLite

extension SQLiteServerStorage {
    /// Migration 27: the history keeps a replaced version's mark with its text, and `note_marks`
    /// only the marks the history does not hold (see ``NoteMarkQueries``): an edit writes one
    /// random page fewer. The marks already in `note_marks` stay; the horizon starts where they do.
    static func keepMarksWithTheirTexts(_ db: SQLiteConnection) throws {
        try NoteMarkQueries.startHorizon(db: db)
    }
}
