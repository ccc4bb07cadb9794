import Foundation
import QuireSQLite

/// The account quota of the SQLite store (``NoteQuota``): read from the account's counters
/// (migration 19, kept by triggers), so a put counts nothing to check it.
extension SQLiteServerStorage {
    /// Migration 13: each note's payload size in bytes (0 for a tombstone), with an index that
    /// answers an account's live-note count and bytes without reading the payloads (`length()`
    /// of TEXT would read every payload).
    static func countEachNotesBytes(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE notes ADD COLUMN payload_bytes INTEGER NOT NULL DEFAULT 0;
            UPDATE notes SET payload_bytes = COALESCE(LENGTH(CAST(payload AS BLOB)), 0);
            CREATE INDEX notes_live_bytes ON notes (account_id, deleted, payload_bytes);
            """)
    }

    /// Migration 23: the index of migration 13 goes. Since migration 19 the quota reads the
    /// account's counters, and no query reads the index, but every note write rewrote it: about
    /// 4 of the 36 pages a shared commit of new notes wrote to the log (issue 13, 6).
    static func retireTheLiveBytesIndex(_ db: SQLiteConnection) throws {
        try db.execute("DROP INDEX notes_live_bytes;")
    }

    /// The limit of `quota` that putting `payload` over `current` (nil or a tombstone: a new live
    /// note) would pass, from the account's counters inside the caller's transaction.
    func quotaPassed(
        _ quota: NoteQuota, account: AccountID, replacing current: StoredNote?, with payload: String,
        db: SQLiteConnection
    ) throws -> NoteQuota.Limit? {
        guard !quota.isUnlimited else { return nil }
        let (notes, bytes) =
            try db.queryFirst(
                """
                SELECT live_notes, live_bytes FROM accounts WHERE id = ?
                """, account.rawValue
            ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        return quota.limitPassed(notes: notes, bytes: bytes, replacing: current, with: payload)
    }
}
