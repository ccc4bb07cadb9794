import Foundation
import QuireSQLite

/// When each session was last used, for its idle lifetime (``SessionLifetime``) and its
/// account's list of sessions, in the SQLite store.
extension SQLiteServerStorage {
    /// Migration 14: each session's last sign-in or refresh, in milliseconds. A session from
    /// before it counts as used when its access token was issued (its expiry is at most one
    /// access-token lifetime later), so no session in use ends at the upgrade.
    static func rememberWhenEachSessionWasUsed(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE sessions ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
            UPDATE sessions SET last_used_at = MAX(created_at, access_expires_at);
            """)
    }

    public func sessions(account: AccountID, expiry: SessionExpiry) throws -> [StoredSession] {
        let db = try open()
        return try db.transaction { try SessionQueries.live(account: account, expiry: expiry, db: db) }
    }
}
