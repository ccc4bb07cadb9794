import Foundation

/// What the server keeps to check an account's password and to hand a new device its keys.
/// None of it lets anyone sign in or read a note: the auth key itself is never stored.
public struct AccountCredentials: Sendable, Equatable {
    /// PBKDF2-HMAC-SHA256 of the auth key under `authSalt`, `authIterations` rounds.
    public var authKeyHash: Data
    public var authSalt: Data
    public var authIterations: Int
    /// The client's key-derivation parameters (algorithm `pbkdf2-sha256`), returned by the kdf route.
    public var kdfSalt: Data
    public var kdfIterations: Int
    /// The notes key sealed with the client's master key; opaque to the server.
    public var wrappedNotesKey: Data

    public init(
        authKeyHash: Data, authSalt: Data, authIterations: Int, kdfSalt: Data, kdfIterations: Int,
        wrappedNotesKey: Data
    ) {
        self.authKeyHash = authKeyHash
        self.authSalt = authSalt
        self.authIterations = authIterations
        self.kdfSalt = kdfSalt
        self.kdfIterations = kdfIterations
        self.wrappedNotesKey = wrappedNotesKey
    }
}

/// An account that can sign in.
public struct StoredAccount: Sendable, Equatable {
    public var id: AccountID
    /// The random lowercase UUID clients know the account by (`accountId`).
    public var publicID: String
    /// Lowercased.
    public var username: String
    public var credentials: AccountCredentials

    public init(id: AccountID, publicID: String, username: String, credentials: AccountCredentials) {
        self.id = id
        self.publicID = publicID
        self.username = username
        self.credentials = credentials
    }
}

/// The server's id of a session (one signed-in device).
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { "session \(rawValue)" }
}

/// A session's current pair of tokens, as stored: SHA-256 hex hashes only.
public struct SessionTokenHashes: Sendable, Equatable {
    public var accessHash: String
    public var accessExpiresAt: Date
    public var refreshHash: String

    public init(accessHash: String, accessExpiresAt: Date, refreshHash: String) {
        self.accessHash = accessHash
        self.accessExpiresAt = accessExpiresAt
        self.refreshHash = refreshHash
    }
}

/// The live (not revoked) session an access token belongs to; it may have expired.
public struct AuthenticatedSession: Sendable, Equatable {
    public var session: SessionID
    public var account: AccountID
    public var accessExpiresAt: Date

    public init(session: SessionID, account: AccountID, accessExpiresAt: Date) {
        self.session = session
        self.account = account
        self.accessExpiresAt = accessExpiresAt
    }
}

/// The result of ``ServerStorage/refreshSession(refreshHash:replacement:)``.
public enum RefreshOutcome: Sendable, Equatable {
    /// The token was the session's current one; the session now holds the replacement pair.
    case rotated(StoredAccount)
    /// The token was the session's previous one, already rotated: someone replayed it. The whole
    /// session is now revoked.
    case reused
    /// No live session has this token (never issued, too old, or its session was revoked).
    case unknown
}
