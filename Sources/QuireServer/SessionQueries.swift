import Foundation

/// The sessions statements written once for both stores (see ``HistoryDatabase``), each inside
/// the caller's transaction: an account's list of its sessions, and the background work's
/// deletion of sessions that are over.
enum SessionQueries {
    /// The account's sessions that are neither revoked nor ended by `expiry`, oldest first.
    static func live(account: AccountID, expiry: SessionExpiry, db: some HistoryDatabase) throws
        -> [StoredSession]
    {
        try db.historyRows(
            """
            SELECT id, device_name, created_at, last_used_at FROM sessions
            WHERE account_id = $1 AND revoked = FALSE AND last_used_at >= $2 AND created_at >= $3
            ORDER BY id
            """,
            [
                .int(account.rawValue), .int(expiry.lastUsedBefore.storedMilliseconds),
                .int(expiry.startedBefore.storedMilliseconds),
            ]
        ) { row in
            StoredSession(
                id: SessionID(try row.int64At(0)), deviceName: try row.textAt(1),
                startedAt: Date(storedMilliseconds: try row.int64At(2)),
                lastUsedAt: Date(storedMilliseconds: try row.int64At(3)))
        }
    }

    /// Deletes up to `limit` sessions that are over: revoked ones whose access token expired
    /// before `cutoff` (nothing can use them: a revoked session's tokens are refused as unknown
    /// ones, and they would pile up with every sign-out and password change), and those
    /// `expiry` says have ended (their refresh token is refused, and their access token, issued
    /// at their last use, expired long before). The newest session is kept whatever it is:
    /// SQLite hands a new row the highest id plus one, and a reused id would make notes the
    /// deleted session wrote look like the new session's own writes.
    static func deleteEnded(
        revokedBefore cutoff: Date, expiry: SessionExpiry, limit: Int, db: some HistoryDatabase
    ) throws -> Int {
        try db.historyRun(
            """
            DELETE FROM sessions WHERE id IN (
                SELECT id FROM sessions
                WHERE ((revoked = TRUE AND access_expires_at < $1) OR last_used_at < $2 OR created_at < $3)
                    AND id < (SELECT MAX(id) FROM sessions)
                ORDER BY id LIMIT $4)
            """,
            [
                .int(cutoff.storedMilliseconds), .int(expiry.lastUsedBefore.storedMilliseconds),
                .int(expiry.startedBefore.storedMilliseconds), .int(Int64(limit)),
            ])
    }
}
