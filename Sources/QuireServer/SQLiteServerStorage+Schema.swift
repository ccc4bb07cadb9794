import Foundation
import QuireCrypto
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
            },
            accountsAndSessions,
            rememberEachNotesWriter,
            letALostRefreshReplyBeRetried,
            rememberPurgedVersions,
            markEachSequenceNumber,
            storeTrips,
            tagEachNoteVersion,
            rememberEachVersionsMark,
            keepEarlierVersions,
            keepWhatEachDeleteSaw,
            storeRecoveryKeys,
            countEachNotesBytes,
            rememberWhenEachSessionWasUsed,
            storeSharing,
            storeUploads,
            rotateTripKeys,
            countEachTripsBytes,
            countEachAccountsUsage,
            keepLoginFailures,
            checkEachTripKey,
            rememberEachTripFieldsAuthor,
            retireTheLiveBytesIndex,
            keepPayloadsInRowidTables,
            keepSavedAnswersAsFacts,
            orderIdempotencyRecordsByKey,
            keepMarksWithTheirTexts,
        ])
    }

    /// Migration 10: earlier versions of each note (history and trash): the payload a write
    /// replaced, with its version, when it was saved and replaced (milliseconds), its writer
    /// session and mark. Kept by ``NoteHistoryQueries``, pruned by ``HistoryRetention``.
    private static func keepEarlierVersions(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE note_versions (
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                note_id TEXT NOT NULL,
                version INTEGER NOT NULL,
                payload TEXT NOT NULL,
                saved_at INTEGER NOT NULL,
                replaced_at INTEGER NOT NULL,
                written_by INTEGER,
                mark INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (account_id, note_id, version)
            ) WITHOUT ROWID;
            CREATE INDEX note_versions_by_age ON note_versions (account_id, saved_at);
            """)
    }

    /// Migration 9: the mark each note version was written with, so a 409 can tell a writer
    /// whether its base is a version of this history (see `ConflictResponseDTO.baseKnown`).
    /// Pruned with the idempotency records' retention; `created_at` in milliseconds. Since issue
    /// 13's part 6 the current state's mark is on its row and a replaced text's in the history;
    /// this table keeps the rest (see ``NoteMarkQueries``).
    private static func rememberEachVersionsMark(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE note_marks (
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                note_id TEXT NOT NULL,
                version INTEGER NOT NULL,
                mark INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (account_id, note_id, version, mark)
            ) WITHOUT ROWID;
            INSERT OR IGNORE INTO note_marks (account_id, note_id, version, mark, created_at)
            SELECT account_id, note_id, version, mark, updated_at FROM notes WHERE mark > 0;
            """)
    }

    /// Migration 8: each note's state keeps the mark of the write that produced it, sent as its
    /// version's tag, so a version number is never taken for another history's text of the same
    /// number (see ``BaseVersion``). Rows whose mark was pruned, or written before marks, get 0.
    private static func tagEachNoteVersion(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE notes ADD COLUMN mark INTEGER NOT NULL DEFAULT 0;
            UPDATE notes SET mark = COALESCE(
                (SELECT seq_marks.mark FROM seq_marks WHERE seq_marks.seq = notes.seq), 0);
            """)
    }

    /// Migration 6: a random mark for each sequence number handed out, drawn in the write's
    /// transaction, so a cursor names a position in one history: after a restore from an older
    /// backup, the numbers handed out again get new marks and the cursors of the forgotten writes
    /// no longer match. Numbers handed out before it have none (their cursors are not compared).
    /// Pruned with the idempotency records' retention; `created_at` in milliseconds.
    private static func markEachSequenceNumber(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE seq_marks (
                seq INTEGER PRIMARY KEY,
                mark INTEGER NOT NULL,
                created_at INTEGER NOT NULL
            );
            """)
    }

    /// Migration 5: the last version of each note whose tombstone was purged (no payload, not in
    /// the feed), so a note written again under the same id goes on from there. Versions then never
    /// repeat for an id: a device still holding version 1 of the old note sees the new one as newer,
    /// instead of as the copy it already has.
    private static func rememberPurgedVersions(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE purged_versions (
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                note_id TEXT NOT NULL,
                version INTEGER NOT NULL,
                PRIMARY KEY (account_id, note_id)
            ) WITHOUT ROWID;
            """)
    }

    /// Migration 4: until when a session's previous refresh token may be presented once more
    /// (milliseconds), so a device whose refresh reply was lost is not signed out. Set by each
    /// rotation; cleared when the new pair is used or the one retry is spent. Sessions rotated
    /// before it have none: their previous token still revokes them, as it did.
    private static func letALostRefreshReplyBeRetried(_ db: SQLiteConnection) throws {
        try db.execute("ALTER TABLE sessions ADD COLUMN previous_retry_until INTEGER")
    }

    /// Migration 3: the session that wrote each note's current state, so the feed can spare a
    /// device its own change: a pull answers "your write" without sending its payload back.
    private static func rememberEachNotesWriter(_ db: SQLiteConnection) throws {
        try db.execute("ALTER TABLE notes ADD COLUMN written_by INTEGER")
    }

    /// Migration 2: real accounts (credentials, kdf parameters, wrapped notes key, a public id)
    /// and sessions with rotating tokens; the temporary bearer tokens of `add-account` go.
    ///
    /// Accounts made by `add-account` keep their notes but have no credentials, so they cannot
    /// sign in (their names stay taken). The kdf secret is made here, once per database.
    private static func accountsAndSessions(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            DROP TABLE access_tokens;

            ALTER TABLE accounts ADD COLUMN public_id TEXT;
            ALTER TABLE accounts ADD COLUMN auth_key_hash BLOB;
            ALTER TABLE accounts ADD COLUMN auth_salt BLOB;
            ALTER TABLE accounts ADD COLUMN auth_iterations INTEGER;
            ALTER TABLE accounts ADD COLUMN kdf_salt BLOB;
            ALTER TABLE accounts ADD COLUMN kdf_iterations INTEGER;
            ALTER TABLE accounts ADD COLUMN wrapped_notes_key BLOB;

            CREATE TABLE sessions (
                id INTEGER PRIMARY KEY,
                account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                device_name TEXT NOT NULL,
                access_hash TEXT NOT NULL UNIQUE,
                access_expires_at INTEGER NOT NULL,
                refresh_hash TEXT NOT NULL UNIQUE,
                previous_refresh_hash TEXT,
                revoked INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX sessions_by_account ON sessions (account_id);
            CREATE INDEX sessions_by_previous_refresh ON sessions (previous_refresh_hash)
                WHERE previous_refresh_hash IS NOT NULL;

            CREATE TABLE server_secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);
            """)
        let legacy = try db.query("SELECT id FROM accounts") { $0.int64(0) }
        for id in legacy {
            try db.run(
                "UPDATE accounts SET public_id = ? WHERE id = ?", UUID().uuidString.lowercased(), id
            )
        }
        try db.execute("CREATE UNIQUE INDEX accounts_by_public_id ON accounts (public_id);")
        try db.run(
            "INSERT INTO server_secrets (name, value) VALUES (?, ?)", kdfSecretName,
            SecureRandom.bytes(32))
    }

    /// The `server_secrets` row keying the kdf route's fake parameters.
    static let kdfSecretName = "kdf_decoy"
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
