import Foundation
import QuireSQLite

/// Accounts and sessions in the SQLite store. Each method is one transaction.
extension SQLiteServerStorage {
    // MARK: - Accounts

    public func createAccount(
        username: String, publicID: String, credentials: AccountCredentials,
        recovery: RecoveryCredentials?, now: Date
    ) throws -> AccountID {
        let db = try open()
        return try db.transaction {
            let taken = try db.queryFirst(
                "SELECT 1 FROM accounts WHERE username = ?", username
            ) { _ in true }
            if taken == true { throw ServerStorageError.usernameTaken(username) }
            try db.run(
                """
                INSERT INTO accounts (
                    username, created_at, public_id, auth_key_hash, auth_salt, auth_iterations,
                    kdf_salt, kdf_iterations, wrapped_notes_key, recovery_auth_hash,
                    recovery_auth_salt, recovery_auth_iterations, recovery_wrapped_notes_key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, username, now.storedMilliseconds, publicID, credentials.authKeyHash,
                credentials.authSalt, credentials.authIterations, credentials.kdfSalt,
                credentials.kdfIterations, credentials.wrappedNotesKey, recovery?.authKeyHash,
                recovery?.authSalt, recovery?.authIterations, recovery?.wrappedNotesKey)
            return AccountID(db.lastInsertRowID)
        }
    }

    public func account(username: String) throws -> StoredAccount? {
        try open().queryFirst(
            "SELECT \(Self.accountColumns) FROM accounts WHERE username = ? AND \(Self.canSignIn)",
            username, map: Self.storedAccount)
    }

    public func account(id: AccountID) throws -> StoredAccount? {
        try open().queryFirst(
            "SELECT \(Self.accountColumns) FROM accounts WHERE id = ? AND \(Self.canSignIn)",
            id.rawValue, map: Self.storedAccount)
    }

    public func changeCredentials(
        account: AccountID, expectedAuthKeyHash: Data, to credentials: AccountCredentials,
        keeping session: SessionID
    ) throws -> Bool {
        let db = try open()
        return try db.transaction {
            let changed = try Self.replaceCredentials(
                db, account: account, with: credentials, where: "auth_key_hash", is: expectedAuthKeyHash)
            guard changed == 1 else { return false }
            try db.run(
                "UPDATE sessions SET revoked = 1 WHERE account_id = ? AND id != ?",
                account.rawValue, session.rawValue)
            return true
        }
    }

    /// Sets the account's password material (not its recovery credentials) when `column` still
    /// holds `expected`, inside the caller's transaction; returns how many rows changed (0 or 1).
    static func replaceCredentials(
        _ db: SQLiteConnection, account: AccountID, with credentials: AccountCredentials,
        where column: String, is expected: Data
    ) throws -> Int {
        try db.run(
            """
            UPDATE accounts SET auth_key_hash = ?, auth_salt = ?, auth_iterations = ?,
                kdf_salt = ?, kdf_iterations = ?, wrapped_notes_key = ?
            WHERE id = ? AND \(column) = ?
            """, credentials.authKeyHash, credentials.authSalt, credentials.authIterations,
            credentials.kdfSalt, credentials.kdfIterations, credentials.wrappedNotesKey, account.rawValue,
            expected)
    }

    public func serverSecret() throws -> Data {
        let secret = try open().queryFirst(
            "SELECT value FROM server_secrets WHERE name = ?", Self.kdfSecretName
        ) { $0.blob(0) }
        guard let secret, secret.count == 32 else {
            throw SQLiteError(
                code: 0, message: "the database has no kdf secret; it was not migrated", sql: nil)
        }
        return secret
    }

    // MARK: - Sessions

    public func createSession(
        account: AccountID, deviceName: String, tokens: SessionTokenHashes, now: Date
    ) throws -> SessionID {
        let db = try open()
        return try db.transaction {
            try Self.insertSession(db, account: account, deviceName: deviceName, tokens: tokens, now: now)
        }
    }

    /// Inserts a session row inside the caller's transaction and returns its id.
    static func insertSession(
        _ db: SQLiteConnection, account: AccountID, deviceName: String, tokens: SessionTokenHashes,
        now: Date
    ) throws -> SessionID {
        try db.run(
            """
            INSERT INTO sessions (
                account_id, device_name, access_hash, access_expires_at, refresh_hash, created_at,
                last_used_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, account.rawValue, deviceName, tokens.accessHash,
            tokens.accessExpiresAt.storedMilliseconds, tokens.refreshHash, now.storedMilliseconds,
            now.storedMilliseconds)
        return SessionID(db.lastInsertRowID)
    }

    /// Also marks the session's current pair as used: from now on its previous refresh token
    /// is a replay, never a retry. The mark is written only the first time after a rotation, so
    /// an ordinary request stays one read.
    ///
    /// Every request asks this first, so it reads on the reader connection, on the caller's
    /// thread: it never waits behind a group's COMMIT on the actor; a session read once is kept
    /// in ``sessionCache`` until the writer changes any session. Only a session whose mark is
    /// still to be written goes to the actor, which reads again and writes, with nothing between.
    public nonisolated func session(accessHash: String) async throws -> AuthenticatedSession? {
        guard hasReader, let sessionCache else {
            return try await sessionMarkingItsPairUsed(accessHash: accessHash)
        }
        if let kept = sessionCache.session(accessHash: accessHash) { return kept }
        let generation = sessionCache.generation
        let found = try reader.withLock { db in
            guard let db else { throw ServerStorageError.closed }
            return try Self.session(accessHash: accessHash, db: db)
        }
        guard let found, found.retryOpen else {
            if let session = found?.session, let generation {
                sessionCache.keep(session, accessHash: accessHash, readIn: generation)
            }
            return found?.session
        }
        return try await sessionMarkingItsPairUsed(accessHash: accessHash)
    }

    private func sessionMarkingItsPairUsed(accessHash: String) throws -> AuthenticatedSession? {
        let db = try open()
        guard let (session, retryOpen) = try Self.session(accessHash: accessHash, db: db) else { return nil }
        if retryOpen {
            try db.run(
                "UPDATE sessions SET previous_retry_until = NULL WHERE id = ?",
                session.session.rawValue)
        }
        return session
    }

    /// The live session with this access token's hash, and whether its previous refresh token
    /// may still be retried.
    private static func session(accessHash: String, db: SQLiteConnection) throws
        -> (session: AuthenticatedSession, retryOpen: Bool)?
    {
        try db.queryFirst(
            """
            SELECT id, account_id, access_expires_at, previous_retry_until IS NOT NULL, created_at
            FROM sessions WHERE access_hash = ? AND revoked = 0
            """, accessHash
        ) { row in
            (
                AuthenticatedSession(
                    session: SessionID(row.int64(0)), account: AccountID(row.int64(1)),
                    accessExpiresAt: Date(storedMilliseconds: row.int64(2)),
                    startedAt: Date(storedMilliseconds: row.int64(4))),
                retryOpen: row.bool(3)
            )
        }
    }

    public func refreshSession(
        refreshHash: String, replacement: SessionTokenHashes, expiry: SessionExpiry
    ) throws -> RefreshOutcome {
        let db = try open()
        let used = replacement.issuedAt.storedMilliseconds
        return try db.transaction {
            let current = try db.queryFirst(
                "SELECT id, account_id FROM sessions WHERE refresh_hash = ? AND \(Self.liveSession)",
                refreshHash, expiry.lastUsedBefore.storedMilliseconds, expiry.startedBefore.storedMilliseconds
            ) { (SessionID($0.int64(0)), AccountID($0.int64(1))) }
            if let (session, accountID) = current {
                guard let account = try account(id: accountID) else { return .unknown }
                // Presenting the current refresh token uses the pair, which ends any retry of
                // the one before it; the new pair's own retry window starts.
                try db.run(
                    """
                    UPDATE sessions SET previous_refresh_hash = refresh_hash, refresh_hash = ?,
                        access_hash = ?, access_expires_at = ?, previous_retry_until = ?, last_used_at = ?
                    WHERE id = ?
                    """, replacement.refreshHash, replacement.accessHash,
                    replacement.accessExpiresAt.storedMilliseconds,
                    replacement.replacedTokenRetryUntil?.storedMilliseconds, used, session.rawValue)
                return .rotated(account)
            }
            let previous = try db.queryFirst(
                """
                SELECT id, account_id, previous_retry_until FROM sessions
                WHERE previous_refresh_hash = ? AND \(Self.liveSession)
                """, refreshHash, expiry.lastUsedBefore.storedMilliseconds,
                expiry.startedBefore.storedMilliseconds
            ) { (SessionID($0.int64(0)), AccountID($0.int64(1)), $0.isNull(2) ? nil : $0.int64(2)) }
            guard let (session, accountID, retryUntil) = previous else { return .unknown }
            if let retryUntil, replacement.issuedAt.storedMilliseconds < retryUntil {
                guard let account = try account(id: accountID) else { return .unknown }
                // The lost reply's pair is replaced unused; the previous token stays the
                // previous one, with its retry spent, so presenting it again revokes.
                try db.run(
                    """
                    UPDATE sessions SET refresh_hash = ?, access_hash = ?, access_expires_at = ?,
                        previous_retry_until = NULL, last_used_at = ?
                    WHERE id = ?
                    """, replacement.refreshHash, replacement.accessHash,
                    replacement.accessExpiresAt.storedMilliseconds, used, session.rawValue)
                return .retried(account)
            }
            try db.run("UPDATE sessions SET revoked = 1 WHERE id = ?", session.rawValue)
            return .reused
        }
    }

    public func revokeSession(_ session: SessionID) throws {
        let db = try open()
        _ = try db.transaction {
            try db.run("UPDATE sessions SET revoked = 1 WHERE id = ?", session.rawValue)
        }
    }

    // MARK: - Rows

    /// Not revoked, and not ended (the next two parameters: last used, started, in milliseconds).
    private static let liveSession = "revoked = 0 AND last_used_at >= ? AND created_at >= ?"

    private static let accountColumns = """
        id, public_id, username, auth_key_hash, auth_salt, auth_iterations, kdf_salt,
        kdf_iterations, wrapped_notes_key, recovery_auth_hash, recovery_auth_salt,
        recovery_auth_iterations, recovery_wrapped_notes_key
        """

    /// Accounts left by the removed `add-account` have no credentials and cannot sign in.
    private static let canSignIn = "auth_key_hash IS NOT NULL"

    private static func storedAccount(_ row: SQLiteRow) -> StoredAccount {
        StoredAccount(
            id: AccountID(row.int64(0)), publicID: row.text(1), username: row.text(2),
            credentials: AccountCredentials(
                authKeyHash: row.blob(3), authSalt: row.blob(4), authIterations: row.int(5),
                kdfSalt: row.blob(6), kdfIterations: row.int(7), wrappedNotesKey: row.blob(8)),
            recovery: row.isNull(9)
                ? nil
                : RecoveryCredentials(
                    authKeyHash: row.blob(9), authSalt: row.blob(10), authIterations: row.int(11),
                    wrappedNotesKey: row.blob(12)))
    }
}
