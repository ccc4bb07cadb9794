import QuirePostgres

extension PostgresServerStorage {
    /// Migration 16: as the SQLite store's `keepMarksWithTheirTexts`, the history keeps a
    /// replaced version's mark with its text, and the marks' horizon starts where `note_marks` does.
    static func keepMarksWithTheirTexts(_ db: PostgresConnection) throws {
        try NoteMarkQueries.startHorizon(db: db)
    }
}
