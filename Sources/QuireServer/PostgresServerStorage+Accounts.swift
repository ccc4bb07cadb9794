import Foundation
import QuirePostgres

/// Accounts and sessions in the PostgreSQL store. Each method is one transaction.
extension PostgresServerStorage {
    // MARK: - Accounts

    public func createAccount(
        username: String, publicID: String, credentials: AccountCredentials,
        recovery: RecoveryCredentials?, now: Date
    ) async throws -> AccountID {
        // ON CONFLICT: two instances creating one name at once both reach the insert.
        let id = try await transaction { db in
            try db.queryFirst(
                """
                INSERT INTO accounts (
                    username, created_at, public_id, auth_key_hash, auth_salt, auth_iterations,
                    kdf_salt, kdf_iterations, wrapped_notes_key, recovery_auth_hash,
                    recovery_auth_salt, recovery_auth_iterations, recovery_wrapped_notes_key)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                ON CONFLICT (username) DO NOTHING
                RETURNING id
                """, username, now.storedMilliseconds, publicID, credentials.authKeyHash,
                credentials.authSalt, credentials.authIterations, credentials.kdfSalt,
                credentials.kdfIterations, credentials.wrappedNotesKey, recovery?.authKeyHash,
                recovery?.authSalt, recovery?.authIterations, recovery?.wrappedNotesKey
            ) { try $0.int64(0) }
        }
        guard let id else { throw ServerStorageError.usernameTaken(username) }
        return AccountID(id)
    }

    public func account(username: String) async throws -> StoredAccount? {
        try await transaction { db in
            try db.queryFirst(
                "SELECT \(Self.accountColumns) FROM accounts WHERE username = $1", username,
                map: Self.storedAccount)
        }
    }

    public func account(id: AccountID) async throws -> StoredAccount? {
        try await transaction { db in try Self.account(id: id, db: db) }
    }

    static func account(id: AccountID, db: PostgresConnection) throws -> StoredAccount? {
        try db.queryFirst(
            "SELECT \(accountColumns) FROM accounts WHERE id = $1", id.rawValue, map: storedAccount)
    }

    public func changeCredentials(
        account: AccountID, expectedAuthKeyHash: Data, to credentials: AccountCredentials,
        keeping session: SessionID
    ) async throws -> Bool {
        try await transaction { db in
            let changed = try Self.replaceCredentials(
                db, account: account, with: credentials, where: "auth_key_hash", is: expectedAuthKeyHash)
            guard changed == 1 else { return false }
            try db.query(
                "UPDATE sessions SET revoked = true WHERE account_id = $1 AND id <> $2",
                account.rawValue, session.rawValue)
            return true
        }
    }

    /// Sets the account's password material (not its recovery credentials) when `column` still
    /// holds `expected`, inside the caller's transaction; returns how many rows changed (0 or 1).
    static func replaceCredentials(
        _ db: PostgresConnection, account: AccountID, with credentials: AccountCredentials,
        where column: String, is expected: Data
    ) throws -> Int {
        try db.query(
            """
            UPDATE accounts SET auth_key_hash = $1, auth_salt = $2, auth_iterations = $3,
                kdf_salt = $4, kdf_iterations = $5, wrapped_notes_key = $6
            WHERE id = $7 AND \(column) = $8
            """, credentials.authKeyHash, credentials.authSalt, credentials.authIterations,
            credentials.kdfSalt, credentials.kdfIterations, credentials.wrappedNotesKey, account.rawValue,
            expected
        ).affectedRows
    }

    public func serverSecret() async throws -> Data {
        let secret = try await transaction { db in
            try db.queryFirst(
                "SELECT value FROM server_secrets WHERE name = $1", SQLiteServerStorage.kdfSecretName
            ) { try $0.bytes(0) }
        }
        guard let secret, secret.count == 32 else {
            throw PostgresSchemaError("the database has no kdf secret; it was not migrated")
        }
        return secret
    }

    // MARK: - Sessions

    public func createSession(
        account: AccountID, deviceName: String, tokens: SessionTokenHashes, now: Date
    ) async throws -> SessionID {
        try await transaction { db in
            try Self.insertSession(db, account: account, deviceName: deviceName, tokens: tokens, now: now)
        }
    }

    /// Inserts a session row inside the caller's transaction and returns its id.
    static func insertSession(
        _ db: PostgresConnection, account: AccountID, deviceName: String, tokens: SessionTokenHashes,
        now: Date
    ) throws -> SessionID {
        let id = try db.queryFirst(
            """
            INSERT INTO sessions (
                account_id, device_name, access_hash, access_expires_at, refresh_hash, created_at,
                last_used_at)
            VALUES ($1, $2, $3, $4, $5, $6, $6)
            RETURNING id
            """, account.rawValue, deviceName, tokens.accessHash,
            tokens.accessExpiresAt.storedMilliseconds, tokens.refreshHash, now.storedMilliseconds
        ) { try $0.int64(0) }
        guard let id else { throw PostgresError.decoding("INSERT … RETURNING id returned no row") }
        return SessionID(id)
    }

    /// Also marks the session's current pair as used (see ``SQLiteServerStorage``): from then on
    /// its previous refresh token is a replay, never a retry. The mark is written only the first
    /// time after a rotation, so an ordinary request stays one read.
    public func session(accessHash: String) async throws -> AuthenticatedSession? {
        try await transaction { db in
            let found = try db.queryFirst(
                """
                SELECT id, account_id, access_expires_at, previous_retry_until IS NOT NULL, created_at
                FROM sessions WHERE access_hash = $1 AND NOT revoked
                """, accessHash
            ) { row in
                (
                    AuthenticatedSession(
                        session: SessionID(try row.int64(0)), account: AccountID(try row.int64(1)),
                        accessExpiresAt: Date(storedMilliseconds: try row.int64(2)),
                        startedAt: Date(storedMilliseconds: try row.int64(4))),
                    retryOpen: try row.bool(3)
                )
            }
            guard let (session, retryOpen) = found else { return nil }
            if retryOpen {
                try db.query(
                    "UPDATE sessions SET previous_retry_until = NULL WHERE id = $1",
                    session.session.rawValue)
            }
            return session
        }
    }

    /// The session's row is locked (`FOR UPDATE`) before it is judged, so two instances given
    /// the same refresh token at once decide one after the other.
    public func refreshSession(
        refreshHash: String, replacement: SessionTokenHashes, expiry: SessionExpiry
    ) async throws -> RefreshOutcome {
        let used = replacement.issuedAt.storedMilliseconds
        let lastUsedBefore = expiry.lastUsedBefore.storedMilliseconds
        let startedBefore = expiry.startedBefore.storedMilliseconds
        return try await transaction { db in
            let current = try db.queryFirst(
                "SELECT id, account_id FROM sessions WHERE refresh_hash = $1 AND \(Self.liveSession) FOR UPDATE",
                refreshHash, lastUsedBefore, startedBefore
            ) { (SessionID(try $0.int64(0)), AccountID(try $0.int64(1))) }
            if let (session, accountID) = current {
                guard let account = try Self.account(id: accountID, db: db) else { return .unknown }
                // Presenting the current refresh token uses the pair, which ends any retry of
                // the one before it; the new pair's own retry window starts.
                try db.query(
                    """
                    UPDATE sessions SET previous_refresh_hash = refresh_hash, refresh_hash = $1,
                        access_hash = $2, access_expires_at = $3, previous_retry_until = $4,
                        last_used_at = $5
                    WHERE id = $6
                    """, replacement.refreshHash, replacement.accessHash,
                    replacement.accessExpiresAt.storedMilliseconds,
                    replacement.replacedTokenRetryUntil?.storedMilliseconds, used, session.rawValue)
                return .rotated(account)
            }
            let previous = try db.queryFirst(
                """
                SELECT id, account_id, previous_retry_until FROM sessions
                WHERE previous_refresh_hash = $1 AND \(Self.liveSession) FOR UPDATE
                """, refreshHash, lastUsedBefore, startedBefore
            ) { (SessionID(try $0.int64(0)), AccountID(try $0.int64(1)), try $0.optionalInt64(2)) }
            guard let (session, accountID, retryUntil) = previous else { return .unknown }
            if let retryUntil, replacement.issuedAt.storedMilliseconds < retryUntil {
                guard let account = try Self.account(id: accountID, db: db) else { return .unknown }
                // The lost reply's pair is replaced unused; the previous token stays the
                // previous one, with its retry spent, so presenting it again revokes.
                try db.query(
                    """
                    UPDATE sessions SET refresh_hash = $1, access_hash = $2, access_expires_at = $3,
                        previous_retry_until = NULL, last_used_at = $4
                    WHERE id = $5
                    """, replacement.refreshHash, replacement.accessHash,
                    replacement.accessExpiresAt.storedMilliseconds, used, session.rawValue)
                return .retried(account)
            }
            try db.query("UPDATE sessions SET revoked = true WHERE id = $1", session.rawValue)
            return .reused
        }
    }

    public func revokeSession(_ session: SessionID) async throws {
        try await transaction { db in
            _ = try db.query("UPDATE sessions SET revoked = true WHERE id = $1", session.rawValue)
        }
    }

    // MARK: - Rows

    /// Not revoked, and not ended ($2 last used, $3 started, in milliseconds).
    private static let liveSession = "NOT revoked AND last_used_at >= $2 AND created_at >= $3"

    private static let accountColumns = """
        id, public_id, username, auth_key_hash, auth_salt, auth_iterations, kdf_salt,
        kdf_iterations, wrapped_notes_key, recovery_auth_hash, recovery_auth_salt,
        recovery_auth_iterations, recovery_wrapped_notes_key
        """

    private static func storedAccount(_ row: PostgresRow) throws -> StoredAccount {
        StoredAccount(
            id: AccountID(try row.int64(0)), publicID: try row.text(1), username: try row.text(2),
            credentials: AccountCredentials(
                authKeyHash: try row.bytes(3), authSalt: try row.bytes(4), authIterations: try row.int(5),
                kdfSalt: try row.bytes(6), kdfIterations: try row.int(7), wrappedNotesKey: try row.bytes(8)),
            recovery: row.isNull(9)
                ? nil
                : RecoveryCredentials(
                    authKeyHash: try row.bytes(9), authSalt: try row.bytes(10),
                    authIterations: try row.int(11), wrappedNotesKey: try row.bytes(12)))
    }
}
