import QuirePostgres

extension PostgresServerStorage {
    /// Migration 14: an idempotency record keeps a saved write's answer as its facts, as the
    /// SQLite store's `keepSavedAnswersAsFacts` (``RecordedAnswer``).
    static func keepSavedAnswersAsFacts(_ db: PostgresConnection) throws {
        try db.execute(
            """
            ALTER TABLE idempotency_records
                ADD COLUMN saved_version integer,
                ADD COLUMN saved_seq bigint,
                ADD COLUMN saved_mark bigint,
                ADD COLUMN previous_seq bigint,
                ADD COLUMN previous_mark bigint;
            """)
    }
}
