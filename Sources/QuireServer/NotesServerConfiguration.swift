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

    /// When repeated failed sign-ins lock a username or an address.
    public var throttle = LoginThrottle.Policy()

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
