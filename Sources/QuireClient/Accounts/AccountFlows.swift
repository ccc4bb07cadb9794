import Foundation
import QuireCrypto
import QuireWire

/// The account operations a user starts (`quire register`, `login`, `passwd`, `logout`): each one
/// derives keys, talks to the server through ``AccountsAPIClient`` and returns the
/// ``AccountSession`` the caller should store.
///
/// The password never leaves the device: PBKDF2 turns it into an auth key (sent) and a master key
/// (kept, used only to wrap and unwrap the random notes key). None of these store anything: the
/// caller saves the returned session in its ``CredentialStore``, or clears it after `logout`.
/// Cancelling the caller cancels the request in progress; a key derivation already running finishes.
public enum AccountFlows {
    /// Creates an account with a new random notes key and a new recovery key, then signs this
    /// device in.
    ///
    /// The password is checked first (``PasswordStrength``); a weak one is refused before anything
    /// is derived or sent. The notes key is wrapped twice, each copy bound to `username`: with the
    /// master key, and with the recovery key's wrapping key. The server gets both copies and the
    /// recovery key's auth key, never the recovery key. The device then signs in as
    /// ``login(serverURL:username:password:deviceName:transport:trust:minimumIterations:)`` would and
    /// checks the server hands back the same key.
    /// `trust` is kept in the session, for every later request (make `transport` with it too).
    /// - Returns: the session to store and the recovery key to show once.
    /// - Throws: ``AccountError``: `weakPassword` (nothing sent), `usernameTaken`, `throttled`,
    ///   `unreachable`, `transient`, `refused`, `invalidResponse`, `keyUnwrapFailed` (the server
    ///   returned another key), `insecureConnection` and `untrustedCertificate` (from the
    ///   transport, before any key is sent).
    public static func register(
        serverURL: URL, username: String, password: String, deviceName: String, transport: HTTPTransport,
        trust: ServerTrust = .system, iterations: Int = KeyDerivation.defaultIterations
    ) async throws -> AccountRegistration {
        try AccountKeys.checkNewPassword(password, username: username)
        let accounts = AccountsAPIClient(transport: transport)
        let notesKey = SymmetricKey256.random()
        let recoveryKey = RecoveryKey.random()
        let (kdf, keys, wrapped) = try await AccountKeys.newPasswordMaterial(
            password, notesKey: notesKey, username: username, iterations: iterations)
        _ = try await accounts.register(
            CreateAccountRequestDTO(
                username: username, authKey: keys.authKey.data.base64EncodedString(), kdf: kdf,
                wrappedNotesKey: wrapped.base64EncodedString(),
                recovery: try AccountKeys.recoveryMaterial(recoveryKey, notesKey: notesKey, username: username)))
        let session = try await openSession(
            serverURL: serverURL, trust: trust, username: username, keys: keys, kdf: kdf, deviceName: deviceName,
            accounts: accounts)
        guard try session.notesKeyValue() == notesKey else {
            throw AccountError.keyUnwrapFailed.with(
                message: "The server returned a different notes key than the one just registered.")
        }
        return AccountRegistration(session: session, recoveryKey: recoveryKey)
    }

    /// Signs this device in: fetches the account's key-derivation parameters, refuses unsafe ones,
    /// derives the keys, opens a session and unwraps the notes key.
    /// - Parameters:
    ///   - trust: kept in the session, for every later request (make `transport` with it too).
    ///   - minimumIterations: the fewest PBKDF2 iterations accepted from the server.
    /// - Throws: ``AccountError``: `unsafeKeyDerivation` (before any key is derived or sent),
    ///   `invalidCredentials`, `throttled` (with `retryAfter`), `keyUnwrapFailed` ("wrong password or
    ///   corrupted key"), `unreachable`, `transient`, `refused`, `invalidResponse`,
    ///   `insecureConnection`, `untrustedCertificate`.
    public static func login(
        serverURL: URL, username: String, password: String, deviceName: String, transport: HTTPTransport,
        trust: ServerTrust = .system, minimumIterations: Int = KeyDerivation.defaultIterations
    ) async throws -> AccountSession {
        let accounts = AccountsAPIClient(transport: transport)
        let kdf = try await accounts.kdf(username: username)
        let salt = try AccountKeys.checkedSalt(kdf, minimumIterations: minimumIterations)
        let keys = try await AccountKeys.derive(password: password, salt: salt, iterations: kdf.iterations)
        return try await openSession(
            serverURL: serverURL, trust: trust, username: username, keys: keys, kdf: kdf, deviceName: deviceName,
            accounts: accounts)
    }

    /// Changes the password: re-wraps the same notes key under keys derived from `newPassword` with a
    /// new salt. No note is re-encrypted and nothing is lost; the recovery key keeps working (its
    /// copy of the notes key is untouched).
    ///
    /// A weak `newPassword` is refused before anything is derived or sent (``PasswordStrength``).
    /// The server is expected to keep this session valid and sign out the account's other sessions;
    /// they sign in again with the new password and unwrap the same notes key. If the access token
    /// was refused, the session is refreshed once and the change retried. If no answer comes, the
    /// change may or may not have happened: the old password or the new one works, not both.
    /// - Returns: `session` with the new kdf parameters (and new tokens if it was refreshed).
    /// - Throws: ``AccountError``: `weakPassword`, `signedOut` (no tokens, or the refresh was
    ///   refused), `invalidCredentials` (wrong current password), `throttled`, `unreachable`,
    ///   `transient`, `refused`, `unsafeKeyDerivation`/`unreadableSession` for a damaged stored session.
    public static func changePassword(
        session: AccountSession, currentPassword: String, newPassword: String, transport: HTTPTransport,
        iterations: Int = KeyDerivation.defaultIterations, now: @Sendable () -> Date = Date.init
    ) async throws -> AccountSession {
        try AccountKeys.checkNewPassword(newPassword, username: session.username)
        guard session.isSignedIn else { throw AccountError.signedOut }
        let accounts = AccountsAPIClient(transport: transport)
        let notesKey = try session.notesKeyValue()
        let current = try await currentKeys(session, password: currentPassword)
        let (newKDF, new, wrapped) = try await AccountKeys.newPasswordMaterial(
            newPassword, notesKey: notesKey, username: session.username, iterations: iterations)
        let request = ChangePasswordRequestDTO(
            currentAuthKey: current.authKey.data.base64EncodedString(),
            newAuthKey: new.authKey.data.base64EncodedString(), kdf: newKDF,
            wrappedNotesKey: wrapped.base64EncodedString())

        var updated = try await withAccessToken(session, accounts: accounts, now: now) { token in
            try await accounts.changePassword(request, accessToken: token)
        }
        updated.kdf = newKDF
        return updated
    }

    /// How a sign-out went on the server's side. The device signs out either way.
    public enum LogoutOutcome: Sendable, Equatable {
        /// The server ended the session (or it had already ended).
        case confirmed
        /// The server could not be told; its session lapses when its tokens expire.
        case notConfirmed(AccountError)
    }

    /// Ends the session on the server (`DELETE /v1/sessions/current`). Never throws: a failure to
    /// reach the server is returned, for the caller to report, and the caller clears its store
    /// either way. Cancellation is returned as a `transient` failure.
    public static func logout(session: AccountSession, transport: HTTPTransport) async -> LogoutOutcome {
        guard let accessToken = session.accessToken else { return .confirmed }
        do {
            try await AccountsAPIClient(transport: transport).logout(accessToken: accessToken)
            return .confirmed
        } catch let error as AccountError where error == .signedOut || error == .invalidCredentials {
            return .confirmed
        } catch let error as AccountError {
            return .notConfirmed(error)
        } catch {
            return .notConfirmed(AccountError.transient.with(message: "Signing out was interrupted."))
        }
    }

    // MARK: - Shared steps

    /// The keys of the current password, derived with the session's stored parameters (accepted
    /// at sign-in; checked again, as they come from a file).
    static func currentKeys(_ session: AccountSession, password: String) async throws -> KeyDerivation.Keys {
        let salt = try AccountKeys.checkedSalt(session.kdf, minimumIterations: 1)
        return try await AccountKeys.derive(password: password, salt: salt, iterations: session.kdf.iterations)
    }

    /// Runs `request` with the session's access token; when the token is refused, refreshes the
    /// session once and runs it again, as the notes client does.
    /// - Returns: `session`, with new tokens if it was refreshed.
    /// - Throws: ``AccountError/signedOut`` without tokens or when the refresh is refused; what
    ///   `request` throws otherwise.
    static func withAccessToken(
        _ session: AccountSession, accounts: AccountsAPIClient, now: @Sendable () -> Date,
        _ request: (String) async throws -> Void
    ) async throws -> AccountSession {
        guard let accessToken = session.accessToken, let refreshToken = session.refreshToken else {
            throw AccountError.signedOut
        }
        do {
            try await request(accessToken)
            return session
        } catch let error as AccountError where error == .signedOut {
            let dto: SessionDTO
            do {
                dto = try await accounts.refresh(refreshToken: refreshToken)
            } catch let error as AccountError where error == .invalidCredentials || error == .refused {
                throw AccountError.signedOut.with(status: error.status, code: error.code)
            }
            try await request(dto.accessToken)
            return session.withTokens(of: dto, now: now())
        }
    }

    /// `POST /v1/sessions` with `keys`, then unwraps the notes key the server returns.
    private static func openSession(
        serverURL: URL, trust: ServerTrust, username: String, keys: KeyDerivation.Keys, kdf: KDFParametersDTO,
        deviceName: String, accounts: AccountsAPIClient
    ) async throws -> AccountSession {
        let dto = try await accounts.login(
            CreateSessionRequestDTO(
                username: username, authKey: keys.authKey.data.base64EncodedString(), deviceName: deviceName))
        return try session(
            from: dto, serverURL: serverURL, trust: trust, username: username, masterKey: keys.masterKey, kdf: kdf)
    }

    /// The session of a sign-in's answer, once its wrapped notes key opens with `masterKey`.
    /// - Throws: ``AccountError/keyUnwrapFailed`` when it does not.
    static func session(
        from dto: SessionDTO, serverURL: URL, trust: ServerTrust, username: String, masterKey: SymmetricKey256,
        kdf: KDFParametersDTO
    ) throws -> AccountSession {
        guard let wrapped = Data(base64Encoded: dto.wrappedNotesKey) else {
            throw AccountError.keyUnwrapFailed
        }
        let notesKey: SymmetricKey256
        do {
            notesKey = try KeyDerivation.unwrap(
                wrapped, with: masterKey,
                associatedData: AccountKeys.notesKeyAssociatedData(username: username))
        } catch {
            throw AccountError.keyUnwrapFailed
        }
        let session = AccountSession(
            serverURL: serverURL, username: username, accountId: dto.accountId, accessToken: nil,
            refreshToken: nil, accessTokenExpiresAt: nil, notesKey: notesKey.data.base64EncodedString(),
            kdf: kdf, trust: trust)
        return session.withTokens(of: dto, now: Date())
    }
}
