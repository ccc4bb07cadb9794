import QuireSQLite

extension SQLiteServerStorage {
    /// Migration 24: `notes` and `note_versions` become rowid tables, their primary keys unique
    /// indexes beside them (issue 13 part 6).
    ///
    /// Both were `WITHOUT ROWID`, so each row lived in its primary key's b-tree, sealed payload
    /// and all. A b-tree of keys keeps at most about 1 KB of a row on its page (4 KiB pages), so
    /// every 3 KB note spilled onto an overflow page, and SQLite, comparing keys on the way to a
    /// row, read each overflowing row whole into a fresh buffer: a put's look-up and insert
    /// copied and allocated more than they stored. A rowid table keeps a 3 KB row on its own
    /// page, and the key's b-tree holds only the key. Replaying a put's look-up and insert,
    /// 10,000 times in commits of 100 into 20,000 notes (bare SQLite, FULL): 0.84 s of CPU
    /// before, 0.36 s after (docs/benchmarks.md, "Batches").
    ///
    /// The rows are copied in feed order (`seq`), so a feed page reads neighbouring rows; the
    /// indexes and the usage triggers are made again as migrations 1, 10 and 19 made them.
    /// Dropping a table with foreign keys on deletes its rows without firing triggers, so the
    /// accounts' counters stay as they are.
    static func keepPayloadsInRowidTables(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE notes_rows (
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                note_id TEXT NOT NULL,
                version INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0,
                payload TEXT,
                updated_at INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                written_by INTEGER,
                mark INTEGER NOT NULL DEFAULT 0,
                payload_bytes INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (account_id, note_id)
            );
            INSERT INTO notes_rows (account_id, note_id, version, deleted, payload, updated_at, seq,
                written_by, mark, payload_bytes)
            SELECT account_id, note_id, version, deleted, payload, updated_at, seq, written_by, mark,
                payload_bytes
            FROM notes ORDER BY seq;
            DROP TABLE notes;
            ALTER TABLE notes_rows RENAME TO notes;
            CREATE INDEX notes_by_account_seq ON notes (account_id, seq);
            CREATE INDEX notes_tombstones_by_age ON notes (updated_at) WHERE deleted = 1;
            \(notesUsageTriggers)

            CREATE TABLE note_versions_rows (
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                note_id TEXT NOT NULL,
                version INTEGER NOT NULL,
                payload TEXT NOT NULL,
                saved_at INTEGER NOT NULL,
                replaced_at INTEGER NOT NULL,
                written_by INTEGER,
                mark INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (account_id, note_id, version)
            );
            INSERT INTO note_versions_rows (account_id, note_id, version, payload, saved_at, replaced_at,
                written_by, mark)
            SELECT account_id, note_id, version, payload, saved_at, replaced_at, written_by, mark
            FROM note_versions ORDER BY account_id, note_id, version;
            DROP TABLE note_versions;
            ALTER TABLE note_versions_rows RENAME TO note_versions;
            CREATE INDEX note_versions_by_age ON note_versions (account_id, saved_at);
            """)
    }
}
