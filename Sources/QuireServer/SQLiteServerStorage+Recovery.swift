import Foundation
import QuireSQLite

/// Recovery keys in the SQLite store (issue 12, item 11): their schema and the two writes that
/// use them. Each method is one transaction.
extension SQLiteServerStorage {
    /// Migration 12: each account's recovery credentials (a slow hash of the recovery auth key,
    /// its salt and rounds, and the notes key sealed under the recovery wrapping key). Null for
    /// accounts registered before it, until they make a recovery key.
    static func storeRecoveryKeys(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            ALTER TABLE accounts ADD COLUMN recovery_auth_hash BLOB;
            ALTER TABLE accounts ADD COLUMN recovery_auth_salt BLOB;
            ALTER TABLE accounts ADD COLUMN recovery_auth_iterations INTEGER;
            ALTER TABLE accounts ADD COLUMN recovery_wrapped_notes_key BLOB;
            """)
    }

    public func recoverCredentials(
        account: AccountID, expectedRecoveryAuthHash: Data, to credentials: AccountCredentials,
        deviceName: String, tokens: SessionTokenHashes, now: Date
    ) throws -> SessionID? {
        let db = try open()
        return try db.transaction {
            let changed = try Self.replaceCredentials(
                db, account: account, with: credentials, where: "recovery_auth_hash", is: expectedRecoveryAuthHash)
            guard changed == 1 else { return nil }
            try db.run("UPDATE sessions SET revoked = 1 WHERE account_id = ?", account.rawValue)
            return try Self.insertSession(
                db, account: account, deviceName: deviceName, tokens: tokens, now: now)
        }
    }

    public func replaceRecovery(
        account: AccountID, expectedAuthKeyHash: Data, with recovery: RecoveryCredentials
    ) throws -> Bool {
        let db = try open()
        return try db.transaction {
            try db.run(
                """
                UPDATE accounts SET recovery_auth_hash = ?, recovery_auth_salt = ?,
                    recovery_auth_iterations = ?, recovery_wrapped_notes_key = ?
                WHERE id = ? AND auth_key_hash = ?
                """, recovery.authKeyHash, recovery.authSalt, recovery.authIterations,
                recovery.wrappedNotesKey, account.rawValue, expectedAuthKeyHash) == 1
        }
    }
}
