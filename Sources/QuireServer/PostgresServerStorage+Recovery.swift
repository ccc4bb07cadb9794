import Foundation
import QuirePostgres

/// Recovery keys in the PostgreSQL store (see ``SQLiteServerStorage``'s): their schema and the
/// two writes that use them. Each method is one transaction.
extension PostgresServerStorage {
    /// Migration 4: each account's recovery credentials, null until the account has a recovery
    /// key (as the SQLite store's migration 12).
    static func storeRecoveryKeys(_ db: PostgresConnection) throws {
        try db.execute(
            """
            ALTER TABLE accounts ADD COLUMN recovery_auth_hash bytea;
            ALTER TABLE accounts ADD COLUMN recovery_auth_salt bytea;
            ALTER TABLE accounts ADD COLUMN recovery_auth_iterations integer;
            ALTER TABLE accounts ADD COLUMN recovery_wrapped_notes_key bytea;
            """)
    }

    /// The account's row is updated by its recovery hash, which locks it: a concurrent
    /// recovery or password change waits, then finds the row it expects, or not.
    public func recoverCredentials(
        account: AccountID, expectedRecoveryAuthHash: Data, to credentials: AccountCredentials,
        deviceName: String, tokens: SessionTokenHashes, now: Date
    ) async throws -> SessionID? {
        try await transaction { db in
            let changed = try Self.replaceCredentials(
                db, account: account, with: credentials, where: "recovery_auth_hash", is: expectedRecoveryAuthHash)
            guard changed == 1 else { return nil }
            try db.query("UPDATE sessions SET revoked = true WHERE account_id = $1", account.rawValue)
            return try Self.insertSession(
                db, account: account, deviceName: deviceName, tokens: tokens, now: now)
        }
    }

    public func replaceRecovery(
        account: AccountID, expectedAuthKeyHash: Data, with recovery: RecoveryCredentials
    ) async throws -> Bool {
        try await transaction { db in
            try db.query(
                """
                UPDATE accounts SET recovery_auth_hash = $1, recovery_auth_salt = $2,
                    recovery_auth_iterations = $3, recovery_wrapped_notes_key = $4
                WHERE id = $5 AND auth_key_hash = $6
                """, recovery.authKeyHash, recovery.authSalt, recovery.authIterations,
                recovery.wrappedNotesKey, account.rawValue, expectedAuthKeyHash
            ).affectedRows == 1
        }
    }
}
