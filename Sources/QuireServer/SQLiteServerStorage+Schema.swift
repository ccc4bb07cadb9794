import Foundation
import QuireSQLite

extension SQLiteServerStorage {
    /// The schema, one migration per released change. Never edit a released migration: append one.
    static var migrator: SQLiteMigrator {
        SQLiteMigrator([
            { db in
                try db.execute(
                    """
                    CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
                    INSERT INTO meta (key, value) VALUES ('seq', 0);

                    CREATE TABLE accounts (
                        id INTEGER PRIMARY KEY,
                        username TEXT NOT NULL UNIQUE,
                        created_at INTEGER NOT NULL,
                        purged_seq INTEGER NOT NULL DEFAULT 0
                    );

                    CREATE TABLE access_tokens (
                        token_hash TEXT PRIMARY KEY,
                        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        created_at INTEGER NOT NULL
                    );

                    CREATE TABLE notes (
                        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        note_id TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        deleted INTEGER NOT NULL DEFAULT 0,
                        payload TEXT,
                        updated_at INTEGER NOT NULL,
                        seq INTEGER NOT NULL,
                        PRIMARY KEY (account_id, note_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX notes_by_account_seq ON notes (account_id, seq);
                    CREATE INDEX notes_tombstones_by_age ON notes (updated_at) WHERE deleted = 1;

                    CREATE TABLE idempotency_records (
                        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        fingerprint TEXT NOT NULL,
                        status INTEGER NOT NULL,
                        response_body BLOB NOT NULL,
                        created_at INTEGER NOT NULL,
                        PRIMARY KEY (account_id, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX idempotency_records_by_age ON idempotency_records (created_at);
                    """)
            }
        ])
    }
}

extension Date {
    /// Milliseconds since 1970, the server's stored time: exact to the wire format's precision.
    var storedMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down))
    }

    init(storedMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(storedMilliseconds) / 1000)
    }
}
