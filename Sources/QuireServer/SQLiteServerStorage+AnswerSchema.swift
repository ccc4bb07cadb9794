import QuireSQLite

extension SQLiteServerStorage {
    /// Migration 25: an idempotency record keeps a saved write's answer as its facts (version,
    /// position, the position before it), so the answer is built, and its cursors sealed, off the
    /// writer (``RecordedAnswer``). Records from before keep their bytes, and replay them.
    static func keepSavedAnswersAsFacts(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE idempotency_records ADD COLUMN saved_version INTEGER;
            ALTER TABLE idempotency_records ADD COLUMN saved_seq INTEGER;
            ALTER TABLE idempotency_records ADD COLUMN saved_mark INTEGER;
            ALTER TABLE idempotency_records ADD COLUMN previous_seq INTEGER;
            ALTER TABLE idempotency_records ADD COLUMN previous_mark INTEGER;
            """)
    }
}
