import QuireSQLite

extension SQLiteServerStorage {
    /// Migration 26: idempotency records in key order (`PRIMARY KEY (key, account_id)`), no longer
    /// account first. Devices make their change ids time-ordered (``ChangeID``, UUID version 7),
    /// so a new record goes at the end of the table's B-tree, as a new feed position does, instead
    /// of on a random page of it: one page fewer written a PUT (docs/benchmarks.md, "Part 6, tenth
    /// pass"). Lookups name both columns, as before. No account is ever deleted, so the foreign
    /// key's cascade needs no index of its own.
    static func orderIdempotencyRecordsByKey(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE idempotency_records_by_key (
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                status INTEGER NOT NULL,
                response_body BLOB NOT NULL,
                created_at INTEGER NOT NULL,
                saved_version INTEGER,
                saved_seq INTEGER,
                saved_mark INTEGER,
                previous_seq INTEGER,
                previous_mark INTEGER,
                PRIMARY KEY (key, account_id)
            ) WITHOUT ROWID;
            INSERT INTO idempotency_records_by_key
            SELECT account_id, key, fingerprint, status, response_body, created_at, saved_version,
                saved_seq, saved_mark, previous_seq, previous_mark
            FROM idempotency_records ORDER BY key, account_id;
            DROP TABLE idempotency_records;
            ALTER TABLE idempotency_records_by_key RENAME TO idempotency_records;
            CREATE INDEX idempotency_records_by_age ON idempotency_records (created_at);
            """)
    }
}
