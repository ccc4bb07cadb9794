import Foundation
import QuirePostgres

/// Tombstone purges and the pruning of marks in the PostgreSQL store, with
/// ``SQLiteServerStorage``'s rules exactly.
extension PostgresServerStorage {
    /// One transaction. The accounts with tombstones to purge are locked first, in id order (as
    /// a write locks its one account), so no write of theirs lands between the statements that
    /// raise their purge marks and delete their tombstones.
    public func purgeTombstones(olderThan cutoff: Date) async throws -> Int {
        let limit = cutoff.storedMilliseconds
        let markLimit = cutoff.addingTimeInterval(-SQLiteServerStorage.markGrace).storedMilliseconds
        return try await transaction { db in
            try db.query(
                """
                SELECT id FROM accounts WHERE id IN (
                    SELECT account_id FROM notes WHERE deleted AND updated_at < $1)
                ORDER BY id FOR UPDATE
                """, limit)
            try db.query(
                """
                UPDATE accounts SET purged_seq = GREATEST(purged_seq, tombstones.seq)
                FROM (
                    SELECT account_id, MAX(seq) AS seq FROM notes
                    WHERE deleted AND updated_at < $1 GROUP BY account_id) AS tombstones
                WHERE accounts.id = tombstones.account_id
                """, limit)
            try db.query(
                """
                INSERT INTO purged_versions (account_id, note_id, version)
                SELECT account_id, note_id, version FROM notes WHERE deleted AND updated_at < $1
                ON CONFLICT (account_id, note_id) DO UPDATE SET version = excluded.version
                """, limit)
            try NoteHistoryQueries.forgetPurged(olderThan: cutoff, db: db)
            let purged = try db.query("DELETE FROM notes WHERE deleted AND updated_at < $1", limit).affectedRows
            try db.query("DELETE FROM idempotency_records WHERE created_at < $1", limit)
            try db.query("DELETE FROM note_marks WHERE created_at < $1", markLimit)
            // Marks go in number order up to the first one young enough to keep (see the
            // SQLite store): a cursor whose mark is gone gets 410 and lists everything again.
            let keptFrom =
                try db.queryFirst(
                    "SELECT seq FROM seq_marks WHERE created_at >= $1 ORDER BY seq LIMIT 1", markLimit
                ) { try $0.int64(0) } ?? (try Self.currentSeq(db) + 1)
            try db.query("DELETE FROM seq_marks WHERE seq < $1", keptFrom)
            try db.query(
                """
                INSERT INTO meta (key, value) VALUES ('marks_pruned_below', $1)
                ON CONFLICT (key) DO UPDATE SET value = GREATEST(meta.value, excluded.value)
                """, keptFrom)
            return purged
        }
    }
}
