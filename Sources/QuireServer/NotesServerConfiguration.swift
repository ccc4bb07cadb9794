import Foundation

/// The server's tunable security settings: token lifetimes, key-derivation floors and the login
/// throttle. The defaults are production values; tests and the demo lower the iteration counts.
public struct NotesServerConfiguration: Sendable, Equatable {
    /// How long an access token works, in seconds (`expiresIn` of a session). Default 15 minutes.
    public var accessTokenTTL: Int = 900

    /// The fewest PBKDF2 iterations a new account (or a password change) may declare for its
    /// client-side key derivation. Default 100,000; `--min-kdf-iterations` lowers it for tests.
    public var minKDFIterations: Int = 100_000

    /// The iterations the kdf route reports for a username that has no account: what the server
    /// recommends for new accounts, so a fake answer looks like a real one.
    public var newAccountKDFIterations: Int = 600_000

    /// PBKDF2-HMAC-SHA256 iterations of the server's own slow hash of each auth key.
    /// Default 100,000; `--auth-hash-iterations` lowers it for tests.
    public var authHashIterations: Int = 100_000

    /// How repeated failed sign-ins slow a (username, address) and an address.
    public var throttle = LoginThrottle.Policy()

    /// The reverse proxies whose `X-Forwarded-For` names the client's address; none by default
    /// (the socket's peer is the client). `--trusted-proxy`.
    public var trustedProxies = TrustedProxies()

    /// How many accounts one client address may register, and how fast that allowance refills.
    public var registrationLimit = RegistrationLimit.Policy()

    /// The most notes and stored payload bytes one account may keep.
    public var noteQuota = NoteQuota()

    /// The most trips one account may own, and the most bytes of one trip's values.
    public var tripQuota = TripQuota()

    /// How long after a refresh, in seconds, its refresh token may be presented once more to
    /// get a fresh pair instead of revoking the session: the retry of a device whose reply was
    /// lost (a dropped connection, a process killed mid-refresh). It holds only while the pair
    /// the refresh answered is unused; see ``NotesServer`` `refresh`. Default 60 seconds, the
    /// longest of the major identity providers' defaults; 0 turns it off (every second use of a
    /// refresh token revokes its session).
    public var refreshRetryGrace: TimeInterval = 60

    /// When sessions end for want of use, and at the latest: 60 and 365 days by default.
    /// `--session-idle-days`, `--session-max-days`.
    public var sessionLifetime = SessionLifetime()

    /// The most long-polls (`wait=` on the notes feed, and on the trips feed, counted apart) one
    /// account may hold at once. One more answers at once with the current page and
    /// `Retry-After`, so a client cannot pin the server's connections by polling in a loop.
    /// Default 64: a device holds one, a person has a few devices.
    public var longPollsPerAccount: Int = 64

    /// The most payload bytes one changes page carries: a page stops before the note that would
    /// pass it (and says `hasMore`), though it always carries at least one note. Default 8 MiB,
    /// twice the largest note a PUT can store.
    public var changesPageBytes: Int = 8 * 1024 * 1024

    /// On a store several instances share, how often a waiting long-poll reads its feed again on
    /// its own, in case the notification of another instance's write was lost (a listener
    /// reconnecting, notifications turned off): the longest such a loss can delay an answer.
    /// Notifications normally wake it within milliseconds. Default 2 seconds. Unused on SQLite,
    /// where every write is this process's own and wakes its polls directly.
    public var liveUpdateRecheck: Duration = .seconds(2)

    /// The most rows of each kind one batch of background work deletes (tombstones, idempotency
    /// records, marks, sessions): each batch is one short transaction, so writes wait at most
    /// that long. Default 500.
    public var backgroundBatchSize: Int = 500

    /// Which earlier versions of notes the server keeps, and for how long (history and trash).
    public var history = HistoryRetention()

    /// Resumable uploads (photos): the blob directory, size limits, quota and expiry.
    public var uploads = UploadSettings()

    /// The token `GET /metrics` requires (`Authorization: Bearer TOKEN`) from any client; nil
    /// (the default) answers loopback clients only, so metrics never reach the open internet
    /// unless a scraper holds the token (`--metrics-token-file`).
    public var metricsToken: String?

    public init(
        accessTokenTTL: Int = 900, minKDFIterations: Int = 100_000,
        newAccountKDFIterations: Int = 600_000, authHashIterations: Int = 100_000,
        throttle: LoginThrottle.Policy = LoginThrottle.Policy()
    ) {
        self.accessTokenTTL = accessTokenTTL
        self.minKDFIterations = minKDFIterations
        self.newAccountKDFIterations = newAccountKDFIterations
        self.authHashIterations = authHashIterations
        self.throttle = throttle
    }
}
