import Foundation
import QuireCrypto
import QuireWire

/// Sessions: signing in, refreshing with rotation and reuse detection, signing out, and the
/// bearer authentication of every other route.
///
/// Tokens are 256 random bits (``SecureRandom/token(byteCount:)``); the database holds only their
/// SHA-256 hashes. Looking a token up by its hash is safe against timing attacks: an attacker can
/// learn at most a prefix of the hash of a token they do not know, which does not help guess it.
extension NotesServer {
    /// `POST /v1/sessions`: a new session for the right username and auth key, 401
    /// `invalid_credentials` otherwise (the same answer, after the same work, for an unknown
    /// username), or 429 with `Retry-After` while the username or address is locked, decided
    /// before the key is checked.
    func signIn(_ request: HTTPRequest) async throws -> HTTPResponse {
        try checkAccountBodySize(request)
        let body = try RequestValidation.signIn(request.body)
        let attempt = try await admit(username: body.username.value, request: request)
        let account = try await storage.account(username: body.username.value)
        guard try await hasher.verify(body.authKey, against: account?.credentials), let account else {
            throw APIError.invalidCredentials
        }
        try await throttle.succeeded(attempt)
        let (access, refresh, hashes) = newTokens()
        _ = try await storage.createSession(
            account: account.id, deviceName: body.deviceName, tokens: hashes, now: now())
        return .json(200, sessionDTO(account, access: access, refresh: refresh))
    }

    /// `POST /v1/sessions/refresh`: a new token pair; the presented refresh token stops working.
    /// Presenting a refresh token that was already rotated revokes its whole session (OAuth 2.0
    /// Security BCP's reuse detection): whoever holds the newer pair loses it too.
    ///
    /// One exception, for a device that lost the reply (a dropped connection, a process killed
    /// mid-refresh) and sends the same refresh again: the session's immediately previous refresh
    /// token, presented within ``NotesServerConfiguration/refreshRetryGrace`` of its rotation and
    /// before either token of the pair it was rotated into has been presented, gets a fresh pair
    /// of the same session, and the unused pair stops working. That retry is allowed once per
    /// rotation. After the new pair was used, after the window, or a second time, it is a replay
    /// and revokes the session. A token older than the previous one is simply unknown (401,
    /// nothing revoked).
    ///
    /// A thief who caught the lost reply and uses it first makes the device's retry a replay, so
    /// the theft still ends the session; one who has not used it yet loses it to the retry.
    func refresh(_ request: HTTPRequest) async throws -> HTTPResponse {
        try checkAccountBodySize(request)
        let token = try RequestValidation.refreshToken(request.body)
        var (access, refresh, hashes) = newTokens()
        if configuration.refreshRetryGrace > 0 {
            hashes.replacedTokenRetryUntil = hashes.issuedAt.addingTimeInterval(
                configuration.refreshRetryGrace)
        }
        switch try await storage.refreshSession(
            refreshHash: Self.tokenHash(token), replacement: hashes,
            expiry: configuration.sessionLifetime.expiry(at: hashes.issuedAt))
        {
        case .rotated(let account):
            return .json(200, sessionDTO(account, access: access, refresh: refresh))
        case .retried(let account):
            log("a refresh was retried within its grace window; the unused pair is replaced")
            return .json(200, sessionDTO(account, access: access, refresh: refresh))
        case .reused:
            log("a rotated refresh token was presented again; its session is revoked")
            throw APIError.invalidRefreshToken
        case .unknown:
            throw APIError.invalidRefreshToken
        }
    }

    /// `DELETE /v1/sessions/current`: 204; the session's tokens stop working. An expired access
    /// token may still sign its own session out.
    func signOut(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await authenticate(request, allowExpired: true)
        try await storage.revokeSession(session.session)
        return .empty(204)
    }

    /// The live session of the request's bearer token. Throws 401 `unauthorized` for a missing,
    /// unknown or revoked token, or one whose session passed its absolute lifetime (an access
    /// token issued just before it would otherwise outlive it), 401 `token_expired` for an
    /// expired one (unless `allowExpired`).
    func authenticate(_ request: HTTPRequest, allowExpired: Bool = false) async throws
        -> AuthenticatedSession
    {
        guard let token = RequestValidation.bearerToken(request),
            let session = try await storage.session(accessHash: Self.tokenHash(token))
        else { throw APIError.unauthorized }
        if let started = session.startedAt,
            started < now().addingTimeInterval(-configuration.sessionLifetime.absolute)
        {
            throw APIError.unauthorized
        }
        guard allowExpired || now() < session.accessExpiresAt else {
            throw APIError.tokenExpired
        }
        return session
    }

    // MARK: - In-process accounts

    /// Registers `username` with a random auth key nobody knows and opens one session; returns
    /// its access token. For in-process tests and tools that need an account without a client:
    /// no one can sign in to it with a password, and the token expires like any other.
    ///
    /// Throws ``ServerStorageError/invalidUsername(_:)`` or ``ServerStorageError/usernameTaken(_:)``.
    public func createAccount(username rawName: String) async throws -> String {
        guard let username = Username(rawName) else {
            throw ServerStorageError.invalidUsername(rawName)
        }
        let kdf = ClientKDF(
            salt: SecureRandom.bytes(16), iterations: configuration.newAccountKDFIterations)
        do {
            _ = try await register(
                username: username, authKey: SecureRandom.bytes(RequestValidation.authKeyBytes),
                kdf: kdf, wrappedNotesKey: SecureRandom.bytes(60))
        } catch let error as APIError where error == .usernameTaken {
            throw ServerStorageError.usernameTaken(username.value)
        }
        guard let account = try await storage.account(username: username.value) else {
            throw ServerStorageError.closed
        }
        let (access, _, hashes) = newTokens()
        _ = try await storage.createSession(
            account: account.id, deviceName: "in-process", tokens: hashes, now: now())
        return access
    }

    /// Opens one more session (one more device) for an existing account and returns its access
    /// token: for in-process harnesses, where each simulated device must be its own session (the
    /// feed spares a session its own writes). Not reachable over HTTP.
    public func openSession(username rawName: String, deviceName: String = "in-process") async throws
        -> String
    {
        try await openSessionTokens(username: rawName, deviceName: deviceName).accessToken
    }

    /// ``openSession(username:deviceName:)`` with both tokens, as the sign-in route answers: for
    /// harnesses whose devices refresh their tokens (the simulation's lost refresh replies).
    public func openSessionTokens(username rawName: String, deviceName: String = "in-process")
        async throws -> SessionDTO
    {
        guard let username = Username(rawName),
            let account = try await storage.account(username: username.value)
        else {
            throw ServerStorageError.invalidUsername(rawName)
        }
        let (access, refresh, hashes) = newTokens()
        _ = try await storage.createSession(
            account: account.id, deviceName: deviceName, tokens: hashes, now: now())
        return sessionDTO(account, access: access, refresh: refresh)
    }

    // MARK: - Tokens

    /// A fresh access and refresh token and their stored form.
    func newTokens() -> (access: String, refresh: String, hashes: SessionTokenHashes) {
        let access = SecureRandom.token()
        let refresh = SecureRandom.token()
        let issued = now()
        let expiry = issued.addingTimeInterval(TimeInterval(configuration.accessTokenTTL))
        return (
            access, refresh,
            SessionTokenHashes(
                accessHash: Self.tokenHash(access), accessExpiresAt: expiry,
                refreshHash: Self.tokenHash(refresh), issuedAt: issued)
        )
    }

    func sessionDTO(_ account: StoredAccount, access: String, refresh: String)
        -> SessionDTO
    {
        SessionDTO(
            accountId: account.publicID, accessToken: access, refreshToken: refresh,
            expiresIn: configuration.accessTokenTTL,
            wrappedNotesKey: account.credentials.wrappedNotesKey.base64EncodedString())
    }

    /// The stored form of a token: lowercase SHA-256 hex.
    static func tokenHash(_ token: String) -> String {
        SHA256Digest.hex(Data(token.utf8))
    }
}
