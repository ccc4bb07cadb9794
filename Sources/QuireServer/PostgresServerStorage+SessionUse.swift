import Foundation
import QuirePostgres

/// When each session was last used, for its idle lifetime (``SessionLifetime``) and its
/// account's list of sessions, in the PostgreSQL store.
extension PostgresServerStorage {
    /// Migration 5: each session's last sign-in or refresh, in milliseconds; a session from
    /// before it counts as used when its access token was issued (as SQLite's migration 14).
    static func rememberWhenEachSessionWasUsed(_ db: PostgresConnection) throws {
        try db.execute(
            """
            ALTER TABLE sessions ADD COLUMN last_used_at bigint NOT NULL DEFAULT 0;
            UPDATE sessions SET last_used_at = GREATEST(created_at, access_expires_at);
            """)
    }

    public func sessions(account: AccountID, expiry: SessionExpiry) async throws -> [StoredSession] {
        try await transaction { db in try SessionQueries.live(account: account, expiry: expiry, db: db) }
    }
}
