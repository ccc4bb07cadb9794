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

/// What the server keeps of an account's recovery key (issue 12, item 11): a slow salted hash of
/// the recovery auth key, and the notes key sealed under the recovery wrapping key. Neither lets
/// anyone reset the password or read a note; the recovery key itself never reaches the server.
public struct RecoveryCredentials: Sendable, Equatable {
    /// PBKDF2-HMAC-SHA256 of the recovery auth key under `authSalt`, `authIterations` rounds.
    public var authKeyHash: Data
    public var authSalt: Data
    public var authIterations: Int
    /// The notes key sealed with the recovery wrapping key; opaque to the server.
    public var wrappedNotesKey: Data

    public init(authKeyHash: Data, authSalt: Data, authIterations: Int, wrappedNotesKey: Data) {
        self.authKeyHash = authKeyHash
        self.authSalt = authSalt
        self.authIterations = authIterations
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
    /// Nil for an account registered before recovery keys, until it makes one.
    public var recovery: RecoveryCredentials?

    public init(
        id: AccountID, publicID: String, username: String, credentials: AccountCredentials,
        recovery: RecoveryCredentials? = nil
    ) {
        self.id = id
        self.publicID = publicID
        self.username = username
        self.credentials = credentials
        self.recovery = recovery
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
    /// When the pair was made: a refresh that rotates to it is decided at this time.
    public var issuedAt: Date
    /// Until when the refresh token this pair replaces may be presented once more, while this
    /// pair is still unused, to get a fresh pair of the same session instead of revoking it: the
    /// retry of a device whose reply was lost. Nil: never. Only a refresh's replacement uses it.
    public var replacedTokenRetryUntil: Date?

    public init(
        accessHash: String, accessExpiresAt: Date, refreshHash: String, issuedAt: Date,
        replacedTokenRetryUntil: Date? = nil
    ) {
        self.accessHash = accessHash
        self.accessExpiresAt = accessExpiresAt
        self.refreshHash = refreshHash
        self.issuedAt = issuedAt
        self.replacedTokenRetryUntil = replacedTokenRetryUntil
    }
}

/// The live (not revoked) session an access token belongs to; it may have expired.
public struct AuthenticatedSession: Sendable, Equatable {
    public var session: SessionID
    public var account: AccountID
    public var accessExpiresAt: Date
    /// When the session began (its sign-in); nil when the store does not say.
    public var startedAt: Date?

    public init(session: SessionID, account: AccountID, accessExpiresAt: Date, startedAt: Date? = nil) {
        self.session = session
        self.account = account
        self.accessExpiresAt = accessExpiresAt
        self.startedAt = startedAt
    }
}

/// A live session as its account's list shows it (`GET /v1/sessions`).
public struct StoredSession: Sendable, Equatable {
    public var id: SessionID
    public var deviceName: String
    /// Its sign-in.
    public var startedAt: Date
    /// Its last sign-in or refresh.
    public var lastUsedAt: Date

    public init(id: SessionID, deviceName: String, startedAt: Date, lastUsedAt: Date) {
        self.id = id
        self.deviceName = deviceName
        self.startedAt = startedAt
        self.lastUsedAt = lastUsedAt
    }
}

/// The result of ``ServerStorage/refreshSession(refreshHash:replacement:)``.
public enum RefreshOutcome: Sendable, Equatable {
    /// The token was the session's current one; the session now holds the replacement pair.
    case rotated(StoredAccount)
    /// The token was the session's previous one, presented again within its retry window while
    /// the pair it was rotated into was unused: a device retrying a refresh whose reply it lost.
    /// The session now holds the replacement pair; the unused pair stopped working, and the
    /// token gets no further retry.
    case retried(StoredAccount)
    /// The token was the session's previous one, already rotated, and not a retry (the new pair
    /// was used, the window passed, or its one retry was spent): someone replayed it. The whole
    /// session is now revoked.
    case reused
    /// No live session has this token (never issued, too old, or its session was revoked).
    case unknown
}
